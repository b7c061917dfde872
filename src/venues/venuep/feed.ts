import { addTo } from '../../core/multimap.js'
import type { VenuepConfig } from './config.js'
import type { Clock } from '../../core/clock.js'
import type { Stamp } from '../../core/precise-time.js'
import { backoffDelayMs } from '../../core/backoff.js'
import type { TimerHandle } from '../../core/clock.js'
import type { Logger } from '../../core/logger.js'
import type { FeedEvent, FeedSink, FeedStatus, VenueFeed } from '../types.js'
import { instrumentChanges } from '../streamed-instruments.js'
import { WsConnection } from '../ws-connection.js'
import { ConnectGate } from '../connect-gate.js'
import { mapVenuepFrame } from './map-message.js'

/**
 * venuep's CLOB market channel across as many sockets as needed: the venue stops updating assets past ~500
 * per connection and closes sockets on very large subscribe frames (venuep.md §3.1.4), so each connection holds
 * at most `maxAssetsPerConnection` assets, subscribed in frames of at most `maxIdsPerFrame` ids.
 *
 * venuep has no sequence numbers, so the only safe recovery from anything unexpected (a dropped socket, a
 * stall, a frame we cannot read) is a fresh subscription on a new socket: the venue re-sends every book.
 * Until then the connection's assets are reported stale.
 */
interface Slot {
  readonly index: number
  readonly assets: Set<string>
  readonly conn: WsConnection
  /** Assets whose subscription was sent on the current socket. */
  subscribed: number
  /** Subscribed assets still waiting for their first book on this socket, and since when. */
  readonly awaiting: Set<string>
  awaitingSince: number
  /** Consecutive resubscriptions because books did not arrive, for backoff. */
  snapshotFailures: number
}

export interface VenuepFeedOptions {
  readonly url: string
  readonly config: VenuepConfig['feed']
  readonly clock: Clock
  /** Stamps each frame's receipt (WsConnectionOptions.receiptStamp). */
  readonly receiptStamp?: Stamp | undefined
  readonly log: Logger
  readonly sink: FeedSink
}

export class VenuepFeed implements VenueFeed {
  readonly #o: VenuepFeedOptions
  readonly #slots: Slot[] = []
  readonly #slotOf = new Map<string, Slot>()
  #closed = false
  #nextIndex = 0
  #malformedFrames = 0
  readonly #watchdog: TimerHandle
  /** Every socket's connect attempts queue here: a few handshakes at a time (venuep.md §3.1.4). */
  readonly #connectGate: ConnectGate

  constructor(options: VenuepFeedOptions) {
    this.#o = options
    this.#connectGate = new ConnectGate(options.config.maxConnectsInFlight)
    const timeout = options.config.snapshotTimeoutMs
    this.#watchdog = options.clock.setInterval(() => this.#checkSnapshots(), Math.max(50, Math.floor(timeout / 4)))
  }

