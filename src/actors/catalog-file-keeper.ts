import type { Clock } from '../core/clock.js'
import type { Logger } from '../core/logger.js'
import { runInSlices } from '../core/slices.js'
import type { Catalog, VenueId } from '../model/types.js'
import { decodeCatalogFileSteps, readCatalogBytes, writeCatalogFile } from './catalog-file.js'
import type { CatalogSnapshot } from './catalog-snapshot.js'

export interface CatalogFileOptions {
  readonly path: string
  /** Where the venue's catalog is listed from (its base URL): a file listed elsewhere is refused. */
  readonly source: string
  readonly writeEveryMs: number
  /**
   * Resolves once the whole service is ready (or its wait gave up: restart-files.ts). A start's own work goes first:
   * after a start from this file the venue is listed once its books have synced and this has resolved (or after
   * FILE_LISTING_DELAY_MS), periodic refreshes wait for it (catalog-loader.ts), and so does the file's first write.
   */
  readonly serviceReady?: Promise<void>
  /** Called after each write with the catalog version written (the list files follow it: list-file-keeper.ts). */
  readonly onWritten?: (version: number) => void
  /** Called once the start's read of the file is over: its catalog sent to the actor, or the file refused or absent. */
  readonly onStartRead?: () => void
}

/**
 * One venue's catalog file (catalog-file.ts) as its catalog loader uses it: read once at start, with a refused or
 * unreadable file logged and ignored; and rewritten after installs from the venue, in the background, at most every
 * `writeEveryMs` and not before the venue and the service are first ready (a start's own work goes first: at the
 * venues' real size a write is seconds of the event loop's slices), one write at a time.
 */
export class CatalogFileKeeper {
  readonly #file: CatalogFileOptions
  readonly #venue: VenueId
  readonly #clock: Clock
  readonly #log: Logger
  /** When the file was last written (clock time); undefined before the first write. */
  #writtenAt: number | undefined
  #writing = false
  /** The venue's books have all synced once (`venueReady`): writes may start. */
  #ready = false
  /** The catalog to write once the venue is ready. */
  #pending: CatalogSnapshot | undefined

  constructor(file: CatalogFileOptions, venue: VenueId, clock: Clock, log: Logger) {
    this.#file = file
    this.#venue = venue
    this.#clock = clock
    this.#log = log
  }

  /** The file's catalog if there is a whole one of this venue and source; otherwise undefined (a refusal is logged). */
  async read(): Promise<{ catalog: Catalog; bytes: number } | undefined> {
    const path = this.#file.path
    try {
      const bytes = await readCatalogBytes(path)
      const read = await runInSlices(decodeCatalogFileSteps(bytes, this.#venue, this.#file.source))
      if (read.ok) return read
      if (!read.missing) this.#log.warn({ path, reason: read.reason }, 'catalog file refused; listing the venue')
    } catch (err) {
      this.#log.warn({ path, error: String(err) }, 'catalog file unreadable; listing the venue')
    }
    return undefined
  }

  /** A catalog listed from the venue was installed: written now, or once the venue is ready. */
  installed(snapshot: CatalogSnapshot): void {
    if (this.#ready) this.#write(snapshot)
    else this.#pending = snapshot
  }

  /** The venue's books have all synced: a write held back until then starts, once the service is ready too. */
  venueReady(): void {
    const release = (): void => {
      this.#ready = true
      const pending = this.#pending
      this.#pending = undefined
      if (pending !== undefined) this.#write(pending)
    }
    const serviceReady = this.#file.serviceReady
    if (serviceReady === undefined) release()
    else void serviceReady.then(release)
  }

  /** Rewrites the file (atomically, catalog-file.ts) unless a write is running or one was made too recently. */
  #write(snapshot: CatalogSnapshot): void {
    const path = this.#file.path
    if (this.#writing) return
    const now = this.#clock.now()
    if (this.#writtenAt !== undefined && now - this.#writtenAt < this.#file.writeEveryMs) return
    this.#writing = true
    const started = performance.now()
    const catalog: Catalog = {
      venue: snapshot.venue,
      events: snapshot.events,
      fetchedAt: snapshot.fetchedAt,
      ...(snapshot.truncation === undefined ? {} : { truncation: snapshot.truncation }),
    }
    writeCatalogFile(path, catalog, this.#file.source)
      .then(
        (bytes) => {
          this.#writtenAt = now
          this.#log.info(
            { path, version: snapshot.version, bytes, ms: Math.round(performance.now() - started) },
            'catalog file written',
          )
          this.#file.onWritten?.(snapshot.version)
        },
        // The next install tries again.
        (err: unknown) => this.#log.warn({ path, error: String(err) }, 'catalog file not written'),
      )
      .finally(() => (this.#writing = false))
  }
}
