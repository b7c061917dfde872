import type { VenuepConfig } from '../../config/schema.js'
import type { Clock } from '../../core/clock.js'
import type { Catalog, CatalogEvent } from '../../model/types.js'
import { withRetry, type HttpClient } from '../http-client.js'
import { fetchOffsetPages } from '../paging.js'
import { mapGammaEvent, type VenuepLinks } from './map-catalog.js'
import type { GammaEvent } from './wire.js'

const DAY_MS = 86_400_000

/**
 * Syncs venuep's catalog from Gamma `/events` (events with nested markets): every open event, plus events
 * closed within the lookback window. Ordering by id ascending keeps offset pages stable while new events are
 * listed (they get higher ids and land on the last page).
 */
export async function fetchVenuepCatalog(
  gamma: HttpClient,
  config: VenuepConfig,
  links: VenuepLinks,
  clock: Clock,
  signal: AbortSignal,
): Promise<Catalog> {
  const { pageSize, maxEvents, closedLookbackDays } = config.catalog
  const page = (extra: Record<string, string>) => (offset: number, limit: number) =>
    withRetry(
      () => gamma.getJson<GammaEvent[]>('/events', { limit, offset, order: 'id', ascending: true, ...extra }, signal),
      { attempts: 4, baseMs: 250, maxMs: 4_000, signal },
    )
  const options = { pageSize, maxItems: maxEvents, concurrency: 4 }
  const open = await fetchOffsetPages(page({ closed: 'false' }), options)
  const since = new Date(clock.now() - closedLookbackDays * DAY_MS).toISOString()
  const closedRoom = maxEvents - open.length
  const closed = closedLookbackDays > 0 && closedRoom > 0 ? await fetchOffsetPages(page({ closed: 'true', end_date_min: since }), { ...options, maxItems: closedRoom }) : []
  const events = new Map<string, CatalogEvent>()
  for (const raw of [...open, ...closed]) {
    const event = mapGammaEvent(raw, links)
    if (event !== undefined) events.set(event.eventId, event)
  }
  return { venue: 'venuep', events: [...events.values()], fetchedAt: clock.now() }
}
