import type { Clock } from '../../../core/clock.js'
import type { UpstreamStats } from '../../upstream/upstream.js'
import { walletActivity, type ActivityPage, type ActivityQuery } from './activity.js'
import { orderBook, type BookQuery, type BookRecord } from './book.js'
import { ExpiringReplies } from '../../../views/expiring-replies.js'
import { candlesticks, type CandleQuery, type RenderedCandles } from './candles.js'
import type { LiveVenue, ProxyContext } from './context.js'
import { marketOrders, type OrdersQuery, type OrdersRecord } from './orders.js'
import { walletPositions, type PositionsRecord } from './positions.js'
import { WalletHistory, type WalletHistoryOptions } from './wallet-history.js'
import { walletPnl, walletProfile, type PnlRecord, type WalletRecord } from './wallet.js'
import type { VenuepUpstreams } from './upstreams.js'

/**
 * venuep's live data, proxied from the venue "the way a latency-sensitive client needs" (spec 4.1, issue 6):
 * from the actor's memory where we hold the data (order books), through the upstream layer everywhere else
 * (cache, single flight, breaker, rate limits, timeouts), with failures mapped to honest API errors.
 * One instance per process; the HTTP routes (src/venues/venuep/routes/live.ts) are thin over it.
 *
 * @example
 * const upstreams = createVenuepUpstreams({ urls: { gamma, clob, data }, clock })
 * const live = new VenuepLive({ venue: venues.venuep, clock, upstreams })
 * const routes = venuepLiveRoutes({ live })
 */
export interface VenuepLiveOptions {
  /** The venuep actor (catalog snapshot, live books, quotes). */
  readonly venue: LiveVenue
  readonly clock: Clock
  readonly upstreams: VenuepUpstreams
  /** Resolves a service event slug or alias to the venuep event id (cross-venue links); optional. */
  readonly eventOfSlug?: (slug: string) => string | undefined
  /** Tuning of the complete-history reads behind /wallet and /pnl (defaults fit the venue). */
  readonly walletHistory?: WalletHistoryOptions
}

export class VenuepLive {
  readonly upstreams: VenuepUpstreams
  readonly #ctx: ProxyContext
  readonly #history: WalletHistory
  /** Candlestick bodies by raw query string, each until its venue answer expires. */
  readonly #candleReplies = new ExpiringReplies()

  constructor(options: VenuepLiveOptions) {
    this.upstreams = options.upstreams
    this.#ctx = {
      upstreams: options.upstreams,
      clock: options.clock,
      venue: options.venue,
      eventOfSlug: options.eventOfSlug,
    }
    this.#history = new WalletHistory(this.#ctx, options.walletHistory)
  }

  orderBook(q: BookQuery): BookRecord | Promise<BookRecord> {
    return orderBook(this.#ctx, q)
  }

  /**
   * The serialized body, synchronously on a cache hit. `rawQuery`, the request's query string, names the answer
   * completely (unless it names an event's leading market, which prices choose: such a body is not kept by query
   * string): a repeat of it is one Map lookup (the hot path of a polling client or a chart).
   */
  candlesticks(q: CandleQuery, rawQuery?: string): Uint8Array | Promise<Uint8Array> {
    const now = this.#ctx.clock.now()
    if (rawQuery !== undefined) {
      const hit = this.#candleReplies.get(rawQuery, now)
      if (hit !== undefined) return hit
    }
    const rendered = candlesticks(this.#ctx, q)
    const keep = (r: RenderedCandles): Uint8Array => {
      if (rawQuery !== undefined && r.reusable)
        this.#candleReplies.set(rawQuery, r.body, r.expiresAt, this.#ctx.clock.now())
      return r.body
    }
    return rendered instanceof Promise ? rendered.then(keep) : keep(rendered)
  }

  orders(q: OrdersQuery): Promise<OrdersRecord> {
    return marketOrders(this.#ctx, q)
  }

  activity(q: ActivityQuery): Promise<ActivityPage> {
    return walletActivity(this.#ctx, q)
  }

  positions(wallet: string, sizeThreshold: number): Promise<PositionsRecord> {
    return walletPositions(this.#ctx, wallet, sizeThreshold)
  }

  wallet(wallet: string): Promise<WalletRecord> {
    return walletProfile(this.#ctx, this.#history, wallet)
  }

  pnl(wallet: string): Promise<PnlRecord> {
    return walletPnl(this.#ctx, this.#history, wallet)
  }

  stats(): UpstreamStats[] {
    return [this.upstreams.gamma.stats(), this.upstreams.clob.stats(), this.upstreams.data.stats()]
  }
}
