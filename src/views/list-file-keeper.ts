import { join } from 'node:path'
import type { Logger } from '../core/logger.js'
import { readFileBytes } from '../core/sealed-file.js'
import { runInSlices, type Steps } from '../core/slices.js'
import type { VenueId } from '../model/types.js'
import type { ListSeed } from './list-seed.js'
import type { CollapsedView } from './collapsed-view.js'
import { decodeListFileSteps, EVENTS_LIST_OWNER, writeListFile, type ViewSeeds } from './list-file.js'
import type { VenueView } from './venue-view.js'

/** The longest the first views wait for the catalog files' reads (should one never end, they are built without it). */
const START_AFTER_MAX_WAIT_MS = 120_000

export interface ListFilesOptions {
  /** The folder of the files (the catalog files' folder): `lists.<venue>.jsonl`. */
  readonly dir: string
  /** Each venue's catalog source (its base URL); a venue without one has no list file. */
  readonly sourceOf: (venue: VenueId) => string | undefined
  /**
   * Resolves once every venue's catalog file has been read at start (restart-files.ts): the start's seeds are handed
   * over then, so the first views are of every venue's file catalog, not of the first file read alone.
   */
  readonly startAfter?: Promise<void>
}

/**
 * The list files (list-file.ts) as the read models use them: read once at start, before the first build, with a
 * refused or unreadable file logged and ignored; and written for the catalog each catalog file holds, so that what a
 * restart reads back was built from the very catalog it starts from (a list file of another catalog would fail its
 * checks): after a venue's catalog file is written (`catalogWritten`), its list file is written from the first
 * installed view of that catalog version, one write per venue at a time.
 */
export class ListFileKeeper {
  readonly #o: ListFilesOptions
  readonly #log: Logger
  /** Per venue, the catalog version its catalog file holds and whose lists are not written yet. */
  readonly #due = new Map<VenueId, number>()
  readonly #writing = new Set<VenueId>()
  #views: ReadonlyMap<VenueId, VenueView> = new Map()
  #collapsed: CollapsedView | undefined
  #eventsWritten: CollapsedView | undefined
  /** The venues in registry order (`read`). */
  #venues: readonly VenueId[] = []
  readonly #inFlight = new Set<Promise<void>>()

  constructor(options: ListFilesOptions, log: Logger) {
    this.#o = options
    this.#log = log
  }

  /** The file of a venue's lists, or of the cross-venue list (EVENTS_LIST_OWNER). */
  path(owner: string): string {
    return join(this.#o.dir, `lists.${owner}.jsonl`)
  }

  /**
   * The seeds of each venue's view, and of the cross-venue event list, whose files are whole and of their sources
   * (refusals are logged, never thrown).
   */
  async read(venues: readonly VenueId[]): Promise<StartSeeds> {
    this.#venues = venues
    const views = new Map<VenueId, ViewSeeds>()
    for (const venue of venues) {
      const source = this.#o.sourceOf(venue)
      const seeds = source === undefined ? undefined : await this.#read(venue, source)
      if (seeds !== undefined) views.set(venue, seeds)
    }
    const source = this.#eventsSource()
    const events = source === undefined ? undefined : await this.#read(EVENTS_LIST_OWNER, source)
    if (this.#o.startAfter !== undefined) await withDeadline(this.#o.startAfter, START_AFTER_MAX_WAIT_MS)
    return { views, events: events?.lists.get(EVENTS_LIST_OWNER) }
  }

  async #read(owner: string, source: string): Promise<ViewSeeds | undefined> {
    const path = this.path(owner)
    try {
      const read = await runInSlices(decodeListFileSteps(await readFileBytes(path), owner, source))
      if (read.ok) return read.seeds
      if (!read.missing) this.#log.warn({ path, reason: read.reason }, 'list file refused; lists built anew')
    } catch (err) {
      this.#log.warn({ path, error: String(err) }, 'list file unreadable; lists built anew')
    }
    return undefined
  }

  /** The cross-venue list's source: every venue's, in registry order (undefined when a venue has none). */
  #eventsSource(): string | undefined {
    const sources = this.#venues.map((venue) => this.#o.sourceOf(venue))
    return sources.every((s) => s !== undefined) && sources.length > 0 ? sources.join(' ') : undefined
  }

