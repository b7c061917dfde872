import { Objm, type ObjectStore } from '@nats-io/obj'
import type { Subscription } from '@nats-io/transport-node'
import type { Logger } from '../../core/logger.js'
import { runInSlices } from '../../core/slices.js'
import type { Catalog } from '../../model/types.js'
import type { BusLink } from '../connection.js'
import { CATALOG_BUCKET, catalogSubject } from '../subjects.js'
import { decodeCatalogSteps } from './catalog-codec.js'

/**
 * An edge's view of one venue's catalog: the newest one the ingest put in the object store (feed-publisher.ts), and
 * the announcements of new ones on `catalog.<venue>`.
 */
export class BusCatalogs {
  readonly #link: BusLink
  readonly #venue: string
  readonly #log: Logger
  #store: ObjectStore | undefined
  /** The last catalog read, by its object's digest: a refresh with no new catalog decodes nothing. */
  #last: { digest: string; catalog: Catalog } | undefined
  readonly #watchers = new Set<() => void>()
  #announcements: Subscription | undefined
  /** `latest` calls waiting for an announcement (or their poll). */
  readonly #waiting = new Set<() => void>()

  constructor(link: BusLink, venue: string, log: Logger) {
    this.#link = link
    this.#venue = venue
    this.#log = log
  }

  /** Calls `onNew` at each announcement of a new catalog. Returns the unsubscribe. */
  watch(onNew: () => void): () => void {
    this.#listen()
    this.#watchers.add(onNew)
    return () => this.#watchers.delete(onNew)
  }

  /**
   * The newest catalog; while the ingest has put none (or the bucket is not there yet), waits for its announcement
   * (checking every POLL_MS too, in case one was missed). Rejects when `signal` aborts.
   */
  async latest(signal: AbortSignal): Promise<Catalog> {
    this.#listen()
    for (;;) {
      signal.throwIfAborted()
      const store = await this.#openStore()
      const info = store === undefined ? null : await store.info(this.#venue)
      if (store !== undefined && info !== null && !info.deleted) {
        if (this.#last?.digest === info.digest) return this.#last.catalog
        const bytes = await store.getBlob(this.#venue)
        if (bytes !== null) {
          signal.throwIfAborted()
          const catalog = await runInSlices(decodeCatalogSteps(bytes))
          this.#last = { digest: info.digest, catalog }
          return catalog
        }
      }
      await this.#announcementOrPoll(signal)
    }
  }

  close(): void {
    this.#announcements?.unsubscribe()
    this.#announcements = undefined
    this.#watchers.clear()
  }

  async #openStore(): Promise<ObjectStore | undefined> {
    if (this.#store !== undefined) return this.#store
    try {
      this.#store = await new Objm(this.#link.nc).open(CATALOG_BUCKET)
      return this.#store
    } catch (err) {
      // No bucket yet: no ingest has put a catalog. Anything else (JetStream away) is the sync's failure.
      if (err instanceof Error && /not found/i.test(err.message)) return undefined
      throw err
    }
  }

  #listen(): void {
    this.#announcements ??= this.#link.nc.subscribe(catalogSubject(this.#venue), {
      callback: (err) => {
        if (err !== null) return
        for (const w of [...this.#watchers]) w()
        for (const wake of [...this.#waiting]) wake()
      },
    })
  }

  #announcementOrPoll(signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer)
        this.#waiting.delete(done)
        signal.removeEventListener('abort', done)
        resolve()
      }
      // Real time: it waits for another process, not for the service's clock.
      const timer = setTimeout(done, POLL_MS)
      timer.unref()
      this.#waiting.add(done)
      signal.addEventListener('abort', done)
      this.#log.debug({ venue: this.#venue }, 'waiting for the ingest to put a catalog')
    })
  }
}

/** How often an edge waiting for its first catalog looks for it, announcements aside. */
const POLL_MS = 1_000
