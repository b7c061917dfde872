import type { VenuekConfig } from './config.js'
import type { Clock } from '../../core/clock.js'
import type { CatalogEvent } from '../../model/types.js'
import { parseJsonBytes, withRetry, type HttpClient } from '../http-client.js'
import type { CatalogProgress, ChangedEvents } from '../types.js'
import { fetchCursorPages } from '../paging.js'
import type { MappedRecords } from '../mapped-records.js'
import { mapVenuekEvent, VENUEK_SERIES_MAPPED_FIELDS, type VenuekLinks } from './map-catalog.js'
import type { KEvent, KMarket, KSeries } from './wire.js'

const DAY_MS = 86_400_000

/**
 * The series list of the last whole listing (catalog.ts): an event's mapping reads its series (category, fees), so
 * the changes between two whole listings are mapped under the same series, and compared against the records that
 * listing mapped under them.
 */
export class VenuekSeriesList {
  #byTicker = new Map<string, KSeries>()
  #json = new Map<string, string>()
  #listed = false

  /** The series a whole listing read, installed with its catalog. */
  install(byTicker: ReadonlyMap<string, KSeries>): void {
    this.#byTicker = new Map(byTicker)
    this.#json = new Map()
    this.#listed = true
  }

  /**
   * Series listed as updated since a time: false when one of them maps its events differently than the installed
   * one (its category or fees changed: the venue must be listed whole); else the new ones are added (their events are
   * new too) and true. A series changed only in what no mapping reads (its stamp, its volume) changes nothing.
   */
  update(listed: readonly KSeries[]): boolean {
    const fresh: KSeries[] = []
    for (const s of listed) {
      if (s.ticker === undefined) continue
      const known = this.#byTicker.get(s.ticker)
      if (known === undefined) fresh.push(s)
      else if (mappedPart(known) !== mappedPart(s)) return false
    }
    for (const s of fresh) this.#byTicker.set(s.ticker as string, s)
    return true
  }

  /** A whole listing has installed its series. */
  get listed(): boolean {
    return this.#listed
  }

  get byTicker(): ReadonlyMap<string, KSeries> {
    return this.#byTicker
  }

  /** What an event's fingerprint adds for its series: the series' JSON (catalog.ts computes it the same way). */
  context(ticker: string | undefined): string {
    return seriesContextOf(this.#byTicker, this.#json, ticker)
  }
}

const mappedPart = (s: KSeries): string => JSON.stringify(s, VENUEK_SERIES_MAPPED_FIELDS as string[])

/** The series' JSON an event of `ticker` is fingerprinted with (`json` caches it per ticker). */
export function seriesContextOf(
  series: ReadonlyMap<string, KSeries>,
  json: Map<string, string>,
  ticker: string | undefined,
): string {
  if (ticker === undefined) return ''
  let text = json.get(ticker)
  if (text === undefined) json.set(ticker, (text = JSON.stringify(series.get(ticker) ?? null)))
  return text
}

/**
 * venuek's events updated at or after `since`: `GET /series?min_updated_ts=` first (a series whose category or fees
 * changed maps its events differently: undefined then, and the loader lists the venue whole), then `GET /events?min_updated_ts=` with
 * nested markets, paged by cursor. Each event is mapped against the last whole listing's records
 * (`MappedRecords.mapChange`): one whose mapped fields did not change is the installed object again. An event the
 * whole listing would not list (no open market, and no closed or settled one within the lookback: the same filters as
 * catalog.ts) is reported without an event, so the loader drops it.
 *
 * Updated stamps are whole seconds on the venue's clock: the loader asks from before its last sync began (an
 * overlap), and events updated within it are listed again and found unchanged.
 */
export async function fetchVenuekChanges(
  rest: HttpClient,
  config: VenuekConfig,
  links: VenuekLinks,
  clock: Clock,
  since: number,
  signal: AbortSignal,
  records: MappedRecords<CatalogEvent | undefined>,
  seriesList: VenuekSeriesList,
  progress?: CatalogProgress,
): Promise<ChangedEvents | undefined> {
  if (!seriesList.listed) return undefined
  const { pageSize, maxEvents, closedLookbackDays } = config.catalog
  const minUpdatedTs = Math.max(0, Math.floor(since / 1000))
  const retry = <T>(fn: () => Promise<T>) => withRetry(fn, { attempts: 4, baseMs: 250, maxMs: 4_000, signal })
  const seriesBody = await retry(async () => {
    const { url, bytes } = await rest.getBytes('/series', { min_updated_ts: minUpdatedTs }, signal)
    return parseJsonBytes<{ series?: KSeries[] | null }>(url, bytes)
  })
  if (!seriesList.update(seriesBody.series ?? [])) return undefined
  const minCloseMs = closedLookbackDays > 0 ? clock.now() - closedLookbackDays * DAY_MS : undefined
  const listed = await fetchCursorPages(
    async (cursor) => {
      const query = { limit: pageSize, with_nested_markets: true, min_updated_ts: minUpdatedTs, cursor }
      const body = await retry(async () => {
        const { url, bytes } = await rest.getBytes('/events', query, signal)
        return parseJsonBytes<{ events?: KEvent[] | null; cursor?: string | null }>(url, bytes)
      })
      const items = body.events ?? []
      progress?.page('changes', items.length)
      return { items, cursor: body.cursor }
    },
    { maxItems: maxEvents },
  )
  const events = listed.items.flatMap((e) => {
    const eventId = e.event_ticker
    if (eventId === undefined || eventId === '') return []
    const context = seriesList.context(e.series_ticker)
    const mapped = records.mapChange(eventId, e, context, () => mapVenuekEvent(e, seriesList.byTicker, links))
    return [{ eventId, event: listedWhole(e, minCloseMs) ? mapped : undefined }]
  })
  return { events, fetchedAt: clock.now() }
}

/** Market statuses each list of the whole listing matches (venuek.md §3.3, "Status values"). */
const OPEN = new Set(['active'])
const CLOSED_OR_SETTLED = new Set(['closed', 'determined', 'disputed', 'amended', 'finalized'])

/**
 * Whether the whole listing (catalog.ts) lists this event: `status=open` matches an event with an active market;
 * `status=closed` and `status=settled` with `min_close_ts` one with a closed or settled market and a market closing
 * after the lookback's start (each filter matches when any market does).
 */
function listedWhole(e: KEvent, minCloseMs: number | undefined): boolean {
  const markets: readonly KMarket[] = e.markets ?? []
  if (markets.some((m) => OPEN.has(m.status ?? ''))) return true
  if (minCloseMs === undefined) return false
  return (
    markets.some((m) => CLOSED_OR_SETTLED.has(m.status ?? '')) &&
    markets.some((m) => (Date.parse(m.close_time ?? '') || Number.NEGATIVE_INFINITY) >= minCloseMs)
  )
}
