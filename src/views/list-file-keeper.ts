import { join } from 'node:path'
import type { Logger } from '../core/logger.js'
import { readFileBytes } from '../core/sealed-file.js'
import { runInSlices, type Steps } from '../core/slices.js'
import type { VenueId } from '../model/types.js'
import type { ListSeed } from './list-seed.js'
import { decodeListFileSteps, writeListFile, type ViewSeeds } from './list-file.js'
import type { VenueView } from './venue-view.js'

export interface ListFilesOptions {
  /** The folder of the files (the catalog files' folder): `lists.<venue>.jsonl`. */
  readonly dir: string
  /** Each venue's catalog source (its base URL); a venue without one has no list file. */
  readonly sourceOf: (venue: VenueId) => string | undefined
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
  readonly #inFlight = new Set<Promise<void>>()

  constructor(options: ListFilesOptions, log: Logger) {
    this.#o = options
    this.#log = log
  }

  path(venue: VenueId): string {
    return join(this.#o.dir, `lists.${venue}.jsonl`)
  }

  /** The seeds of each venue's view whose file is whole and of its source (refusals are logged, never thrown). */
  async read(venues: readonly VenueId[]): Promise<Map<VenueId, ViewSeeds>> {
    const seeds = new Map<VenueId, ViewSeeds>()
    for (const venue of venues) {
      const source = this.#o.sourceOf(venue)
      if (source === undefined) continue
      const path = this.path(venue)
      try {
        const read = await runInSlices(decodeListFileSteps(await readFileBytes(path), venue, source))
        if (read.ok) seeds.set(venue, read.seeds)
        else if (!read.missing) this.#log.warn({ path, reason: read.reason }, 'list file refused; lists built anew')
      } catch (err) {
        this.#log.warn({ path, error: String(err) }, 'list file unreadable; lists built anew')
      }
    }
    return seeds
  }

  /** `venue`'s catalog file now holds its catalog at `version`: its lists are written from that version's view. */
  catalogWritten(venue: VenueId, version: number): void {
    this.#due.set(venue, version)
    this.#writeIfDue(venue)
  }

  /** The read models installed `views`. */
  viewsInstalled(views: ReadonlyMap<VenueId, VenueView>): void {
    this.#views = views
    for (const venue of this.#due.keys()) this.#writeIfDue(venue)
  }

  /** Resolves once no write is in progress (tests; a shutdown that wants its last file). */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight)
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
      .finally(() => {
        this.#writing.delete(venue)
        this.#inFlight.delete(done)
      })
    this.#inFlight.add(done)
  }
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
