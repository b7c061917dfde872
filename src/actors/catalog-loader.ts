import type { Clock, TimerHandle } from '../core/clock.js'
import type { Logger } from '../core/logger.js'
import { runInSlices } from '../core/slices.js'
import type { Catalog } from '../model/types.js'
import type { CatalogProgress, VenueAdapter } from '../venues/types.js'
import { CatalogFileKeeper, type CatalogFileOptions } from './catalog-file-keeper.js'
import { CatalogLoad, type CatalogLoadStatus } from './catalog-load.js'
import { CatalogSyncLog } from './catalog-sync-log.js'
import {
  catalogSnapshotSteps,
  listsInstalledCatalog,
  type CatalogSnapshot,
  type KnownChanges,
} from './catalog-snapshot.js'
import { withChangedEvents } from './catalog-changed-events.js'
import { instrumentPlanSteps, type InstrumentPlan } from './instrument-plan.js'
import type { InstrumentState } from './instrument-state.js'
import type { CatalogMessage } from './catalog-message.js'
import { StreamedIndex, type InstrumentEdit } from './streamed-index.js'

/**
 * When and how a venue actor's catalog is synced: the first sync at start, a refresh `refreshMs` after each sync ends,
 * one more when the adapter's `watchCatalog` announces a new catalog (`refresh`), and retries of a failed first sync.
 * Counted from a sync's end, not its start: at the venues' real size a listing takes tens of seconds, and an interval
 * from the start listed a slow venue again seconds after its first sync. With a catalog file, the refreshes also
 * wait for the whole service to be ready (`file.serviceReady`): a start's own work (books, matcher, read models) goes
 * before a second listing of a catalog listed moments ago. A sync lists
 * the venue and prepares everything proportional to the catalog (snapshot indexes, the instrument list and the new
 * instrument map) in event-loop slices (src/core/slices.ts), then hands the finished work to the actor as one
 * message (catalog-message.ts); the actor installs it (its instruments are its own) and reports back (`installed`,
 * `failed`). Between whole listings (`fullListingEveryMs`) a refresh lists only the events the venue says changed,
 * where its adapter can (`fetchChangedEvents`), and applies them to the installed catalog (catalog-changed-events.ts).
 *
 * A sync in progress is observable (catalog-load.ts): /readyz shows its pages, events and rate, and during the
 * first sync (when there is nothing to serve yet) the log has a progress line every PROGRESS_LOG_MS. A first sync
 * that fails is retried with capped exponential backoff, each failure logged with the request and the cause.
 */
export interface CatalogLoaderOptions {
  readonly adapter: VenueAdapter
  readonly clock: Clock
  readonly log: Logger
  readonly refreshMs: number
  /**
   * With an adapter that lists changes (`fetchChangedEvents`): a refresh lists the venue whole when this long has
   * passed since the last whole listing began, else only the events changed since the last sync began (less
   * CHANGES_OVERLAP_MS). 0 or absent: every refresh lists the venue whole.
   */
  readonly fullListingEveryMs?: number
  /** The actor's mailbox: a finished sync is installed by the actor, in order with its feed. */
  readonly send: (message: CatalogMessage) => void
  /** The installed catalog: only the first sync logs progress, and only a sync with nothing to serve is retried. */
  readonly catalog: () => CatalogSnapshot | undefined
  /** The actor's instrument map, read when the listing is in: the plan is prepared against it. */
  readonly instruments: () => ReadonlyMap<string, InstrumentState>
  readonly newInstrument: (id: string) => InstrumentState
  /** How many times the actor's instrument map has changed: an edit applies to the map as it was made against. */
  readonly instrumentMapVersion: () => number
  /**
   * The venue's catalog file (catalog-file.ts): read at start, before the first sync, so a restart serves the last
   * catalog at once; written after an install from the venue (the first once the venue is ready), at most every
   * `writeEveryMs`.
   */
  readonly file?: CatalogFileOptions
}

export type { CatalogFileOptions } from './catalog-file-keeper.js'

/** What a sync listed: the catalog, and for a listing of changes what it changed since `base`, the installed one. */
interface Listed {
  readonly catalog: Catalog
  readonly known?: KnownChanges
  readonly base?: CatalogSnapshot
}

