import { sortSteps } from '../core/array-steps.js'
import { ChunkedList } from '../core/chunked-list.js'
import { runToEnd, type Steps } from '../core/slices.js'
import type { DirectoryChanges } from './directory-patch.js'
import { VIEW_CHECKPOINT_EVERY, type EventDirectory, type ServiceEvent } from './event-directory.js'
import { iso } from './records.js'

/**
 * The sitemap list: every service event (all statuses: a resolved event's page still exists), oldest first so
 * pages stay put as new events are listed, with its last update. Each row is serialized once per service event
 * (a rebuilt view keeps the rows of the events its directory kept); a page is a join of cached rows.
 */
export class SitemapView {
  readonly directory: EventDirectory
  /** The directory's events in sitemap order, each with its row. */
  readonly #entries: ChunkedList<SitemapEntry>
  /** Serialized pages of this directory version (a sitemap generator asks for the same few pages). */
  readonly #pages = new Map<string, Uint8Array>()

  private constructor(directory: EventDirectory, entries: ChunkedList<SitemapEntry>) {
    this.directory = directory
    this.#entries = entries
  }

  static create(directory: EventDirectory): SitemapView {
    return runToEnd(SitemapView.build(directory))
  }

  /**
   * The view, built in slices (the sort too: ~30 ms at 40,000 events in one `sort`). A service event of `previous`
   * is immutable and its row made of it alone, so an event the directory kept (EventDirectory.build) keeps its row:
   * a refresh serializes only the events that changed.
   */
  static *build(directory: EventDirectory, previous?: SitemapView): Steps<SitemapView> {
    const changes = directory.changes
    if (previous !== undefined && changes !== undefined && changes.since === previous.directory.version)
      return new SitemapView(directory, yield* patchedSteps(previous.#entries, changes))
    const before = new Map<ServiceEvent, string>()
    if (previous !== undefined) {
      let i = 0
      for (const { event, row } of previous.#entries) {
        before.set(event, row)
        if (i++ % (VIEW_CHECKPOINT_EVERY * 16) === 0) yield
      }
    }
    const events = yield* sortSteps(directory.events, bySitemapOrder)
    const entries: SitemapEntry[] = []
    for (const event of events) {
      entries.push({ event, row: before.get(event) ?? sitemapRow(event) })
      if (entries.length % VIEW_CHECKPOINT_EVERY === 0) yield
    }
    return new SitemapView(directory, ChunkedList.from(entries))
  }

  get total(): number {
    return this.#entries.length
  }

  /**
   * The page's UTF-8 bytes (4 MB at the maximum limit: encoded once, not per request); `render` makes the body of
   * the page's serialized rows (the list reply of the read endpoints, http/routes/support.ts).
   */
  page(offset: number, limit: number, render: (rows: readonly string[], total: number) => string): Uint8Array {
    const key = `${offset}:${limit}`
    let body = this.#pages.get(key)
    if (body === undefined) {
      const rows = this.#entries.slice(offset, offset + limit).map((e) => e.row)
      body = Buffer.from(render(rows, this.#entries.length), 'utf8')
      if (this.#pages.size >= 16) this.#pages.clear()
      this.#pages.set(key, body)
    }
    return body
  }
}

interface SitemapEntry {
  readonly event: ServiceEvent
  readonly row: string
}

/**
 * The sitemap of a directory patched from the previous one's (EventDirectory.changes): the removed events found where
 * the order puts them (a service event is immutable, so its place is where it was) and taken out, the added ones put
 * in their places with a row each. A binary search per event that came or went and the chunks they touch
 * (ChunkedList), not a pass over every row.
 */
function* patchedSteps(
  entries: ChunkedList<SitemapEntry>,
  changes: DirectoryChanges,
): Steps<ChunkedList<SitemapEntry>> {
  const placeOf = (e: ServiceEvent) => entries.firstWhere((x) => bySitemapOrder(x.event, e) >= 0)
  const gone: number[] = []
  for (const e of changes.removed) {
    // Among events of the same place in the order (a slug taken twice), the one that is this object.
    for (
      let at = placeOf(e), x = entries.at(at);
      x !== undefined && bySitemapOrder(x.event, e) === 0;
      x = entries.at(++at)
    )
      if (x.event === e) {
        gone.push(at)
        break
      }
  }
  yield
  const inserted: (readonly [number, SitemapEntry])[] = [...changes.added]
    .sort(bySitemapOrder)
    .map((event) => [placeOf(event), { event, row: sitemapRow(event) }])
  return entries.edited(gone, inserted)
}

/** Sitemap order: oldest first, then by slug. */
const bySitemapOrder = (a: ServiceEvent, b: ServiceEvent): number =>
  (a.createdAt ?? 0) - (b.createdAt ?? 0) || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0)

/** A service event's sitemap row. */
function sitemapRow(e: ServiceEvent): string {
  return JSON.stringify({ event_slug: e.slug, status: e.status, updated_at: iso(e.updatedAt ?? e.createdAt) })
}
