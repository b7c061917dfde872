import type { VenuepConfig } from './config.js'
import type { Clock } from '../../core/clock.js'
import type { CatalogEvent } from '../../model/types.js'
import { parseJsonBytes, withRetry, type HttpClient, type QueryValue } from '../http-client.js'
import type { CatalogProgress, ChangedEvents, InstalledCatalog } from '../types.js'
import type { MappedRecords } from '../mapped-records.js'
import { mapGammaEvent, type VenuepLinks } from './map-catalog.js'
import type { GammaEvent } from './wire.js'
import type { DueIndex } from './due-index.js'

const DAY_MS = 86_400_000
/**
 * The newest events are read in small pages: a minute's new events are a few (a page of 25 is a parse of about
 * 100 KB), and the page that ends the walk holds mostly known events, which are skipped.
 */
const NEW_PAGE_SIZE = 25
/**
 * Pages of new events one refresh reads before it leaves them to a whole listing (undefined: the loader lists whole):
 * 500 events is a burst of listings or a long outage, which a whole listing serves better than a walk by id.
 */
const MAX_NEW_PAGES = 20
/** Due events asked for per request, by slug (venuep.md §1.4: `slug` is a CSV list); keeps a query under ~4 KB. */
const SLUGS_PER_REQUEST = 50

/**
 * venuep's catalog changes for a refresh between whole listings (catalog.ts). Gamma stamps events `updatedAt` but
 * cannot filter by it (no `updated_min` in venuep.md §1.4), so there is no listing of changes as on venuek; a refresh
 * asks instead for the two changes a user must not wait ten minutes for:
 *
 * - **new events**: the open list by id descending (ids grow as events are created), page by page until a page holds
 *   an event already installed, or ends. A minute's new events are then one request.
 * - **due events**: installed events with a market still open whose end passed within the last `dueWindowMs`, read
 *   again by slug. A market that closes at its end (the hourly and daily series) is then closed at the next refresh.
 *   Read with `closed=false` and `closed=true` both: Gamma documents no default for `/events`.
 *
 * Each event is mapped against the last whole listing's records (`MappedRecords.mapChange`), so one whose mapped
 * fields did not change is the installed object again, and reported without an event when the whole listing would
 * not list it (closed, and ended before the lookback window: catalog.ts's `end_date_min`).
 *
 * What changes without either (volumes, a market added to an event, an early resolution, an edit, an event gone) is
 * caught up at the next whole listing (`fullListingEveryMs`), as on venuek.
 */
export async function fetchVenuepChanges(
  gamma: HttpClient,
  config: VenuepConfig,
  links: VenuepLinks,
  clock: Clock,
  installed: InstalledCatalog,
  signal: AbortSignal,
  records: MappedRecords<CatalogEvent | undefined>,
  dueIndex: DueIndex,
  progress?: CatalogProgress,
): Promise<ChangedEvents | undefined> {
  const { closedLookbackDays, fullListingEveryMs } = config.catalog
  const now = clock.now()
  const retry = <T>(fn: () => Promise<T>) => withRetry(fn, { attempts: 4, baseMs: 250, maxMs: 4_000, signal })
  const list = async (query: Record<string, QueryValue>): Promise<GammaEvent[]> =>
    retry(async () => {
      const { url, bytes } = await gamma.getBytes('/events', query, signal)
      return parseJsonBytes<GammaEvent[]>(url, bytes)
    })

  const listed: GammaEvent[] = []
  let ended = false
  for (let page = 0; page < MAX_NEW_PAGES && !ended; page++) {
    const query = { limit: NEW_PAGE_SIZE, offset: page * NEW_PAGE_SIZE, order: 'id', ascending: false, closed: false }
    const events = await list(query)
    progress?.page('changes', events.length)
    // An installed event on the page is older than the new ones: the walk ends with this page. It is skipped (what
    // changed in it, a volume, waits for the whole listing), unless it is due (below).
    const known = (e: GammaEvent) => e.slug !== undefined && installed.eventsById.has(e.slug)
    for (const e of events) if (!known(e)) listed.push(e)
    ended = events.length < NEW_PAGE_SIZE || events.some(known)
  }
  if (!ended) return undefined

  const due = dueIndex.due(installed, now - fullListingEveryMs, now)
  for (let i = 0; i < due.length; i += SLUGS_PER_REQUEST) {
    const slug = due.slice(i, i + SLUGS_PER_REQUEST).join(',')
    for (const closed of [false, true]) {
      const events = await list({ slug, closed, limit: SLUGS_PER_REQUEST })
      progress?.page('changes', events.length)
      for (const e of events) listed.push(e)
    }
  }

  const minEndMs = closedLookbackDays > 0 ? now - closedLookbackDays * DAY_MS : undefined
  const changes: { eventId: string; event: CatalogEvent | undefined }[] = []
  const seen = new Set<string>()
  for (const e of listed) {
    const eventId = e.slug
    if (eventId === undefined || eventId === '') continue
    seen.add(eventId)
    const mapped = records.mapChange(eventId, e, '', () => mapGammaEvent(e, links))
    changes.push({ eventId, event: listedWhole(e, minEndMs) ? mapped : undefined })
  }
  // A due event listed neither open nor closed is gone from the venue: the whole listing would not list it.
  for (const eventId of due) if (!seen.has(eventId)) changes.push({ eventId, event: undefined })
  return { events: changes, fetchedAt: clock.now() }
}

/**
 * Whether the whole listing (catalog.ts) lists this event: the open list holds every event not closed; the closed
 * list with `end_date_min` one whose end is within the lookback (none when the lookback is 0).
 */
function listedWhole(e: GammaEvent, minEndMs: number | undefined): boolean {
  if (e.closed !== true) return true
  if (minEndMs === undefined) return false
  return (Date.parse(e.endDate ?? '') || Number.NEGATIVE_INFINITY) >= minEndMs
}
