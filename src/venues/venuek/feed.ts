import type { VenuekConfig } from './config.js'
import type { Clock } from '../../core/clock.js'
import type { Stamp } from '../../core/precise-time.js'
import { backoffDelayMs } from '../../core/backoff.js'
import type { TimerHandle } from '../../core/clock.js'
import type { Logger } from '../../core/logger.js'
import type { FeedEvent, FeedSink, FeedStatus, VenueFeed } from '../types.js'
import { instrumentChanges } from '../streamed-instruments.js'
import { WsConnection } from '../ws-connection.js'
import { scanDataFrame } from './frame-scan.js'
import { mapVenuekData } from './map-message.js'
import type { KEnvelope } from './wire.js'

/**
 * venuek WS v2 on one connection, markets split into groups of `marketsPerSubscription`, each group one
 * `subscribe` command (one sid per channel). Groups are subscribed a few at a time
 * (`maxSubscriptionsInFlight`): the next group goes out when an earlier one has all its snapshots, so the
 * venue never has to queue every book of the catalog for one socket. `seq` is per sid and covers snapshots and deltas (venuek.md
 * §6.3): any gap on a group's order-book sid means a lost delta for some market of the group, so the group
 * is reported stale and resubscribed (unsubscribe the old sid, subscribe again: the venue sends fresh
 * snapshots on the new sid, and frames still in flight on the old sid are ignored). A frame we cannot parse
 * cannot be attributed to a sid, so every group is resynced.
 */
type Channel = 'orderbook_delta' | 'trade' | 'ticker'

interface Group {
  readonly index: number
  readonly tickers: Set<string>
  readonly sids: Map<Channel, number>
  /** Tickers subscribed on the current book sid that have not had their snapshot yet, and since when. */
  readonly awaiting: Set<string>
  awaitingSince: number
  /** Channels the next `subscribe` for this group must cover (all, or only the book after a resync). */
  needs: readonly Channel[]
}

interface SidState {
  readonly group: Group
  readonly channel: Channel
  lastSeq: number
}

const ALL_CHANNELS: readonly Channel[] = ['orderbook_delta', 'trade', 'ticker']

export interface VenuekFeedOptions {
  readonly url: string
  readonly config: VenuekConfig['feed']
  readonly clock: Clock
  /** Stamps each frame's receipt (WsConnectionOptions.receiptStamp). */
  readonly receiptStamp?: Stamp | undefined
  readonly log: Logger
  readonly sink: FeedSink
  /** Handshake headers (signed) per connection attempt. */
  readonly headers?: () => Record<string, string>
}

export class VenuekFeed implements VenueFeed {
  readonly #o: VenuekFeedOptions
  readonly #conn: WsConnection
  readonly #groups: Group[] = []
  readonly #groupOf = new Map<string, Group>()
  readonly #sids = new Map<number, SidState>()
  /** Command id → the group a `subscribed` reply belongs to, and how many channel replies are still due. */
  readonly #pending = new Map<number, { readonly group: Group; remaining: number; readonly sentAt: number }>()
  readonly #watchdog: TimerHandle
  #ackFailures = 0
  /** Groups waiting to be subscribed on the current socket, and those subscribed but not yet complete. */
  #queue: Group[] = []
  readonly #inFlight = new Set<Group>()
  #nextId = 1
  #nextGroup = 0
  #gaps = 0
  #malformed = 0

