import type { SimRequest, SimResponse } from '../http-router.js'
import type { VkEvent, VkMarket } from './types.js'
import { pageOf } from './cursor.js'
import { invalidParameters, MARKET_NOT_FOUND, NOT_FOUND } from './errors.js'
import { STATUS_FILTER_MATCHES, type VenuekState, type VkStatusFilter } from './market-state.js'
import { Query } from './query.js'
import { eventUpdatedTime, serializeEvent, serializeMarket, serializeSeries } from './serialize.js'
import { venuekOf } from './state.js'
import { ListingSnapshots } from '../listing-snapshots.js'

/**
 * venuek's catalog endpoints (venuek.md §3.1–3.4): series, events and markets with the venue's filters,
 * limits, cursors and status mapping. Lists keep the world's listing order, which never changes, so offset
 * cursors are stable; a listing's later pages read the selection its first page made (listing-snapshots.ts).
 */
const MARKET_STATUS_FILTERS: readonly VkStatusFilter[] = ['unopened', 'open', 'paused', 'closed', 'settled']
const EVENT_STATUS_FILTERS: readonly VkStatusFilter[] = ['unopened', 'open', 'closed', 'settled']

const PAGING_PARAMS = ['cursor', 'limit'] as const

const secondsToMs = (s: number | undefined): number | undefined => (s === undefined ? undefined : s * 1000)

export class CatalogRoutes {
  readonly #state: VenuekState
  readonly #eventsBySeries = new Map<string, VkEvent[]>()
  /** A listing's later pages read its first page's selection (listing-snapshots.ts). */
  readonly #eventListings = new ListingSnapshots<VkEvent>(PAGING_PARAMS)
  readonly #marketListings = new ListingSnapshots<VkMarket>(PAGING_PARAMS)

  constructor(state: VenuekState) {
    this.#state = state
    for (const e of venuekOf(state.world).events) {
      const list = this.#eventsBySeries.get(e.series.ticker)
      if (list === undefined) this.#eventsBySeries.set(e.series.ticker, [e])
      else list.push(e)
    }
  }

