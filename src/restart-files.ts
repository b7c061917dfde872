import { join } from 'node:path'
import type { CatalogFileOptions } from './actors/catalog-loader.js'
import { ReadyLatch } from './actors/ready-latch.js'
import type { Clock } from './core/clock.js'
import type { Logger } from './core/logger.js'
import type { VenueId } from './model/types.js'
import { MatchFileKeeper } from './spreads/matching/match-file-keeper.js'
import { ListFileKeeper } from './views/list-file-keeper.js'

/** How long a restart's deferred work (venue listings, the matcher's full run) waits for the service to be ready. */
const SERVICE_READY_MAX_WAIT_MS = 120_000

/**
 * What the service keeps in its data directory so that a restart is ready in seconds (docs/DESIGN.md, issue 35): each
 * venue's last catalog (src/actors/catalog-file.ts), the matches of each pair of venues
 * (src/spreads/matching/match-file.ts) and the read models' lists built from each catalog file's catalog
 * (src/views/list-file.ts), in `DATA_DIR/catalogs/`. A restart serves them first and does the rest of its
 * work, listing the venues again and the matcher's full run, once the whole service is ready (`serviceReady`). Any
 * start, cold or not, also waits for it before refreshing a catalog or writing these files.
 *
 * Not kept with the in-process simulator (a new world at every start) nor on an edge (its catalogs come from the
 * broker), nor when `writeEveryMs` is 0.
 */
export class RestartFiles {
  readonly #dir: string
  readonly #writeEveryMs: number
  readonly #enabled: boolean
  /** Venues whose catalogs are kept, with the source (base URL) each was listed from. */
  readonly #sources = new Map<VenueId, string>()
  #lists: ListFileKeeper | undefined
  /** Venues whose catalog file the start is still reading; `#catalogsRead` resolves once none is. */
  readonly #reading = new Set<VenueId>()
  #catalogsReadDone = (): void => {}
  readonly #catalogsRead = new Promise<void>((resolve) => (this.#catalogsReadDone = resolve))
  /** Resolves once the service is ready (`watch`), or after SERVICE_READY_MAX_WAIT_MS. */
  readonly serviceReady = new ReadyLatch()

  constructor(options: { readonly dataDir: string; readonly writeEveryMs: number; readonly enabled: boolean }) {
    this.#dir = join(options.dataDir, 'catalogs')
    this.#writeEveryMs = options.writeEveryMs
    this.#enabled = options.enabled && options.writeEveryMs > 0
  }

  /** The catalog file of `venue`, listed from `source` (its adapter's `catalogSource`); undefined when not kept. */
  catalogFile(venue: VenueId, source: string | undefined): CatalogFileOptions | undefined {
    if (!this.#enabled || source === undefined) return undefined
    this.#sources.set(venue, source)
    this.#reading.add(venue)
    return {
      path: join(this.#dir, `${venue}.jsonl`),
      source,
      writeEveryMs: this.#writeEveryMs,
      serviceReady: this.serviceReady.promise,
      onWritten: (version) => this.#lists?.catalogWritten(venue, version),
      onStartRead: () => {
        this.#reading.delete(venue)
        if (this.#reading.size === 0) this.#catalogsReadDone()
      },
    }
  }

  /** The list files of the venues whose catalogs are kept (after every `catalogFile`); undefined when none are. */
  listFiles(log: Logger): ListFileKeeper | undefined {
    if (this.#sources.size === 0) return undefined
    const sources = this.#sources
    return (this.#lists ??= new ListFileKeeper(
      { dir: this.#dir, sourceOf: (venue) => sources.get(venue), startAfter: this.#catalogsRead },
      log,
    ))
  }

  /** The match files of the venues whose catalogs are kept (after every `catalogFile`); undefined when none are. */
  matchFiles(clock: Clock, log: Logger): MatchFileKeeper | undefined {
    if (this.#sources.size === 0) return undefined
    const sources = this.#sources
    return new MatchFileKeeper(
      {
        dir: this.#dir,
        sourceOf: (venue) => sources.get(venue),
        writeEveryMs: this.#writeEveryMs,
        writeAfter: this.serviceReady.promise,
      },
      clock,
      log,
    )
  }

  /** Starts watching for the service to be ready (`serviceReady`). */
  watch(ready: () => boolean): void {
    this.serviceReady.watch(ready, SERVICE_READY_MAX_WAIT_MS)
  }

  stop(): void {
    this.serviceReady.stop()
  }
}
