import type { WebSocket } from 'ws'
import { TickCork } from '../tick-cork.js'
import type { VkMarket } from './types.js'
import { bidsOnly } from './book-view.js'
import type { VenuekState } from './market-state.js'
import { parseCommand, WS_ERROR_MESSAGES, type Command, type WsErrorCode } from './ws-commands.js'
import { dataFrame, snapshotMsg, tickerMsg, tickerState } from './ws-frames.js'
import { Subscription, SubscriptionIndex, type SubscriptionOwner } from './ws-subscription.js'
import { venuekOf } from './state.js'

/**
 * One venuek WS v2 connection: runs the client's commands against the shared subscription index and writes
 * the replies (venuek.md §6.1–6.3). Sids are per connection and start at 1. A slow reader is cut off once its
 * unsent backlog passes MAX_BUFFERED_BYTES, rather than letting one socket grow the simulator's memory; the
 * venue's equivalent is the terminal error 25 (buffer overflow).
 */
export const MAX_BUFFERED_BYTES = 16 * 1024 * 1024

/** What a session needs from the server that owns it. */
export interface SessionHost {
  readonly state: VenuekState
  readonly index: SubscriptionIndex
  /** True while the venue is stalled: nothing at all is sent and commands go unanswered. */
  readonly stalled: boolean
  marketById(id: string): VkMarket | undefined
  /** Moves pending fault-injected sequence skips onto every sequenced subscription. */
  collectSequenceSkips(): void
  /** Forgets the last broadcast ticker state of these markets (undefined = all), so the next change is sent. */
  resetTickerState(tickers: Iterable<string> | undefined): void
  /** Counts sockets cut off for reading too slowly. */
  onSlowConsumer(): void
}

export class WsSession implements SubscriptionOwner {
  readonly #socket: WebSocket
  readonly #host: SessionHost
  readonly #subs = new Map<number, Subscription>()
  #nextSid = 1
  readonly #cork: TickCork

  constructor(socket: WebSocket, host: SessionHost) {
    this.#socket = socket
    this.#host = host
    this.#cork = new TickCork(socket)
  }

