import type { Channel } from './ws-commands.js'

/**
 * One WS subscription (a `sid`) and the index that routes engine events to subscriptions by market, so a book
 * change costs a map lookup plus the subscribers of that market, not a scan of every socket.
 */
export interface SubscriptionOwner {
  /** Sends one text frame (or drops it when the venue is stalled or the socket is gone). */
  send(text: string): void
}

export class Subscription {
  readonly sid: number
  readonly channel: Channel
  readonly owner: SubscriptionOwner
  /** Undefined = every market (ticker and trade channels without a market list). */
  tickers: Set<string> | undefined
  readonly useYesPrice: boolean
  readonly sendInitialSnapshot: boolean
  readonly skipTickerAck: boolean
  /** Last assigned sequence number; data frames carry 1, 2, 3 … per sid. */
  seq = 0
  /** Numbers to skip before the next assigned seq (fault injection: a visible gap). */
  pendingSkip = 0

  constructor(
    sid: number,
    channel: Channel,
    owner: SubscriptionOwner,
    tickers: Set<string> | undefined,
    flags: { useYesPrice: boolean; sendInitialSnapshot: boolean; skipTickerAck: boolean },
  ) {
    this.sid = sid
    this.channel = channel
    this.owner = owner
    this.tickers = tickers
    this.useYesPrice = flags.useYesPrice
    this.sendInitialSnapshot = flags.sendInitialSnapshot
    this.skipTickerAck = flags.skipTickerAck
  }

  /** Whether this channel's frames carry `seq` (§6.3: order book and trade do, ticker does not). */
  get sequenced(): boolean {
    return this.channel !== 'ticker'
  }

  nextSeq(): number {
    this.seq += 1 + this.pendingSkip
    this.pendingSkip = 0
    return this.seq
  }
}

export class SubscriptionIndex {
  readonly #byMarket = new Map<Channel, Map<string, Set<Subscription>>>()
  readonly #allMarkets = new Map<Channel, Set<Subscription>>()

  add(sub: Subscription): void {
    if (sub.tickers === undefined) this.#all(sub.channel).add(sub)
    else for (const t of sub.tickers) this.addMarket(sub, t)
  }

  remove(sub: Subscription): void {
    if (sub.tickers === undefined) this.#all(sub.channel).delete(sub)
    else for (const t of sub.tickers) this.removeMarket(sub, t)
  }

  addMarket(sub: Subscription, ticker: string): void {
    let channel = this.#byMarket.get(sub.channel)
    if (channel === undefined) this.#byMarket.set(sub.channel, (channel = new Map()))
    let subs = channel.get(ticker)
    if (subs === undefined) channel.set(ticker, (subs = new Set()))
    subs.add(sub)
  }

  removeMarket(sub: Subscription, ticker: string): void {
    const channel = this.#byMarket.get(sub.channel)
    const subs = channel?.get(ticker)
    if (subs === undefined) return
    subs.delete(sub)
    if (subs.size === 0) channel?.delete(ticker)
  }

  /** Subscriptions of `channel` for one market, excluding the every-market ones. */
  forMarket(channel: Channel, ticker: string): ReadonlySet<Subscription> | undefined {
    return this.#byMarket.get(channel)?.get(ticker)
  }

  allMarkets(channel: Channel): ReadonlySet<Subscription> {
    return this.#all(channel)
  }

  /** Whether anyone listens to `channel` for `ticker`, directly or through an every-market subscription. */
  wants(channel: Channel, ticker: string): boolean {
    return this.#all(channel).size > 0 || (this.forMarket(channel, ticker)?.size ?? 0) > 0
  }

  #all(channel: Channel): Set<Subscription> {
    let set = this.#allMarkets.get(channel)
    if (set === undefined) this.#allMarkets.set(channel, (set = new Set()))
    return set
  }
}