/** First retry of a failed sync while no catalog is loaded; doubled per failure in a row, up to the cap. */
const CATALOG_RETRY_MS = 2_000
const CATALOG_RETRY_MAX_MS = 30_000
/**
 * After a start from the catalog file, the venue is listed when its books have synced (and the service is ready, when
 * the file's options say to wait for it), or after this long if its books have not synced by then.
 */
export const FILE_LISTING_DELAY_MS = 30_000
/**
 * Changes are asked for since this long before the last sync began: the venue stamps updates in whole seconds on its
 * own clock. What was updated within the overlap is listed again and found unchanged (mapped-records.ts).
 */
export const CHANGES_OVERLAP_MS = 60_000

export class CatalogLoader {
  readonly #o: CatalogLoaderOptions
  #started = false
  #loading: AbortController | undefined
  /** What the sync in progress has listed so far (set with `#loading`, kept until its message is processed). */
  #load: CatalogLoad | undefined
  /** Raw events the last whole listing listed: the basis of the next one's estimate. */
  #lastListedEvents: number | undefined
  /** When the last sync from the venue that succeeded began (whole or of changes): changes are asked since then. */
  #syncedFrom: number | undefined
  /** When the last whole listing that succeeded began (`fullListingEveryMs` counts from it). */
  #listedWholeAt: number | undefined
  /** The sync's log lines (progress, installs, truncation). */
  readonly #say: CatalogSyncLog
  #failures = 0
  #lastError: string | undefined
  #refreshTimer: TimerHandle | undefined
  /** A refresh was asked for while a sync was in progress: another one starts when it ends (refresh). */
  #refreshAgain = false
  /** The next sync lists the venue whole, whenever the last whole listing was (`refresh(true)`). */
  #wholeAsked = false
  #unwatchCatalog: (() => void) | undefined
  #retryTimer: TimerHandle | undefined
  /** The venue's catalog file, when it has one. */
  readonly #file: CatalogFileKeeper | undefined
  /** The installed catalog was read from the file and no sync from the venue has succeeded since. */
  #fileServed = false
  /** `file.serviceReady` has resolved (or there is none): periodic refreshes run on their timer alone. */
  #serviceReady: boolean
  /** The first listing after a start from the file, waiting for the venue's books to sync (venueReady). */
  #deferredListing: TimerHandle | undefined
  /** The instruments the last prepared snapshot streams, for an install of few changes (streamed-index.ts). */
  readonly #streamed = new StreamedIndex()