  constructor(options: VenuekFeedOptions) {
    this.#o = options
    this.#conn = new WsConnection({
      name: 'venuek-ws',
      url: options.url,
      clock: options.clock,
      receiptStamp: options.receiptStamp,
      log: options.log,
      reconnectBaseMs: options.config.reconnectBaseMs,
      reconnectMaxMs: options.config.reconnectMaxMs,
      staleAfterMs: options.config.staleAfterMs,
      // Protocol pings: the venue answers them with pongs (it has no JSON-level heartbeat).
      keepalive: { intervalMs: options.config.pingIntervalMs, replyWithinMs: options.config.probeReplyMs },
      connectTimeoutMs: options.config.connectTimeoutMs,
      headers: options.headers,
      // Without credentials the handshake goes out unsigned, and the live venue answers 401.
      authHint:
        options.headers === undefined
          ? 'the handshake was unsigned: set VENUEK_API_KEY_ID and VENUEK_PRIVATE_KEY_PATH'
          : 'the venue refused the signed handshake: check VENUEK_API_KEY_ID and that VENUEK_PRIVATE_KEY_PATH is its private key',
      onOpen: () => {
        this.#inFlight.clear()
        this.#queue = [...this.#groups]
        for (const g of this.#groups) g.needs = ALL_CHANNELS
        this.#pump()
      },
      onMessage: (data, receivedAt) => this.#onMessage(data, receivedAt),
      onDown: (reason) => {
        this.#sids.clear()
        this.#pending.clear()
        this.#queue = []
        this.#inFlight.clear()
        for (const g of this.#groups) {
          g.sids.clear()
          g.awaiting.clear()
        }
        if (this.#groupOf.size > 0)
          options.sink([{ type: 'stale', instrumentIds: [...this.#groupOf.keys()], reason }], options.clock.now())
      },
    })
    const timeout = options.config.snapshotTimeoutMs
    this.#watchdog = options.clock.setInterval(() => this.#checkProgress(), Math.max(50, Math.floor(timeout / 4)))
  }

  setInstruments(instrumentIds: readonly string[]): void {
    const { added, removed } = instrumentChanges(this.#groupOf, instrumentIds)
    this.changeInstruments(added, removed)
  }

  /** O(changes): removed tickers leave their groups (an emptied group is unsubscribed); added ones form new groups. */
  changeInstruments(added: readonly string[], removed: readonly string[]): void {
    const removedByGroup = new Map<Group, string[]>()
    for (const t of removed) {
      const g = this.#groupOf.get(t)
      if (g === undefined) continue
      const list = removedByGroup.get(g)
      if (list === undefined) removedByGroup.set(g, [t])
      else list.push(t)
    }
    for (const g of [...this.#groups]) {
      const gone = removedByGroup.get(g)
      if (gone === undefined) continue
      for (const t of gone) {
        g.tickers.delete(t)
        this.#groupOf.delete(t)
      }
      if (g.tickers.size === 0) {
        this.#unsubscribe(g)
        this.#groups.splice(this.#groups.indexOf(g), 1)
        this.#queue = this.#queue.filter((q) => q !== g)
        if (this.#inFlight.delete(g)) this.#pump()
      } else {
        for (const sid of g.sids.values())
          this.#send({ cmd: 'update_subscription', params: { sid, market_tickers: gone, action: 'delete_markets' } })
      }
    }
    const fresh = added.filter((t) => !this.#groupOf.has(t))
    const size = this.#o.config.marketsPerSubscription
    for (let i = 0; i < fresh.length; i += size) {
      const g: Group = {
        index: this.#nextGroup++,
        tickers: new Set(fresh.slice(i, i + size)),
        sids: new Map(),
        awaiting: new Set(),
        awaitingSince: 0,
        needs: ALL_CHANNELS,
      }
      this.#groups.push(g)
      for (const t of g.tickers) this.#groupOf.set(t, g)
      if (this.#conn.isOpen) this.#queue.push(g)
    }
    this.#pump()
    if (this.#groups.length > 0) this.#conn.start()
  }

  close(): void {
    this.#o.clock.clearInterval(this.#watchdog)
    this.#conn.close()
  }

  /**
   * Commands must be acknowledged and subscribed books must get their snapshots within `snapshotTimeoutMs`.
   * A lost acknowledgement restarts the connection (we no longer know which sids are ours); a missing
   * snapshot resubscribes that group.
   */
  #checkProgress(): void {
    const now = this.#o.clock.now()
    const timeout = this.#o.config.snapshotTimeoutMs
    for (const p of this.#pending.values()) {
      if (now - p.sentAt <= timeout) continue
      const delay = backoffDelayMs(this.#ackFailures++, {
        baseMs: this.#o.config.reconnectBaseMs,
        maxMs: this.#o.config.reconnectMaxMs,
      })
      this.#o.log.warn({ feed: 'venuek-ws' }, 'subscription not acknowledged: reconnecting')
      this.#conn.restart('subscription not acknowledged', delay)
      return
    }
    for (const g of this.#groups) {
      if (g.awaiting.size > 0 && now - g.awaitingSince > timeout) {
        this.#o.log.warn(
          { feed: 'venuek-ws', group: g.index, missing: g.awaiting.size },
          'snapshots did not arrive: resubscribing',
        )
        this.#resyncBooks(g, 'snapshots not received after subscribing')
      }
    }
  }

  status(): FeedStatus {
    const c = this.#conn.counters
    return {
      connections: 1,
      openConnections: this.#conn.isOpen ? 1 : 0,
      instruments: this.#groupOf.size,
      subscribed: this.#groups.reduce((n, g) => n + (g.sids.has('orderbook_delta') ? g.tickers.size : 0), 0),
      reconnects: c.reconnects,
      framesReceived: c.framesReceived,
      malformedFrames: this.#malformed,
      sequenceGaps: this.#gaps,
      staleTimeouts: c.staleTimeouts,
      stallResyncs: c.revivals,
      lateRepliesExcused: c.excusedLateReplies,
      lastFrameAt: c.lastFrameAt,
    }
  }

  #send(command: Record<string, unknown>): number {
    const id = this.#nextId++
    this.#conn.send(JSON.stringify({ id, ...command }))
    return id
  }

  /** Subscribes queued groups while fewer than `maxSubscriptionsInFlight` are waiting for snapshots. */
  #pump(): void {
    if (!this.#conn.isOpen) return
    while (this.#inFlight.size < this.#o.config.maxSubscriptionsInFlight) {
      const g = this.#queue.shift()
      if (g === undefined) return
      this.#inFlight.add(g)
      const id = this.#send({
        cmd: 'subscribe',
        params: { channels: g.needs, market_tickers: [...g.tickers], use_yes_price: false },
      })
      this.#pending.set(id, { group: g, remaining: g.needs.length, sentAt: this.#o.clock.now() })
    }
  }

  /** A group is complete once every one of its books has a snapshot; the next queued group may go out. */
  #completeIfSynced(g: Group): void {
    if (g.awaiting.size === 0 && g.sids.has('orderbook_delta') && this.#inFlight.delete(g)) this.#pump()
  }

  #unsubscribe(g: Group): void {
    const sids = [...g.sids.values()]
    for (const sid of sids) this.#sids.delete(sid)
    g.sids.clear()
    if (sids.length > 0) this.#send({ cmd: 'unsubscribe', params: { sids } })
  }

  /** The group's books can no longer be trusted: report them stale and get fresh snapshots on a new sid. */
  #resyncBooks(g: Group, reason: string): void {
    const old = g.sids.get('orderbook_delta')
    if (old !== undefined) {
      this.#sids.delete(old)
      g.sids.delete('orderbook_delta')
      this.#send({ cmd: 'unsubscribe', params: { sids: [old] } })
    }
    g.awaiting.clear()
    this.#o.sink([{ type: 'stale', instrumentIds: [...g.tickers], reason }], this.#o.clock.now())
    // A resync goes to the front of the queue: its books are stale right now.
    this.#inFlight.delete(g)
    this.#queue = this.#queue.filter((q) => q !== g)
    g.needs = g.sids.has('trade') ? ['orderbook_delta'] : ALL_CHANNELS
    this.#queue.unshift(g)
    this.#pump()
  }

  #onMessage(data: string, receivedAt: number): void {
    let env: KEnvelope
    try {
      // Deltas and tickers in the venue's documented layouts skip JSON.parse (frame-scan.ts); anything else is parsed.
      env = scanDataFrame(data) ?? (JSON.parse(data) as KEnvelope)
    } catch {
      this.#malformed++
      this.#o.log.warn({ feed: 'venuek-ws' }, 'unparseable frame: resyncing every book')
      for (const g of this.#groups) this.#resyncBooks(g, 'malformed frame')
      return
    }
    const type = env.type
    if (type === 'subscribed') return this.#onSubscribed(env)
    if (type === 'error') {
      this.#o.log.warn({ feed: 'venuek-ws', id: env.id, venue_error: env.msg }, 'venue command error')
      return
    }
    if (type === 'ok' || type === 'unsubscribed' || type === undefined || env.sid === undefined) return
    const state = this.#sids.get(env.sid)
    if (state === undefined) return // a sid we already left: its frames no longer matter
    if (typeof env.seq === 'number') {
      const expected = state.lastSeq + 1
      state.lastSeq = env.seq
      if (env.seq !== expected) {
        this.#gaps++
        this.#o.log.warn(
          { feed: 'venuek-ws', sid: env.sid, channel: state.channel, expected, got: env.seq },
          'sequence gap',
        )
        if (state.channel === 'orderbook_delta') {
          this.#resyncBooks(state.group, `sequence gap on sid ${env.sid}: expected ${expected}, got ${env.seq}`)
          return
        }
      }
    }
    const events: FeedEvent[] = []
    // Venue times fall back to our receipt in whole ms (a precise receipt stamp's fraction is for `lts` only).
    if (!mapVenuekData(type, env.msg, Math.trunc(receivedAt), events)) {
      this.#malformed++
      if (state.channel === 'orderbook_delta') this.#resyncBooks(state.group, `unreadable ${type}`)
      return
    }
    if (events.length > 0) this.#o.sink(events, receivedAt)
    if (state.group.awaiting.size > 0) {
      for (const e of events) if (e.type === 'snapshot') state.group.awaiting.delete(e.instrumentId)
      this.#completeIfSynced(state.group)
    }
  }

  #onSubscribed(env: KEnvelope): void {
    const pending = env.id === undefined ? undefined : this.#pending.get(env.id)
    const msg = env.msg as { channel?: Channel; sid?: number } | undefined
    if (pending === undefined || msg?.sid === undefined || msg.channel === undefined) return
    // One `subscribed` arrives per channel of the command.
    if (--pending.remaining <= 0) this.#pending.delete(env.id as number)
    const g = pending.group
    if (!this.#groups.includes(g)) {
      this.#send({ cmd: 'unsubscribe', params: { sids: [msg.sid] } })
      return
    }
    g.sids.set(msg.channel, msg.sid)
    this.#sids.set(msg.sid, { group: g, channel: msg.channel, lastSeq: 0 })
    this.#ackFailures = 0
    if (msg.channel === 'orderbook_delta') {
      g.awaiting.clear()
      for (const t of g.tickers) g.awaiting.add(t)
      g.awaitingSince = this.#o.clock.now()
    }
  }
}