  send(text: string): void {
    if (this.#host.stalled || this.#socket.readyState !== this.#socket.OPEN) return
    this.#cork.cork()
    this.#socket.send(text)
    if (this.#socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.#host.onSlowConsumer()
      this.#socket.terminate()
    }
  }

  subscriptions(): IterableIterator<Subscription> {
    return this.#subs.values()
  }

  /** Drops every subscription of this connection (the socket closed). */
  close(): void {
    for (const sub of this.#subs.values()) this.#host.index.remove(sub)
    this.#subs.clear()
  }

  handle(text: string): void {
    // A stalled venue is hung, not just mute: it does not act on commands either.
    if (this.#host.stalled) return
    const command = parseCommand(text)
    if (command.cmd === undefined) return this.#error(command.id, command.code)
    this.#run(command)
  }

  #run(c: Command): void {
    switch (c.cmd) {
      case 'subscribe':
        return this.#subscribe(c)
      case 'unsubscribe':
        for (const sid of c.sids) this.#unsubscribe(c.id, sid)
        return
      case 'update_subscription':
        return this.#update(c)
      case 'list_subscriptions': {
        const msg = [...this.#subs.values()].map((s) => ({ channel: s.channel, sid: s.sid }))
        return this.send(JSON.stringify({ id: c.id, type: 'ok', msg }))
      }
    }
  }

  #subscribe(c: Extract<Command, { cmd: 'subscribe' }>): void {
    const world = this.#host.state.world
    let markets: VkMarket[] | undefined
    if (c.marketTickers !== undefined || c.marketIds !== undefined) {
      const keys = c.marketTickers ?? c.marketIds ?? []
      const found = keys.map((k) =>
        c.marketTickers !== undefined ? venuekOf(world).marketsByTicker.get(k) : this.#host.marketById(k),
      )
      const unknown = keys.filter((_, i) => found[i] === undefined)
      if (unknown.length > 0) return this.#error(c.id, 11, { market_tickers: unknown })
      markets = found as VkMarket[]
    }
    const created: Subscription[] = []
    for (const channel of c.channels) {
      const tickers = markets === undefined ? undefined : new Set(markets.map((m) => m.ticker))
      const sub = new Subscription(this.#nextSid++, channel, this, tickers, c)
      this.#subs.set(sub.sid, sub)
      this.#host.index.add(sub)
      if (channel === 'ticker') this.#host.resetTickerState(tickers)
      created.push(sub)
      this.send(JSON.stringify({ type: 'subscribed', id: c.id, msg: { channel, sid: sub.sid } }))
    }
    // Snapshots follow the `subscribed` replies, in the order the markets were named.
    const wantsAll = markets === undefined && c.sendInitialSnapshot && c.channels.includes('ticker')
    for (const sub of created) this.#initialFrames(sub, markets ?? (wantsAll ? this.#liveMarkets() : []))
  }

  #unsubscribe(id: number, sid: number): void {
    const sub = this.#subs.get(sid)
    if (sub === undefined) return this.#error(id, 7, undefined, sid)
    this.#subs.delete(sid)
    this.#host.index.remove(sub)
    // `seq` reports the last number used on the sid; the reply does not consume one (venuek.md §9: unconfirmed).
    this.send(JSON.stringify({ id, sid, seq: sub.seq, type: 'unsubscribed' }))
  }

  #update(c: Extract<Command, { cmd: 'update_subscription' }>): void {
    const sub = this.#subs.get(c.sid)
    if (sub === undefined) return this.#error(c.id, 7, undefined, c.sid)
    const world = this.#host.state.world
    const unknown = c.marketTickers.filter((t) => !venuekOf(world).marketsByTicker.has(t))
    if (unknown.length > 0) return this.#error(c.id, 11, { market_tickers: unknown }, c.sid)
    const markets = c.marketTickers.map((t) => venuekOf(world).marketsByTicker.get(t) as VkMarket)
    if (c.action === 'get_snapshot') {
      if (sub.channel !== 'orderbook_delta') return this.#error(c.id, 13, undefined, c.sid)
      const missing = c.marketTickers.filter((t) => sub.tickers?.has(t) !== true)
      if (missing.length > 0) return this.#error(c.id, 11, { market_tickers: missing }, c.sid)
      this.#host.collectSequenceSkips()
      for (const m of markets) this.#sendSnapshot(sub, m, c.id)
      return
    }
    // Every-market subscriptions have no market list to edit.
    if (sub.tickers === undefined) return this.#error(c.id, 11, undefined, c.sid)
    const added: VkMarket[] = []
    for (const m of markets) {
      if (c.action === 'add_markets' && !sub.tickers.has(m.ticker)) {
        sub.tickers.add(m.ticker)
        this.#host.index.addMarket(sub, m.ticker)
        added.push(m)
      } else if (c.action === 'delete_markets' && sub.tickers.has(m.ticker)) {
        sub.tickers.delete(m.ticker)
        this.#host.index.removeMarket(sub, m.ticker)
      }
    }
    if (sub.channel === 'ticker') this.#host.resetTickerState(added.map((m) => m.ticker))
    const reply: Record<string, unknown> = { id: c.id, sid: sub.sid, seq: sub.seq, type: 'ok' }
    if (!sub.skipTickerAck) reply['msg'] = { market_tickers: [...sub.tickers] }
    this.send(JSON.stringify(reply))
    this.#initialFrames(sub, added)
  }

  /** Snapshots for new order-book markets; current ticker values when the subscriber asked for them. */
  #initialFrames(sub: Subscription, markets: readonly VkMarket[]): void {
    if (sub.channel === 'orderbook_delta') {
      this.#host.collectSequenceSkips()
      for (const m of markets) this.#sendSnapshot(sub, m, undefined)
    } else if (sub.channel === 'ticker' && sub.sendInitialSnapshot) {
      const now = this.#host.state.clock.now()
      for (const m of markets)
        this.send(dataFrame('ticker', sub.sid, undefined, tickerMsg(tickerState(this.#host.state, m, now), now)))
    }
  }

  #sendSnapshot(sub: Subscription, m: VkMarket, id: number | undefined): void {
    const msg = snapshotMsg(m, bidsOnly(this.#host.state.book(m)), sub.useYesPrice)
    this.send(dataFrame('orderbook_snapshot', sub.sid, sub.nextSeq(), msg, id))
  }

  /** Markets an every-market ticker subscription snapshots: the ones with a live book. */
  #liveMarkets(): VkMarket[] {
    const world = this.#host.state.world
    return venuekOf(world).markets.filter((m) => venuekOf(world).books.has(m.ticker))
  }

  #error(id: number, code: WsErrorCode, extra?: Record<string, unknown>, sid?: number): void {
    const frame: Record<string, unknown> = { id, type: 'error', msg: { code, msg: WS_ERROR_MESSAGES[code], ...extra } }
    if (sid !== undefined) frame['sid'] = sid
    this.send(JSON.stringify(frame))
  }
}