  /** `GET /series`: not paginated. `category` and `tags` match any entry, exactly. */
  listSeries(req: SimRequest): SimResponse {
    const q = new Query(req.query, 'GetSeriesList')
    const category = q.string('category')
    const tags = q.list('tags')
    const includeVolume = q.bool('include_volume') ?? false
    const productMetadata = q.bool('include_product_metadata') ?? false
    const minUpdated = secondsToMs(q.int('min_updated_ts', { min: 0 }))
    const series = []
    for (const s of venuekOf(this.#state.world).series.values()) {
      if (category !== undefined && s.category !== category) continue
      if (tags !== undefined && !tags.includes(s.category)) continue
      const events = this.#eventsBySeries.get(s.ticker) ?? []
      if (minUpdated !== undefined && events.every((e) => e.lastUpdated < minUpdated)) continue
      series.push(serializeSeries(s, events, this.#state, { includeVolume, productMetadata }))
    }
    return { status: 200, body: { series } }
  }

  getSeries(req: SimRequest): SimResponse {
    const q = new Query(req.query, 'GetSeries')
    const s = venuekOf(this.#state.world).series.get(req.params['series_ticker'] ?? '')
    if (s === undefined) return { status: 404, body: NOT_FOUND }
    const events = this.#eventsBySeries.get(s.ticker) ?? []
    const options = { includeVolume: q.bool('include_volume') ?? false, productMetadata: false }
    return { status: 200, body: { series: serializeSeries(s, events, this.#state, options) } }
  }

  /** `GET /events`: a status filter matches an event when any of its markets matches. */
  listEvents(req: SimRequest): SimResponse {
    const q = new Query(req.query, 'GetEvents')
    const limit = q.int('limit', { min: 1, max: 200 }) ?? 200
    const nested = q.bool('with_nested_markets') ?? false
    const withMilestones = q.bool('with_milestones') ?? false
    const status = q.oneOf('status', EVENT_STATUS_FILTERS)
    const seriesTicker = q.string('series_ticker')
    const tickers = q.list('tickers')
    const minClose = secondsToMs(q.int('min_close_ts', { min: 0 }))
    const minUpdated = secondsToMs(q.int('min_updated_ts', { min: 0 }))
    const now = this.#state.clock.now()
    const wanted = status === undefined ? undefined : STATUS_FILTER_MATCHES[status]
    const tickerSet = tickers === undefined ? undefined : new Set(tickers)
    const source =
      seriesTicker === undefined ? venuekOf(this.#state.world).events : (this.#eventsBySeries.get(seriesTicker) ?? [])
    const cursorIn = q.string('cursor')
    const events = this.#eventListings.selection(req.query, cursorIn === undefined || cursorIn === '', () =>
      source.filter(
        (e) =>
          (tickerSet === undefined || tickerSet.has(e.eventTicker)) &&
          (minUpdated === undefined || eventUpdatedTime(e, this.#state, now) >= minUpdated) &&
          (minClose === undefined || e.markets.some((m) => m.closeTime >= minClose)) &&
          (wanted === undefined || e.markets.some((m) => wanted.has(this.#state.status(m, now)))),
      ),
    )
    const { page, cursor } = pageOf(events, 'events', cursorIn, limit)
    const body: Record<string, unknown> = { cursor, events: page.map((e) => serializeEvent(e, this.#state, nested)) }
    // The simulator has no milestones; asking for them gets the (empty) list the venue would add.
    if (withMilestones) body['milestones'] = []
    return { status: 200, body }
  }

  /** `GET /events/{event_ticker}`: the deprecated top-level `markets` is still required and always present. */
  getEvent(req: SimRequest): SimResponse {
    const q = new Query(req.query, 'GetEvent')
    const event = venuekOf(this.#state.world).eventsByTicker.get(req.params['event_ticker'] ?? '')
    if (event === undefined) return { status: 404, body: NOT_FOUND }
    const now = this.#state.clock.now()
    return {
      status: 200,
      body: {
        event: serializeEvent(event, this.#state, q.bool('with_nested_markets') ?? false),
        markets: event.markets.map((m) => serializeMarket(m, this.#state, now)),
      },
    }
  }

  listMarkets(req: SimRequest): SimResponse {
    const q = new Query(req.query, 'GetMarkets')
    const limit = q.int('limit', { min: 1, max: 1000 }) ?? 100
    const status = q.oneOf('status', MARKET_STATUS_FILTERS)
    const mveFilter = q.oneOf('mve_filter', ['only', 'exclude'] as const)
    const eventTicker = q.string('event_ticker')
    const seriesTicker = q.string('series_ticker')
    const tickers = q.list('tickers')
    const range = (name: string): Range => ({
      min: secondsToMs(q.int(`min_${name}_ts`, { min: 0 })),
      max: secondsToMs(q.int(`max_${name}_ts`, { min: 0 })),
    })
    const created = range('created')
    const close = range('close')
    const settled = range('settled')
    const minUpdated = secondsToMs(q.int('min_updated_ts', { min: 0 }))
    checkFilterFamilies(status, created, close, settled, minUpdated, mveFilter, eventTicker, tickers)

    const now = this.#state.clock.now()
    const wanted = status === undefined ? undefined : STATUS_FILTER_MATCHES[status]
    const tickerSet = tickers === undefined ? undefined : new Set(tickers)
    const world = this.#state.world
    let source: readonly VkMarket[] = venuekOf(world).markets
    if (eventTicker !== undefined) source = venuekOf(world).eventsByTicker.get(eventTicker)?.markets ?? []
    // No multivariate (combo) markets exist in the simulated world.
    if (mveFilter === 'only') source = []
    const inRange = (t: number | undefined, r: Range): boolean =>
      (r.min === undefined && r.max === undefined) ||
      (t !== undefined && (r.min === undefined || t >= r.min) && (r.max === undefined || t <= r.max))
    const cursorIn = q.string('cursor')
    const markets = this.#marketListings.selection(req.query, cursorIn === undefined || cursorIn === '', () =>
      source.filter(
        (m) =>
          (seriesTicker === undefined || m.event.series.ticker === seriesTicker) &&
          (tickerSet === undefined || tickerSet.has(m.ticker)) &&
          (wanted === undefined || wanted.has(this.#state.status(m, now))) &&
          inRange(m.createdTime, created) &&
          inRange(m.closeTime, close) &&
          inRange(this.#state.settledAt(m, now), settled) &&
          (minUpdated === undefined || m.event.lastUpdated >= minUpdated),
      ),
    )
    const { page, cursor } = pageOf(markets, 'markets', cursorIn, limit)
    return { status: 200, body: { cursor, markets: page.map((m) => serializeMarket(m, this.#state, now)) } }
  }

  getMarket(req: SimRequest): SimResponse {
    const m = venuekOf(this.#state.world).marketsByTicker.get(req.params['ticker'] ?? '')
    if (m === undefined) return { status: 404, body: MARKET_NOT_FOUND }
    return { status: 200, body: { market: serializeMarket(m, this.#state, this.#state.clock.now()) } }
  }
}

type Range = { readonly min: number | undefined; readonly max: number | undefined }

/**
 * GetMarkets' filter rules (venuek.md §3.3): the created, close and settled timestamp families exclude each
 * other and each fits only some status values; `min_updated_ts` needs `mve_filter=exclude`. The body of these
 * refusals is not captured anywhere; the simulator uses the venue's nested error shape.
 */
function checkFilterFamilies(
  status: VkStatusFilter | undefined,
  created: Range,
  close: Range,
  settled: Range,
  minUpdated: number | undefined,
  mveFilter: 'only' | 'exclude' | undefined,
  eventTicker: string | undefined,
  tickers: string[] | undefined,
): void {
  const given = (r: Range) => r.min !== undefined || r.max !== undefined
  const families: string[] = []
  if (given(created)) families.push('created')
  if (given(close)) families.push('close')
  if (given(settled)) families.push('settled')
  if (minUpdated !== undefined) families.push('updated')
  if (families.length > 1) throw invalidParameters(`timestamp filters cannot be combined: ${families.join(', ')}`)
  const family = families[0]
  const compatible: Record<string, readonly (VkStatusFilter | undefined)[]> = {
    created: [undefined, 'unopened', 'open'],
    close: [undefined, 'closed'],
    settled: [undefined, 'settled'],
    updated: [undefined],
  }
  if (family !== undefined && !(compatible[family] as readonly (VkStatusFilter | undefined)[]).includes(status)) {
    throw invalidParameters(`${family} timestamp filters are not compatible with status=${status ?? ''}`)
  }
  if (family === 'updated' && (mveFilter !== 'exclude' || eventTicker !== undefined || tickers !== undefined)) {
    throw invalidParameters('min_updated_ts requires mve_filter=exclude and no other filter except series_ticker')
  }
}
