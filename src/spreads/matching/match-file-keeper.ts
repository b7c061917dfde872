import { join } from 'node:path'
import type { CatalogSnapshot } from '../../actors/catalog-snapshot.js'
import type { Clock } from '../../core/clock.js'
import type { Logger } from '../../core/logger.js'
import { readFileBytes } from '../../core/sealed-file.js'
import { runInSlices } from '../../core/slices.js'
import type { VenueId } from '../../model/types.js'
import { readMatchFileSteps, writeMatchFile, type MatchContext } from './match-file.js'
import type { EventMatch } from './matcher.js'

export interface MatchFilesOptions {
  /** The folder of the files (the catalog files' folder): `matches.<venue A>+<venue B>.jsonl`. */
  readonly dir: string
  /** Each venue's catalog source (its base URL); a venue without one has no match files. */
  readonly sourceOf: (venue: VenueId) => string | undefined
  /** At most one write per pair of venues in this time (ms); the first one is made at once. */
  readonly writeEveryMs: number
  /**
   * Resolves once the whole service is ready: no file is written before (a start's own work goes first; at the
   * venues' real size a write is seconds of slices), and the last matches asked for meanwhile are written then.
   */
  readonly writeAfter?: Promise<void>
}

/**
 * The match files (match-file.ts) as the cross-venue matching uses them: read once per pair of venues at start to
 * seed its matches, a refused or unreadable file logged and ignored; rewritten in the background after the matcher
 * has run (not before the service is ready), at most every `writeEveryMs` per pair, one write at a time.
 */
export class MatchFileKeeper {
  readonly #o: MatchFilesOptions
  readonly #clock: Clock
  readonly #log: Logger
  /** Per pair of venues: when its file was last written (clock time), and whether a write is running. */
  readonly #writes = new Map<string, { writtenAt: number | undefined; writing: boolean }>()
  /** The writes in progress (`idle`). */
  readonly #inFlight = new Set<Promise<void>>()
  /** `writeAfter` has resolved (or there is none). */
  #released: boolean
  /** Per pair of venues, the last matches to write once released. */
  readonly #held = new Map<string, () => void>()

  constructor(options: MatchFilesOptions, clock: Clock, log: Logger) {
    this.#o = options
    this.#clock = clock
    this.#log = log
    this.#released = options.writeAfter === undefined
    void options.writeAfter?.then(() => {
      this.#released = true
      for (const write of this.#held.values()) write()
      this.#held.clear()
    })
  }

  path(a: VenueId, b: VenueId): string {
    return join(this.#o.dir, `matches.${a}+${b}.jsonl`)
  }

  /**
   * The file's matches that still hold for the catalogs `a` and `b`, if there is a whole file made under the same
   * overrides; otherwise undefined (a refusal is logged).
   */
  async seed(a: CatalogSnapshot, b: CatalogSnapshot, overrides: string): Promise<EventMatch[] | undefined> {
    const context = this.#context(a, b, overrides)
    if (context === undefined) return undefined
    const path = this.path(a.venue, b.venue)
    try {
      const started = performance.now()
      const read = await runInSlices(readMatchFileSteps(await readFileBytes(path), context))
      if (read.ok) {
        const ms = Math.round(performance.now() - started)
        const age_s = Math.round((this.#clock.now() - read.writtenAt) / 1000)
        this.#log.info({ path, kept: read.kept, dropped: read.dropped, age_s, ms }, 'matches seeded from the file')
        return read.matches
      }
      if (!read.missing) this.#log.warn({ path, reason: read.reason }, 'match file refused; matching from nothing')
    } catch (err) {
      this.#log.warn({ path, error: String(err) }, 'match file unreadable; matching from nothing')
    }
    return undefined
  }

  /** The matcher ran on `a` and `b`: its matches are written now, unless written too recently or being written. */
  matched(matches: readonly EventMatch[], a: CatalogSnapshot, b: CatalogSnapshot, overrides: string): void {
    const context = this.#context(a, b, overrides)
    if (context === undefined) return
    const path = this.path(a.venue, b.venue)
    if (!this.#released) {
      this.#held.set(path, () => this.matched(matches, a, b, overrides))
      return
    }
    let state = this.#writes.get(path)
    if (state === undefined) this.#writes.set(path, (state = { writtenAt: undefined, writing: false }))
    const now = this.#clock.now()
    if (state.writing || (state.writtenAt !== undefined && now - state.writtenAt < this.#o.writeEveryMs)) return
    state.writing = true
    const started = performance.now()
    const write = state
    const done: Promise<void> = writeMatchFile(path, matches, context, now, runInSlices)
      .then(
        (bytes) => {
          write.writtenAt = now
          const ms = Math.round(performance.now() - started)
          this.#log.info({ path, matches: matches.length, bytes, ms }, 'match file written')
        },
        // The next run tries again.
        (err: unknown) => this.#log.warn({ path, error: String(err) }, 'match file not written'),
      )
      .finally(() => {
        write.writing = false
        this.#inFlight.delete(done)
      })
    this.#inFlight.add(done)
  }

  /** Resolves once no write is in progress (tests; a shutdown that wants its last file). */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight)
  }

  #context(a: CatalogSnapshot, b: CatalogSnapshot, overrides: string): MatchContext | undefined {
    const sa = this.#o.sourceOf(a.venue)
    const sb = this.#o.sourceOf(b.venue)
    return sa === undefined || sb === undefined ? undefined : { a, b, sources: [sa, sb], overrides }
  }
}