  /** `venue`'s catalog file now holds its catalog at `version`: its lists are written from that version's view. */
  catalogWritten(venue: VenueId, version: number): void {
    this.#due.set(venue, version)
    this.#writeIfDue(venue)
  }

  /** The read models installed `views` and the cross-venue list `collapsed`. */
  viewsInstalled(views: ReadonlyMap<VenueId, VenueView>, collapsed: CollapsedView): void {
    this.#views = views
    this.#collapsed = collapsed
    for (const venue of this.#due.keys()) this.#writeIfDue(venue)
  }

  /** Resolves once no write is in progress (tests; a shutdown that wants its last file). */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight)
  }

  async #writeEvents(): Promise<void> {
    const path = this.path(EVENTS_LIST_OWNER)
    const collapsed = this.#collapsed
    const source = this.#eventsSource()
    // Once per cross-venue list.
    if (collapsed === undefined || source === undefined || this.#eventsWritten === collapsed) return
    this.#eventsWritten = collapsed
    try {
      const seed = await runInSlices(collapsed.index.seedSteps())
      if (seed === undefined) return
      // No catalog of its own: never offered as the same records (list-seed.ts), its keys always checked.
      const bytes = await writeListFile(path, EVENTS_LIST_OWNER, source, {
        fetchedAt: 0,
        lists: new Map([[EVENTS_LIST_OWNER, seed]]),
      })
      this.#log.info({ path, bytes }, 'list file written')
    } catch (err) {
      this.#log.warn({ path, error: String(err) }, 'list file not written')
    }
  }

  #writeIfDue(venue: VenueId): void {
    const version = this.#due.get(venue)
    const view = this.#views.get(venue)
    const source = this.#o.sourceOf(venue)
    if (version === undefined || view === undefined || source === undefined || this.#writing.has(venue)) return
    // A view of another version: a newer catalog came before its view was installed (the next catalog file write
    // gives another chance), or the view of this one is still being built.
    if (view.catalog.version !== version) return
    this.#due.delete(venue)
    this.#writing.add(venue)
    const path = this.path(venue)
    const started = performance.now()
    const done: Promise<void> = runInSlices(seedsOf(view))
      .then((lists) => writeListFile(path, venue, source, { fetchedAt: view.catalog.fetchedAt, lists }))
      .then(
        (bytes) =>
          this.#log.info({ path, version, bytes, ms: Math.round(performance.now() - started) }, 'list file written'),
        (err: unknown) => this.#log.warn({ path, error: String(err) }, 'list file not written'),
      )
      .then(() => {
        this.#writing.delete(venue)
        // The cross-venue list follows the venues' (its entries are made of their views': collapsed-view.ts), once
        // the last of a round of venue writes is done, from the latest view.
        return this.#writing.size === 0 ? this.#writeEvents() : undefined
      })
      .finally(() => {
        this.#writing.delete(venue)
        this.#inFlight.delete(done)
      })
    this.#inFlight.add(done)
  }
}

/** What a start's first read models are offered: each venue view's seeds, and the cross-venue list's. */
export interface StartSeeds {
  readonly views: ReadonlyMap<VenueId, ViewSeeds>
  readonly events: ListSeed | undefined
}

/** The lists of `view` that are built, as seeds by name. */
function* seedsOf(view: VenueView): Steps<ViewSeeds['lists']> {
  const seeds = new Map<string, ListSeed>()
  for (const [name, list] of view.lists()) {
    const seed = yield* list.seedSteps()
    if (seed !== undefined) seeds.set(name, seed)
  }
  return seeds
}

/** Waits for `promise`, at most `ms`. */
async function withDeadline(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms).unref()))
  try {
    await Promise.race([promise, deadline])
  } finally {
    clearTimeout(timer)
  }
}