  constructor(options: CatalogLoaderOptions) {
    this.#o = options
    this.#say = new CatalogSyncLog(options.log, options.clock, options.adapter.id)
    this.#file =
      options.file === undefined
        ? undefined
        : new CatalogFileKeeper(options.file, options.adapter.id, options.clock, options.log)
    const serviceReady = options.file?.serviceReady
    this.#serviceReady = serviceReady === undefined
    void serviceReady?.then(() => (this.#serviceReady = true))
  }

  /** The sync in progress (the first one, or a refresh); undefined between syncs. */
  loading(): CatalogLoadStatus | undefined {
    return this.#load?.status()
  }

  /** Syncs failed in a row (0 after a success). */
  get failures(): number {
    return this.#failures
  }

  /** The last failed sync's request and cause; cleared when a catalog is installed. */
  get lastError(): string | undefined {
    return this.#lastError
  }

  /** The first sync now, then refreshes on the timer and on the adapter's announcements, until `stop`. */
  start(): void {
    this.#started = true
    const file = this.#file
    if (file !== undefined && this.#o.catalog() === undefined) void this.#startFromFile(file)
    else {
      this.#o.file?.onStartRead?.()
      this.#loadCatalog()
    }
    this.#unwatchCatalog = this.#o.adapter.watchCatalog?.(() => this.refresh())
  }

  /** Aborts the sync in progress (its message is never sent) and every timer. */
  stop(): void {
    this.#started = false
    this.#o.clock.clearTimeout(this.#refreshTimer)
    this.#refreshTimer = undefined
    this.#o.clock.clearTimeout(this.#retryTimer)
    this.#o.clock.clearTimeout(this.#deferredListing)
    this.#deferredListing = undefined
    this.#unwatchCatalog?.()
    this.#unwatchCatalog = undefined
    this.#refreshAgain = false
    this.#loading?.abort()
    this.#loading = undefined
    this.#load = undefined
  }

  /**
   * Syncs the catalog now rather than at the next refresh; if a sync is in progress, another starts when it ends, so
   * a catalog announced during a sync is not missed. `whole`: that sync lists the venue whole, not its changes.
   */
  refresh(whole = false): void {
    if (!this.#started) return
    if (whole) this.#wholeAsked = true
    if (this.#loading !== undefined) this.#refreshAgain = true
    else this.#loadCatalog()
  }

  #loadCatalog(): void {
    if (this.#loading !== undefined) return
    this.#o.clock.clearTimeout(this.#refreshTimer)
    this.#refreshTimer = undefined
    const controller = new AbortController()
    this.#loading = controller
    const since = this.#changesSince()
    this.#wholeAsked = false
    const load = new CatalogLoad(this.#o.clock, since === undefined ? this.#lastListedEvents : undefined, since)
    this.#load = load
    // Until the venue has been listed once, a sync is the first (progress in the log, retries with backoff).
    const first = this.#o.catalog() === undefined || this.#fileServed
    if (first) {
      this.#say.started(this.#failures + 1)
    }
    const progress = {
      page: (list: string, events: number) => {
        if (controller.signal.aborted) return
        load.page(list, events)
        if (first) this.#say.progress(load)
      },
    }
    this.#list(load, controller.signal, progress)
      .then(async (listed: Listed | undefined) => {
        if (controller.signal.aborted) return
        const catalog = listed?.catalog
        load.listed()
        if (first)
          this.#o.log.info(
            { pages: load.pages, listed: load.events, elapsedMs: this.#o.clock.now() - load.startedAt },
            'catalog listed; building the snapshot',
          )
        const installed = this.#o.catalog()
        if (catalog === undefined || (installed !== undefined && listsInstalledCatalog(catalog, installed))) {
          // Nothing changed at the venue: no snapshot, no instrument plan, and downstream (matcher, views, bus)
          // never hears of it. A refresh of an unchanged catalog costs its listing only.
          const fetchedAt = catalog?.fetchedAt ?? this.#o.clock.now()
          this.#o.send({ type: 'catalog_unchanged', fetchedAt, load, mapping: catalog?.mapping })
          return
        }
        // The changes known by the listing are since the catalog it was applied to: used only if that is still installed.
        const known = listed?.base === installed ? listed?.known : undefined
        const prepared = await this.#prepare(catalog, installed, known)
        if (controller.signal.aborted) return
        this.#o.send({ type: 'catalog_loaded', ...prepared, load, mapping: catalog.mapping })
      })
      .catch((err: unknown) => {
        if (!controller.signal.aborted)
          this.#o.send({ type: 'catalog_failed', error: err instanceof Error ? err.message : String(err), load })
      })
      .finally(() => {
        if (this.#loading !== controller) return
        this.#loading = undefined
        if (this.#refreshAgain) {
          this.#refreshAgain = false
          this.#loadCatalog()
        } else this.#scheduleRefresh()
      })
  }

  /**
   * The venue's catalog now: listed whole, or (`load.since`) the installed one with the events changed since then
   * (catalog-changes.ts), undefined when none changed. Changes the adapter cannot apply alone are listed whole.
   */
  async #list(load: CatalogLoad, signal: AbortSignal, progress: CatalogProgress): Promise<Listed | undefined> {
    const adapter = this.#o.adapter
    const installed = this.#o.catalog()
    if (load.since !== undefined && adapter.fetchChangedEvents !== undefined && installed !== undefined) {
      const changed = await adapter.fetchChangedEvents(load.since, signal, progress, installed)
      if (changed !== undefined) {
        const applied = withChangedEvents(installed, changed)
        return applied && { catalog: applied.catalog, known: applied.changes, base: installed }
      }
      this.#o.log.info({ since: new Date(load.since).toISOString() }, 'catalog changes need a whole listing')
      load.listWhole(this.#lastListedEvents)
    }
    return { catalog: await adapter.fetchCatalog(signal, progress) }
  }

  /** Since when the next sync lists changes; undefined when it lists the venue whole. */
  #changesSince(): number | undefined {
    const every = this.#o.fullListingEveryMs ?? 0
    if (every <= 0 || this.#o.adapter.fetchChangedEvents === undefined || this.#wholeAsked) return undefined
    if (this.#fileServed || this.#failures > 0 || this.#o.catalog() === undefined) return undefined
    if (this.#syncedFrom === undefined || this.#listedWholeAt === undefined) return undefined
    if (this.#o.clock.now() - this.#listedWholeAt >= every) return undefined
    return this.#syncedFrom - CHANGES_OVERLAP_MS
  }

  /** The next periodic refresh, `refreshMs` from now (the end of a sync), replacing any scheduled one. */
  #scheduleRefresh(): void {
    if (!this.#started) return
    this.#o.clock.clearTimeout(this.#refreshTimer)
    this.#refreshTimer = this.#o.clock.setTimeout(() => {
      this.#refreshTimer = undefined
      const serviceReady = this.#o.file?.serviceReady
      if (this.#serviceReady || serviceReady === undefined) this.#loadCatalog()
      else void serviceReady.then(() => this.#started && this.#loadCatalog())
    }, this.#o.refreshMs)
  }

  /**
   * Everything proportional to the catalog, in slices outside the actor's `process`, so that the actor only swaps
   * finished work in: the snapshot's indexes, the streamed instruments and the plan against the instrument map (or,
   * for a snapshot patched from `previous`, the edit of the instruments its changed events brought and took).
   * `previous`: the installed snapshot, whose lookups a refresh that changed few events patches (catalog-snapshot.ts).
   */
  async #prepare(
    catalog: Catalog,
    previous?: CatalogSnapshot,
    known?: KnownChanges,
  ): Promise<{
    snapshot: CatalogSnapshot
    instruments: readonly string[]
    plan?: InstrumentPlan<InstrumentState>
    edit?: InstrumentEdit
  }> {
    const snapshot = await runInSlices(catalogSnapshotSteps(catalog, 0, previous, known))
    const streams = this.#o.adapter.streams
    if (streams !== undefined && previous !== undefined) {
      const edited = this.#streamed.edit(previous, snapshot, streams, this.#o.instrumentMapVersion())
      if (edited !== undefined) return { snapshot, ...edited }
    }
    const instruments =
      streams === undefined ? this.#o.adapter.instrumentsOf(catalog) : await this.#streamed.whole(snapshot, streams)
    const mapVersion = this.#o.instrumentMapVersion()
    const plan = await runInSlices(instrumentPlanSteps(instruments, this.#o.instruments(), this.#o.newInstrument))
    return { snapshot, instruments, plan: { ...plan, mapVersion } }
  }

  /**
   * At start: the catalog file, if there is a whole one of this venue and source, is installed first (the actor
   * serves it, marked as read from the file, until a sync from the venue confirms or replaces it); then the first
   * sync starts. A refused file is logged with the reason and ignored. No other sync runs meanwhile.
   */
  async #startFromFile(file: CatalogFileKeeper): Promise<void> {
    const controller = new AbortController()
    this.#loading = controller
    const startedAt = this.#o.clock.now()
    try {
      const read = await file.read()
      if (read === undefined || controller.signal.aborted) return
      const prepared = await this.#prepare(read.catalog)
      if (controller.signal.aborted) return
      this.#o.log.info(
        {
          path: this.#o.file?.path,
          events: read.catalog.events.length,
          bytes: read.bytes,
          listedAt: new Date(read.catalog.fetchedAt).toISOString(),
          elapsedMs: this.#o.clock.now() - startedAt,
        },
        'catalog read from its file; served until the venue is listed',
      )
      this.#fileServed = true
      // The first listing gives back the file's events the venue still lists as they were: it installs what changed.
      this.#o.adapter.seedCatalog?.(read.catalog)
      this.#o.send({ type: 'catalog_loaded', ...prepared, fromFile: true })
    } finally {
      this.#o.file?.onStartRead?.()
      if (this.#loading === controller) {
        this.#loading = undefined
        // Served from the file: the venue is listed once its books have synced (venueReady), so the restart's own
        // work is not slowed by a listing's; a venue whose books never sync is listed after FILE_LISTING_DELAY_MS.
        if (this.#fileServed) this.#deferFirstListing()
        else this.#loadCatalog()
      }
    }
  }

  #deferFirstListing(): void {
    this.#deferredListing = this.#o.clock.setTimeout(() => this.#startDeferredListing(), FILE_LISTING_DELAY_MS)
  }

  #startDeferredListing(): void {
    if (this.#deferredListing === undefined) return
    this.#o.clock.clearTimeout(this.#deferredListing)
    this.#deferredListing = undefined
    if (this.#started) this.#loadCatalog()
  }

  /**
   * The actor's books have all synced (once per start): a listing deferred behind a file start begins now, or once
   * the service is ready when the file says to wait for it (`listAfter`).
   */
  venueReady(): void {
    const after = this.#o.file?.serviceReady
    if (after === undefined) this.#startDeferredListing()
    else {
      // The books are in: FILE_LISTING_DELAY_MS was for books that never sync. The rest of the start (matches, read
      // models) is not slowed by a listing either; serviceReady gives up waiting on its own (restart-files.ts).
      this.#o.clock.clearTimeout(this.#deferredListing)
      void after.then(() => this.#startDeferredListing())
    }
    this.#file?.venueReady()
  }

  /** The sync that sent this message is over (a newer one may have started since: only its own record is cleared). */
  #syncEnded(load: CatalogLoad | undefined): void {
    if (load !== undefined && this.#load === load) this.#load = undefined
  }

  /**
   * The actor installed `snapshot` (`catalog_loaded`) with `instruments` streamed: the sync is over and succeeded.
   * `wasTruncated`: the catalog it replaced was cut at the guard (a catalog that fits again is said so once).
   */
  installed(
    snapshot: CatalogSnapshot,
    instruments: number,
    wasTruncated: boolean,
    load: CatalogLoad | undefined,
    mapping?: Catalog['mapping'],
    fromFile = false,
  ): void {
    if (fromFile) {
      this.#say.truncation(snapshot)
      return
    }
    this.#say.installed(snapshot, instruments, wasTruncated, load, mapping)
    this.#listed(load)
    this.#file?.installed(snapshot)
  }

  /** The sync listed the installed catalog again (`catalog_unchanged`): it succeeded, and nothing was installed. */
  confirmed(snapshot: CatalogSnapshot, load: CatalogLoad | undefined, mapping?: Catalog['mapping']): void {
    this.#say.unchanged(snapshot, load, mapping)
    this.#listed(load)
  }

  /** A sync from the venue succeeded (installed or unchanged): failures and the file's stand-in are over. */
  #listed(load: CatalogLoad | undefined): void {
    this.#fileServed = false
    this.#syncEnded(load)
    this.#lastError = undefined
    this.#failures = 0
    if (load === undefined) return
    this.#syncedFrom = load.startedAt
    if (load.since !== undefined) return
    this.#listedWholeAt = load.startedAt
    this.#lastListedEvents = load.events
  }

  /**
   * The sync failed (`catalog_failed`). `error` names the request and the cause (`GET https://host/events: DNS lookup
   * failed (ENOTFOUND host)`, see transport-errors.ts). Without a catalog the sync is retried after 2 s, 4 s, 8 s… up
   * to 30 s; with one, the next refresh tries again and the installed catalog is still served.
   */
  failed(error: string, load: CatalogLoad | undefined): void {
    this.#syncEnded(load)
    this.#lastError = error
    this.#failures++
    const catalog = this.#o.catalog()
    if (catalog !== undefined && !this.#fileServed) {
      this.#o.log.warn(
        { error, failures: this.#failures, servedVersion: catalog.version },
        'catalog sync failed; still serving the installed catalog',
      )
      return
    }
    const retryInMs = Math.min(CATALOG_RETRY_MAX_MS, CATALOG_RETRY_MS * 2 ** Math.min(this.#failures - 1, 10))
    this.#o.log.warn({ error, failures: this.#failures, retryInMs }, 'catalog sync failed')
    this.#o.clock.clearTimeout(this.#retryTimer)
    this.#retryTimer = this.#o.clock.setTimeout(() => this.#loadCatalog(), retryInMs)
  }
}
