import type { VenuekConfig } from './config.js'
import type { Clock } from '../../core/clock.js'
import { mapSteps } from '../../core/array-steps.js'
import { runInSlices, type Steps } from '../../core/slices.js'
import type { Catalog, CatalogEvent, CatalogTruncation } from '../../model/types.js'
import { parseJsonBytes, withRetry, type HttpClient } from '../http-client.js'
import type { CatalogProgress } from '../types.js'
import { fetchCursorPages } from '../paging.js'
import { pushAll } from '../../core/arrays.js'
import { objectMembers, type ByteRange } from '../json-scan.js'
import { pageDigest, type MappedRecords } from '../mapped-records.js'
import { REAL_TIME, RequestPacer } from '../request-pacer.js'
import { mapVenuekEvent, type VenuekLinks } from './map-catalog.js'
import { seriesContextOf, type VenuekSeriesList } from './catalog-changes.js'
import type { KEvent, KSeries } from './wire.js'

const DAY_MS = 86_400_000

/**
 * Syncs venuek's catalog: `/series` once (categories and fee types live on the series), then `/events` with
 * nested markets for open events and for events closed or settled within the lookback window. An event with
 * both open and closed markets matches several status filters; the first copy wins.
 *
 * Each page is mapped as it arrives, in event-loop slices (src/core/slices.ts): mapping the whole catalog at the
 * end held the event loop for over half a second at 20,000 events. With `records`, an event whose raw content and
 * series did not change since the last sync is not mapped again: the previous sync's object is given back
 * (mapped-records.ts). Between whole listings, a refresh lists only what changed (catalog-changes.ts), under the series
 * this listing read (`seriesList`).
 *
 * The three lists are paged side by side (each follows its own cursor, so a list's pages come one after another),
 * their request starts spaced at `readsPerSecond` together (request-pacer.ts): a first sync takes as long as the
 * longest list, not the sum of the three.
 *
 * `maxEvents` caps the raw events kept (open, then closed, then settled): a guard against a venue that pages
 * forever, far above the real catalog. Hitting it sets the catalog's `truncation` instead of cutting the list
 * silently. Each list is read up to the cap on its own (they run at once, so none knows the others' sizes), and the
 * cap is applied to the three in order.
 */
