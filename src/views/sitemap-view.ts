import { sortSteps } from '../core/array-steps.js'
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
  /** The directory's events in sitemap order, and each one's row. */
  readonly #events: readonly ServiceEvent[]
  readonly #rows: readonly string[]
  /** Serialized pages of this directory version (a sitemap generator asks for the same few pages). */
  readonly #pages = new Map<string, Uint8Array>()

  private constructor(directory: EventDirectory, events: readonly ServiceEvent[], rows: readonly string[]) {
    this.directory = directory
    this.#events = events
    this.#rows = rows
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
      return yield* SitemapView.#patchedSteps(directory, previous.#events, previous.#rows, changes)
    const before = new Map<ServiceEvent, string>()
    if (previous !== undefined) {
      for (let i = 0; i < previous.#events.length; i++) {
        before.set(previous.#events[i] as ServiceEvent, previous.#rows[i] as string)
        if (i % (VIEW_CHECKPOINT_EVERY * 16) === 0) yield
      }
    }
    const events = yield* sortSteps(directory.events, bySitemapOrder)
    const rows: string[] = []
    for (const e of events) {
      rows.push(before.get(e) ?? sitemapRow(e))
      if (rows.length % VIEW_CHECKPOINT_EVERY === 0) yield
    }
    return new SitemapView(directory, events, rows)
  }

  /**
   * The sitemap of a directory patched from the previous one's (EventDirectory.changes): the previous rows without the
   * removed events', with the added events' rows merged in at their places. One copy of the rows and a row serialized
   * per added event, not a sort of every event.
   */
  static *#patchedSteps(
    directory: EventDirectory,
    events: readonly ServiceEvent[],
    rows: readonly string[],
    changes: DirectoryChanges,
  ): Steps<SitemapView> {
    const gone = new Set(changes.removed)
    const added = [...changes.added].sort(bySitemapOrder)
    const nextEvents: ServiceEvent[] = []
    const nextRows: string[] = []
    let a = 0
    for (let i = 0; i < events.length; i++) {
      const e = events[i] as ServiceEvent
      while (a < added.length && bySitemapOrder(added[a] as ServiceEvent, e) < 0) {
        nextEvents.push(added[a] as ServiceEvent)
        nextRows.push(sitemapRow(added[a++] as ServiceEvent))
      }
      if (gone.has(e)) continue
      nextEvents.push(e)
      nextRows.push(rows[i] as string)
      if (i % (VIEW_CHECKPOINT_EVERY * 256) === 0) yield
    }
    for (; a < added.length; a++) {
      nextEvents.push(added[a] as ServiceEvent)
      nextRows.push(sitemapRow(added[a] as ServiceEvent))
    }
    return new SitemapView(directory, nextEvents, nextRows)
  }

  get total(): number {
    return this.#rows.length
  }

  /**
   * The page's UTF-8 bytes (4 MB at the maximum limit: encoded once, not per request); `render` makes the body of
   * the page's serialized rows (the list reply of the read endpoints, http/routes/support.ts).
   */
  page(offset: number, limit: number, render: (rows: readonly string[], total: number) => string): Uint8Array {
    const key = `${offset}:${limit}`
    let body = this.#pages.get(key)
    if (body === undefined) {
      body = Buffer.from(render(this.#rows.slice(offset, offset + limit), this.#rows.length), 'utf8')
      if (this.#pages.size >= 16) this.#pages.clear()
      this.#pages.set(key, body)
    }
    return body
  }
}

/** Sitemap order: oldest first, then by slug. */
const bySitemapOrder = (a: ServiceEvent, b: ServiceEvent): number =>
  (a.createdAt ?? 0) - (b.createdAt ?? 0) || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0)

/** A service event's sitemap row. */
function sitemapRow(e: ServiceEvent): string {
  return JSON.stringify({ event_slug: e.slug, status: e.status, updated_at: iso(e.updatedAt ?? e.createdAt) })
}
