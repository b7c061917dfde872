import type { VenuepConfig } from './config.js'
import type { Clock } from '../../core/clock.js'
import { mapSteps } from '../../core/array-steps.js'
import { runInSlices, type Steps } from '../../core/slices.js'
import type { Catalog, CatalogEvent, CatalogTruncation } from '../../model/types.js'
import { parseJsonBytes, withRetry, type HttpClient } from '../http-client.js'
import type { CatalogProgress } from '../types.js'
import { fetchOffsetPages } from '../paging.js'
import { arrayElements } from '../json-scan.js'
import { pageDigest, type MappedRecords } from '../mapped-records.js'
import { mapGammaEvent, type VenuepLinks } from './map-catalog.js'
import type { GammaEvent } from './wire.js'

const DAY_MS = 86_400_000

/**
 * Syncs venuep's catalog from Gamma `/events` (events with nested markets): every open event, plus events
 * closed within the lookback window. Ordering by id ascending keeps offset pages stable while new events are
 * listed (they get higher ids and land on the last page).
 *
 * Each page is mapped as soon as it arrives, in event-loop slices (src/core/slices.ts), while the next pages are
 * in flight: mapping 20,000 events at the end in one loop held the event loop for most of a second. A mapped
 * page keeps one entry per raw event (undefined for events that do not map), so paging still sees the page's
 * real length. With `records`, an event whose raw content did not change since the last sync is not mapped again:
 * the previous sync's object is given back (mapped-records.ts).
 *
 * `maxEvents` caps the raw events read (open first, then closed): a guard against a venue that pages forever, far
 * above the real catalog. Hitting it sets the catalog's `truncation` instead of cutting the list silently.
 */
export async function fetchVenuepCatalog(
  gamma: HttpClient,
  config: VenuepConfig,
  links: VenuepLinks,
  clock: Clock,
  signal: AbortSignal,
  progress?: CatalogProgress,
  records?: MappedRecords<CatalogEvent | undefined>,
): Promise<Catalog> {
  records?.begin()
  const mapEvent = (e: GammaEvent) => mapGammaEvent(e, links)
  const { pageSize, maxEvents, closedLookbackDays } = config.catalog
  const page = (list: 'open' | 'closed', extra: Record<string, string>) => async (offset: number, limit: number) => {
    const query = { limit, offset, order: 'id', ascending: true, closed: String(list === 'closed'), ...extra }
    const fetched = await withRetry(
      async () => {
        const { url, bytes } = await gamma.getBytes('/events', query, signal)
        const digest = pageDigest(bytes)
        // The same bytes as the last sync's page: its events, unparsed (mapped-records.ts).
        const kept = records?.reusePage(digest)
        if (kept !== undefined) return { kept: kept.mapped }
        // Else each event by its bytes, parsing only those that changed; a page the scan cannot follow is parsed.
        const elements = records === undefined ? undefined : arrayElements(bytes)
        if (elements !== undefined) return { digest, elements, url, bytes }
        return { digest, raw: parseJsonBytes<GammaEvent[]>(url, bytes) }
      },
      { attempts: 4, baseMs: 250, maxMs: 4_000, signal },
    )
    if (fetched.kept !== undefined) {
      progress?.page(list, fetched.kept.length)
      return fetched.kept
    }
    const { digest } = fetched
    if (fetched.elements !== undefined && records !== undefined) {
      const { url, bytes } = fetched
      progress?.page(list, fetched.elements.length)
      const read = (element: Buffer) => {
        const e = parseJsonBytes<GammaEvent>(url, element)
        return { key: e.slug ?? '', raw: e, context: '', map: () => mapEvent(e) }
      }
      return records.mapPage({ digest, bytes }, fetched.elements, '', read)
    }
    const raw = fetched.raw ?? []
    progress?.page(list, raw.length)
    if (records === undefined) return runInSlices(mapSteps(raw, mapEvent))
    const mapped = await runInSlices(mapSteps(raw, (e) => records.map(e.slug ?? '', e, '', () => mapEvent(e))))
    records.keepPage(
      digest,
      raw.map((e) => e.slug ?? ''),
      mapped,
    )
    return mapped
  }
  const options = { pageSize, maxItems: maxEvents, concurrency: 4 }
  const open = await fetchOffsetPages(page('open', {}), options)
  let truncation: CatalogTruncation | undefined = open.capped ? { maxEvents, cut: 'open' } : undefined
  let closed: readonly (CatalogEvent | undefined)[] = []
  // Read even when the open list filled the guard exactly (room 0): paging then reads one page to tell whether
  // closed events were cut.
  if (closedLookbackDays > 0 && truncation === undefined) {
    const since = new Date(clock.now() - closedLookbackDays * DAY_MS).toISOString()
    const listed = await fetchOffsetPages(page('closed', { end_date_min: since }), {
      ...options,
      maxItems: maxEvents - open.items.length,
    })
    closed = listed.items
    if (listed.capped) truncation = { maxEvents, cut: 'closed' }
  }
  const events = await runInSlices(collectEvents([open.items, closed]))
  const mapping = records?.commit()
  return {
    venue: 'venuep',
    events,
    fetchedAt: clock.now(),
    ...(truncation === undefined ? {} : { truncation }),
    ...(mapping === undefined ? {} : { mapping }),
  }
}

/** One event per slug; a slug listed twice keeps its first position and its last copy (Map.set semantics). */
function* collectEvents(lists: readonly (readonly (CatalogEvent | undefined)[])[]): Steps<CatalogEvent[]> {
  const events = new Map<string, CatalogEvent>()
  let n = 0
  for (const list of lists) {
    for (const event of list) {
      if (event !== undefined) events.set(event.eventId, event)
      if (++n % 256 === 0) yield
    }
  }
  return [...events.values()]
}