  setInstruments(instrumentIds: readonly string[]): void {
    if (this.#closed) return
    const { added, removed } = instrumentChanges(this.#slotOf, instrumentIds)
    this.changeInstruments(added, removed)
  }

  /** O(changes): frees the removed assets' room first, so added assets can reuse it. */
  changeInstruments(added: readonly string[], removed: readonly string[]): void {
    if (this.#closed) return
    const removedBySlot = new Map<Slot, string[]>()
    for (const asset of removed) {
      const slot = this.#slotOf.get(asset)
      if (slot === undefined) continue
      this.#slotOf.delete(asset)
      slot.assets.delete(asset)
      addTo(removedBySlot, slot, asset)
    }
    for (const [slot, assets] of removedBySlot) {
      if (slot.assets.size === 0) this.#dropSlot(slot)
      else this.#sendChunks(slot, 'unsubscribe', assets)
    }
    const addedBySlot = new Map<Slot, string[]>()
    for (const asset of added) {
      if (this.#slotOf.has(asset)) continue
      const slot = this.#slotWithRoom()
      slot.assets.add(asset)
      this.#slotOf.set(asset, slot)
      addTo(addedBySlot, slot, asset)
    }
    for (const [slot, assets] of addedBySlot) {
      if (slot.conn.isOpen) {
        this.#sendChunks(slot, 'subscribe', assets)
        slot.subscribed += assets.length
        this.#await(slot, assets)
      } else {
        slot.conn.start()
      }
    }
  }

  close(): void {
    this.#closed = true
    this.#o.clock.clearInterval(this.#watchdog)
    for (const slot of this.#slots) slot.conn.close()
    this.#slots.length = 0
    this.#slotOf.clear()
  }

  status(): FeedStatus {
    let open = 0
    let subscribed = 0
    let reconnects = 0
    let frames = 0
    let staleTimeouts = 0
    let stallResyncs = 0
    let lateRepliesExcused = 0
    let lastFrameAt: number | undefined
    for (const s of this.#slots) {
      if (s.conn.isOpen) {
        open++
        subscribed += Math.min(s.subscribed, s.assets.size)
      }
      reconnects += s.conn.counters.reconnects
      frames += s.conn.counters.framesReceived
      staleTimeouts += s.conn.counters.staleTimeouts
      stallResyncs += s.conn.counters.revivals
      lateRepliesExcused += s.conn.counters.excusedLateReplies
      const at = s.conn.counters.lastFrameAt
      if (at !== undefined && (lastFrameAt === undefined || at > lastFrameAt)) lastFrameAt = at
    }
    return {
      connections: this.#slots.length,
      openConnections: open,
      instruments: this.#slotOf.size,
      subscribed,
      reconnects,
      framesReceived: frames,
      malformedFrames: this.#malformedFrames,
      sequenceGaps: 0,
      staleTimeouts,
      stallResyncs,
      lateRepliesExcused,
      lastFrameAt,
    }
  }

  #slotWithRoom(): Slot {
    const max = this.#o.config.maxAssetsPerConnection
    const existing = this.#slots.find((s) => s.assets.size < max)
    if (existing !== undefined) return existing
    const index = this.#nextIndex++
    const slot: Slot = {
      index,
      assets: new Set(),
      subscribed: 0,
      awaiting: new Set(),
      awaitingSince: 0,
      snapshotFailures: 0,
      conn: undefined as unknown as WsConnection,
    }
    const o = this.#o
    ;(slot as { conn: WsConnection }).conn = new WsConnection({
      name: `venuep-ws-${index}`,
      url: o.url,
      clock: o.clock,
      receiptStamp: o.receiptStamp,
      log: o.log,
      reconnectBaseMs: o.config.reconnectBaseMs,
      reconnectMaxMs: o.config.reconnectMaxMs,
      staleAfterMs: o.config.staleAfterMs,
      connectTimeoutMs: o.config.connectTimeoutMs,
      connectGate: this.#connectGate,
      keepalive: { intervalMs: o.config.pingIntervalMs, replyWithinMs: o.config.probeReplyMs, message: 'PING' },
      onOpen: () => this.#subscribeAll(slot),
      onMessage: (data, receivedAt) => this.#onMessage(slot, data, receivedAt),
      onDown: (reason) => {
        slot.subscribed = 0
        slot.awaiting.clear()
        if (slot.assets.size > 0) o.sink([{ type: 'stale', instrumentIds: [...slot.assets], reason }], o.clock.now())
      },
    })
    this.#slots.push(slot)
    return slot
  }

  #dropSlot(slot: Slot): void {
    slot.conn.close()
    const i = this.#slots.indexOf(slot)
    if (i >= 0) this.#slots.splice(i, 1)
  }

  #subscribeAll(slot: Slot): void {
    const assets = [...slot.assets]
    const max = this.#o.config.maxIdsPerFrame
    // The first frame is the channel subscription; the rest use the dynamic-subscription operation.
    slot.conn.send(JSON.stringify({ type: 'market', assets_ids: assets.slice(0, max), initial_dump: true }))
    this.#sendChunks(slot, 'subscribe', assets.slice(max))
    slot.subscribed = assets.length
    this.#await(slot, assets)
  }

  #await(slot: Slot, assets: readonly string[]): void {
    if (slot.awaiting.size === 0) slot.awaitingSince = this.#o.clock.now()
    for (const a of assets) slot.awaiting.add(a)
  }

  /**
   * Every subscribed asset must get its book within `snapshotTimeoutMs`: without it the actor ignores the
   * asset's updates, so a lost subscription (a venue that stalled while we subscribed) would leave it dead.
   */
  #checkSnapshots(): void {
    const now = this.#o.clock.now()
    for (const slot of this.#slots) {
      if (slot.awaiting.size === 0 || now - slot.awaitingSince <= this.#o.config.snapshotTimeoutMs) continue
      const delay = backoffDelayMs(slot.snapshotFailures++, {
        baseMs: this.#o.config.reconnectBaseMs,
        maxMs: this.#o.config.reconnectMaxMs,
      })
      this.#o.log.warn(
        { feed: `venuep-ws-${slot.index}`, missing: slot.awaiting.size },
        'books did not arrive after subscribing: resubscribing',
      )
      slot.awaiting.clear()
      slot.conn.restart('books not received after subscribing', delay)
    }
  }

  #sendChunks(slot: Slot, operation: 'subscribe' | 'unsubscribe', assets: readonly string[]): void {
    const max = this.#o.config.maxIdsPerFrame
    for (let i = 0; i < assets.length; i += max) {
      slot.conn.send(JSON.stringify({ operation, assets_ids: assets.slice(i, i + max) }))
    }
  }

  #onMessage(slot: Slot, data: string, receivedAt: number): void {
    if (data === 'PONG') return
    const events: FeedEvent[] = []
    // Venue times fall back to our receipt in whole ms (a precise receipt stamp's fraction is for `lts` only).
    const bad = mapVenuepFrame(data, Math.trunc(receivedAt), events)
    if (bad === 'malformed') {
      this.#broken(slot, 'malformed frame')
      return
    }
    if (slot.awaiting.size > 0) {
      for (const e of events) if (e.type === 'snapshot') slot.awaiting.delete(e.instrumentId)
      if (slot.awaiting.size === 0) slot.snapshotFailures = 0
    }
    if (events.length > 0) this.#o.sink(events, receivedAt)
    // An unreadable entry may have been a book change we cannot apply: the books can no longer be trusted.
    if (bad > 0) this.#broken(slot, 'unreadable message')
  }

  #broken(slot: Slot, reason: string): void {
    this.#malformedFrames++
    this.#o.log.warn({ feed: `venuep-ws-${slot.index}`, reason }, 'resubscribing after a frame we could not read')
    slot.conn.restart(reason, this.#o.config.reconnectBaseMs)
  }
}
