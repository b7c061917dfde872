import type { VenuekConfig } from '../../config/schema.js'
import type { Clock } from '../../core/clock.js'
import type { Catalog, CatalogEvent } from '../../model/types.js'
import { withRetry, type HttpClient } from '../http-client.js'
import { fetchCursorPages } from '../paging.js'
import { mapVenuekEvent, type VenuekLinks } from './map-catalog.js'
import type { KEvent, KSeries } from './wire.js'

const DAY_MS = 86_400_000

/**
 * Syncs venuek's catalog: `/series` once (categories and fee types live on the series), then `/events` with
 * nested markets for open events and for events closed or settled within the lookback window. An event with
 * both open and closed markets matches several status filters; the first copy wins.
 */
export async function fetchVenuekCatalog(rest: HttpClient, config: VenuekConfig, links: VenuekLinks, clock: Clock, signal: AbortSignal): Promise<Catalog> {
  const retry = <T>(fn: () => Promise<T>) => withRetry(fn, { attempts: 4, baseMs: 250, maxMs: 4_000, signal })
  const seriesBody = await retry(() => rest.getJson<{ series?: KSeries[] | null }>('/series', undefined, signal))
  const series = new Map<string, KSeries>()
  for (const s of seriesBody.series ?? []) if (s.ticker !== undefined) series.set(s.ticker, s)

  const { pageSize, maxEvents, closedLookbackDays } = config.catalog
  const minCloseTs = Math.floor((clock.now() - closedLookbackDays * DAY_MS) / 1000)
  const pages = (status: string, extra: Record<string, string | number>) => (cursor: string | undefined) =>
    retry(async () => {
      const body = await rest.getJson<{ events?: KEvent[] | null; cursor?: string | null }>(
        '/events',
        { limit: pageSize, status, with_nested_markets: true, cursor, ...extra },
        signal,
      )
      return { items: body.events ?? [], cursor: body.cursor }
    })
  const raw: KEvent[] = await fetchCursorPages(pages('open', {}), { maxItems: maxEvents })
  if (closedLookbackDays > 0) {
    for (const status of ['closed', 'settled']) {
      if (raw.length >= maxEvents) break
      raw.push(...(await fetchCursorPages(pages(status, { min_close_ts: minCloseTs }), { maxItems: maxEvents - raw.length })))
    }
  }
  const events = new Map<string, CatalogEvent>()
  for (const e of raw) {
    if (e.event_ticker !== undefined && events.has(e.event_ticker)) continue
    const mapped = mapVenuekEvent(e, series, links)
    if (mapped !== undefined) events.set(mapped.eventId, mapped)
  }
  return { venue: 'venuek', events: [...events.values()], fetchedAt: clock.now() }
}