export async function fetchVenuekCatalog(
  rest: HttpClient,
  config: VenuekConfig,
  links: VenuekLinks,
  clock: Clock,
  signal: AbortSignal,
  progress?: CatalogProgress,
  records?: MappedRecords<CatalogEvent | undefined>,
  seriesList?: VenuekSeriesList,
): Promise<Catalog> {
  records?.begin()
  const { pageSize, maxEvents, closedLookbackDays, readsPerSecond } = config.catalog
  const pacer = new RequestPacer(REAL_TIME, readsPerSecond)
  const retry = <T>(fn: () => Promise<T>, on: AbortSignal = signal) =>
    withRetry(
      async () => {
        await pacer.turn(on)
        // A turn granted just before a sibling list failed: no request starts once the sync is stopped.
        on.throwIfAborted()
        return fn()
      },
      { attempts: 4, baseMs: 250, maxMs: 4_000, signal: on },
    )
  const seriesPage = await retry(async () => {
    const { url, bytes } = await rest.getBytes('/series', undefined, signal)
    return { digest: pageDigest(bytes), body: parseJsonBytes<{ series?: KSeries[] | null }>(url, bytes) }
  })
  const seriesBody = seriesPage.body
  const series = new Map<string, KSeries>()
  for (const s of seriesBody.series ?? []) if (s.ticker !== undefined) series.set(s.ticker, s)
  // An event's mapping reads its series (category, fees): the series' JSON is part of the event's fingerprint.
  const seriesJson = new Map<string, string>()
  const seriesContext = (ticker: string | undefined): string => seriesContextOf(series, seriesJson, ticker)
  const mapEvent = (e: KEvent) => mapVenuekEvent(e, series, links)

  const minCloseTs = Math.floor((clock.now() - closedLookbackDays * DAY_MS) / 1000)
  // A list that fails stops the others: the sync has failed, and the loader retries it whole.
  const siblings = new AbortController()
  const listSignal = AbortSignal.any([signal, siblings.signal])
  const pages = (status: string, extra: Record<string, string | number>) => async (cursor: string | undefined) => {
    const query = { limit: pageSize, status, with_nested_markets: true, cursor, ...extra }
    const fetched = await retry(async () => {
      const { url, bytes } = await rest.getBytes('/events', query, listSignal)
      // Events are mapped with their series: a page is the same only under the same series list.
      const digest = pageDigest(bytes, seriesPage.digest)
      const kept = records?.reusePage(digest)
      if (kept !== undefined) return { kept: kept.mapped, cursor: kept.next }
      // Else each event by its bytes, parsing only those that changed; a page the scan cannot follow is parsed.
      const scanned = records === undefined ? undefined : scanEventsPage(url, bytes)
      if (scanned !== undefined) return { digest, ...scanned, url, bytes }
      const body = parseJsonBytes<{ events?: KEvent[] | null; cursor?: string | null }>(url, bytes)
      return { digest, raw: body.events ?? [], cursor: body.cursor }
    }, listSignal)
    if (fetched.kept !== undefined) {
      progress?.page(status, fetched.kept.length)
      return { items: fetched.kept, cursor: fetched.cursor }
    }
    const { digest } = fetched
    if ('elements' in fetched && records !== undefined) {
      const { url, bytes } = fetched
      progress?.page(status, fetched.elements.length)
      const read = (element: Buffer) => {
        const e = parseJsonBytes<KEvent>(url, element)
        return { key: e.event_ticker ?? '', raw: e, context: seriesContext(e.series_ticker), map: () => mapEvent(e) }
      }
      // An event's bytes are the same event only under the same series list (its mapping reads its series).
      const next = fetched.cursor ?? undefined
      const items = await records.mapPage({ digest, bytes, next }, fetched.elements, seriesPage.digest, read)
      return { items, cursor: fetched.cursor }
    }
    const raw = fetched.raw ?? []
    progress?.page(status, raw.length)
    if (records === undefined) return { items: await runInSlices(mapSteps(raw, mapEvent)), cursor: fetched.cursor }
    const items = await runInSlices(
      mapSteps(raw, (e) => records.map(e.event_ticker ?? '', e, seriesContext(e.series_ticker), () => mapEvent(e))),
    )
    records.keepPage(
      digest,
      raw.map((e) => e.event_ticker ?? ''),
      items,
      fetched.cursor ?? undefined,
    )
    return { items, cursor: fetched.cursor }
  }
  const lists: [string, Record<string, string | number>][] = [['open', {}]]
  if (closedLookbackDays > 0)
    for (const status of ['closed', 'settled']) lists.push([status, { min_close_ts: minCloseTs }])
  // One entry per raw event (undefined when it does not map), so `maxItems` counts raw events as before.
  const listed = await Promise.all(
    lists.map(([status, extra]) =>
      fetchCursorPages(pages(status, extra), { maxItems: maxEvents }).catch((err: unknown) => {
        siblings.abort(err)
        throw err
      }),
    ),
  )
  const mapped: (CatalogEvent | undefined)[] = []
  let truncation: CatalogTruncation | undefined
  for (const [i, list] of listed.entries()) {
    const room = maxEvents - mapped.length
    pushAll(mapped, list.items.length > room ? list.items.slice(0, room) : list.items)
    if (list.capped || list.items.length > room) {
      truncation = { maxEvents, cut: i === 0 ? 'open' : 'closed' }
      break
    }
  }
  const events = await runInSlices(firstCopies(mapped))
  const mapping = records?.commit()
  // The changes until the next whole listing are mapped under this listing's series (catalog-changes.ts).
  seriesList?.install(series)
  return {
    venue: 'venuek',
    events,
    fetchedAt: clock.now(),
    ...(truncation === undefined ? {} : { truncation }),
    ...(mapping === undefined ? {} : { mapping }),
  }
}

/**
 * A `/events` page's events by byte range and its cursor, without parsing the events (json-scan.ts); undefined when
 * the page is not an object with an `events` array (it is then parsed whole, which reports what is wrong).
 */
function scanEventsPage(url: string, bytes: Buffer): { elements: ByteRange[]; cursor: string | null } | undefined {
  const page = objectMembers(bytes, 'events')
  if (page?.elements === undefined) return undefined
  const cursor = page.members.get('cursor')
  const value = cursor === undefined ? null : parseJsonBytes<unknown>(url, bytes.subarray(cursor.start, cursor.end))
  return { elements: page.elements, cursor: typeof value === 'string' ? value : null }
}

/**
 * The first mapped copy of each event ticker. A copy that does not map (no markets) does not count, so a later
 * copy that maps is kept (as when mapping followed the dedupe).
 */
function* firstCopies(mapped: readonly (CatalogEvent | undefined)[]): Steps<CatalogEvent[]> {
  const events = new Map<string, CatalogEvent>()
  for (let i = 0; i < mapped.length; i++) {
    const e = mapped[i]
    if (e !== undefined && !events.has(e.eventId)) events.set(e.eventId, e)
    if (i % 256 === 255) yield
  }
  return [...events.values()]
}
