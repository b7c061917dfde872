import { Actor, type ActorStatus } from './actor.js'
import type { Clock } from '../core/clock.js'
import type { Logger } from '../core/logger.js'
import type { BookReader } from '../book/order-book.js'
import type { Quote, VenueId } from '../model/types.js'
import type { FeedEvent, VenueAdapter, VenueFeed } from '../venues/types.js'
import type { CatalogLoad } from './catalog-load.js'
import { CatalogLoader, type CatalogFileOptions } from './catalog-loader.js'
import type { CatalogMessage } from './catalog-message.js'
import type { VenueStatus } from './venue-status.js'
import type { CatalogSnapshot } from './catalog-snapshot.js'
import { InstrumentSet, type InstrumentChange } from './instrument-set.js'
import { QuoteRows } from './quote-rows.js'
import { newInstrument, requote, type InstrumentState, type InstrumentStats } from './instrument-state.js'
import { bookSnapshotBatches, type FeedBatch } from './book-snapshot.js'

/**
 * One actor per venue, the only writer of that venue's catalog, books and quotes. Socket callbacks and the
 * catalog fetch only `send` messages; `process` applies them synchronously and publishes: an immutable
 * `CatalogSnapshot` per catalog sync, and per top-of-book change (coalesced per wire frame) the instrument's
 * quote, one object per instrument rewritten in place (PublishedQuote says why; readers read it synchronously).
 *
 * Staleness: when the feed reports instruments stale (disconnect, gap, stall, unreadable frame) their books
 * are reset and their last quotes are republished with `stale: true`; the next snapshot makes them live again.
 *
 * A catalog sync at 20,000 markets is a lot of CPU; everything proportional to the catalog (snapshot indexes,
 * the instrument list and the new instrument map) is prepared in event-loop slices (src/core/slices.ts) before
 * the `catalog_loaded` message, whose install is O(instruments that changed). When syncs run, how they are
 * prepared, observed and retried is catalog-loader.ts; the actor only installs what a sync prepared.
 */
export type VenueMessage =
  CatalogMessage | { readonly type: 'feed'; readonly events: readonly FeedEvent[]; readonly receivedAt: number }

export interface VenueActorOptions {
  readonly adapter: VenueAdapter
  readonly clock: Clock
  readonly log: Logger
  readonly catalogRefreshMs: number
  /** How often a refresh lists the venue whole, when its adapter lists changes (CatalogLoaderOptions). */
  readonly catalogFullListingEveryMs?: number
  /** The adapter's catalog guard (config `venues.<venue>.catalog.maxEvents`), shown in the status. */
  readonly catalogMaxEvents?: number
  /** The venue's catalog file: read at start, written after installs (catalog-loader.ts, catalog-file.ts). */
  readonly catalogFile?: CatalogFileOptions
  readonly mailboxCapacity?: number
}

type QuoteListener = (quotes: readonly Quote[]) => void
type BookListener = (step: BookStep) => void
type CatalogListener = (snapshot: CatalogSnapshot) => void
type AppliedListener = (events: readonly FeedEvent[], receivedAt: number) => void

/** A feed's `stale` event: the instruments it can no longer vouch for, and why (the feed's words). */
export type StaleFeedEvent = Extract<FeedEvent, { readonly type: 'stale' }>

/**
 * What one actor step did to its instruments' books, for readers that follow whole books rather than quotes (the
 * stream's book channel). Given to book listeners inside the step, after the quotes were recomputed and before the
 * quote listeners run: books, quotes and stale flags already show the step's result.
 */
export interface BookStep {
  /** Instruments the step touched (a level, snapshot, trade or stale event), each once. */
  readonly touched: readonly Readonly<InstrumentState>[]
  /** The step's `stale` events in order, or undefined (most steps have none). */
  readonly stale: readonly StaleFeedEvent[] | undefined
  /** The step's latest venue time (our receive time when the events carry none). */
  readonly venueTs: number
  readonly receivedAt: number
}

/** The stale reason of the instruments an actor restart demotes (its books are rebuilt from the venue). */
export const RESTART_STALE_REASON = 'actor restart'

export { PROGRESS_LOG_MS } from './catalog-sync-log.js'

export class VenueActor extends Actor<VenueMessage> {
  readonly venue: VenueId
  readonly #o: VenueActorOptions
  #catalog: CatalogSnapshot | undefined
  #catalogVersion = 0
  /** When the venue last listed the installed catalog: its install, or a later sync that found nothing changed. */
  #catalogSyncedAt: number | undefined
  /** The installed catalog was read from the catalog file at start; no sync from the venue has replaced it yet. */
  #catalogFromFile = false
  /** The installed catalog's streamed instruments, in the order the feed was given them. */
  #streamed: readonly string[] = []
  readonly #loader: CatalogLoader
  /** Everything about each streamed instrument in one record (one map lookup per feed event), with its counts. */
  readonly #set = new InstrumentSet(
    (id) => this.#newInstrument(id),
    (st) => this.#retire(st),
  )
  #publishSeq = 0
  /** Quotes of instruments retired by the catalog being installed, published once it is (#retire). */
  #retiredQuotes: Quote[] = []
  /** The adapter's displayed-probability rule, bound once (called per requote). */
  readonly #probability: VenueAdapter['probability']
  /** The next instrument's slot. */
  #nextSlot = 0
  /** The published quotes' numbers (quote-rows.ts); a retired instrument's quote gives its row back. */
  readonly #quoteRows = new QuoteRows()
  readonly #newInstrument = (id: string): InstrumentState => newInstrument(id, this.#nextSlot++)
  #frame = 0
  #ready = false
  #feed: VenueFeed | undefined
  /** The current feed has been given the instrument map's ids (a new feed after a restart has none). */
  #feedHasInstruments = false
  readonly #quoteListeners = new Set<QuoteListener>()
  readonly #bookListeners = new Set<BookListener>()
  readonly #catalogListeners = new Set<CatalogListener>()
  readonly #appliedListeners = new Set<AppliedListener>()

  constructor(options: VenueActorOptions) {
    super(`venue:${options.adapter.id}`, options.mailboxCapacity)
    this.venue = options.adapter.id
    this.#o = options
    this.#probability = (inputs) => options.adapter.probability(inputs)
    this.#loader = new CatalogLoader({
      adapter: options.adapter,
      clock: options.clock,
      log: options.log,
      refreshMs: options.catalogRefreshMs,
      fullListingEveryMs: options.catalogFullListingEveryMs,
      file: options.catalogFile,
      send: (message) => this.send(message),
      catalog: () => this.#catalog,
      instruments: () => this.#set.map,
      instrumentMapVersion: () => this.#set.version,
      newInstrument: this.#newInstrument,
    })
  }

  // ------------------------------------------------------------------------------------------ readers

  subscribeQuotes(listener: QuoteListener): () => void {
    this.#quoteListeners.add(listener)
    return () => this.#quoteListeners.delete(listener)
  }

  /** Per step that touched instruments (see BookStep); nothing is built for it while no listener is subscribed. */
  subscribeBooks(listener: BookListener): () => void {
    this.#bookListeners.add(listener)
    return () => this.#bookListeners.delete(listener)
  }

  subscribeCatalog(listener: CatalogListener): () => void {
    this.#catalogListeners.add(listener)
    return () => this.#catalogListeners.delete(listener)
  }

  /**
   * Every feed batch the actor applied, in order, after it was applied (and after the quote listeners ran), and on a
   * restart a `stale` of every instrument (RESTART_STALE_REASON). Another actor running this code that applies the
   * same batches from `bookSnapshotBatches` on holds the same books and quotes (src/bus/feed/ does, over the bus).
   */
  subscribeApplied(listener: AppliedListener): () => void {
    this.#appliedListeners.add(listener)
    return () => this.#appliedListeners.delete(listener)
  }

  /**
   * Batches that bring a follower to this actor's books, last trades, statistics and quotes as they are now, for the
   * given instruments (ids it does not hold come back stale) or every one it holds (book-snapshot.ts).
   */
  bookSnapshotBatches(instrumentIds?: readonly string[]): FeedBatch[] {
    if (instrumentIds === undefined) return bookSnapshotBatches(this.#set.map.values(), [], this.#o.clock.now())
    const held: InstrumentState[] = []
    const missing: string[] = []
    for (const id of instrumentIds) {
      const st = this.#set.map.get(id)
      if (st === undefined) missing.push(id)
      else held.push(st)
    }
    return bookSnapshotBatches(held, missing, this.#o.clock.now())
  }

  /**
   * Syncs the catalog now rather than at the next refresh (an adapter's `watchCatalog` says a new one is there); if a
   * sync is in progress, another starts when it ends, so a catalog announced during a sync is not missed. `whole`: that
   * sync lists the venue whole even between whole listings (CatalogLoader.refresh).
   */
  refreshCatalog(whole = false): void {
    if (this.status !== 'running') return
    this.#loader.refresh(whole)
  }

  catalog(): CatalogSnapshot | undefined {
    return this.#catalog
  }

  quote(instrumentId: string): Quote | undefined {
    return this.#set.map.get(instrumentId)?.quote
  }

  /** Every published quote (live or stale) of the streamed instruments. */
  *quotes(): IterableIterator<Quote> {
    for (const st of this.#set.map.values()) if (st.quote !== undefined) yield st.quote
  }

  /** Read-only book view; use it synchronously (the actor mutates the book between messages). */
  book(instrumentId: string): BookReader | undefined {
    return this.#set.map.get(instrumentId)?.book
  }

  stats(instrumentId: string): InstrumentStats | undefined {
    return this.#set.map.get(instrumentId)?.stats
  }

  /**
   * The instrument's live state as a handle: its `quote`, `book` and `stats` read current values until it is
   * `retired` (the instrument left the map). Read synchronously, as `book()`.
   */
  handle(instrumentId: string): Readonly<InstrumentState> | undefined {
    return this.#set.map.get(instrumentId)
  }

  /**
   * Quotes published since start: each one a change a reader sees (best bid or ask, their sizes, the last trade, or
   * the stale flag) of one instrument. Counted by the sequence number every published quote carries.
   */
  get quotesPublished(): number {
    return this.#publishSeq
  }

  /** True once the catalog is loaded and every streamed book has had its first snapshot. Stays true. */
  get ready(): boolean {
    return this.#ready
  }

  /** O(1): counts are kept as books sync and go stale, not recounted per call. */
  venueStatus(): VenueStatus {
    const c = this.#catalog
    return {
      venue: this.venue,
      actor: this.status,
      ready: this.#ready,
      catalog: {
        loaded: c !== undefined,
        version: c?.version ?? 0,
        events: c?.events.length ?? 0,
        markets: c?.marketCount ?? 0,
        outcomes: c?.outcomeCount ?? 0,
        fetchedAt: c?.fetchedAt,
        syncedAt: this.#catalogSyncedAt,
        fromFile: this.#catalogFromFile,
        lastError: this.#loader.lastError,
        truncated: c?.truncation !== undefined,
        maxEvents: this.#o.catalogMaxEvents ?? c?.truncation?.maxEvents,
        loading: this.#loader.loading(),
        failures: this.#loader.failures,
      },
      credentials: this.#o.adapter.credentials ?? 'not_required',
      books: { instruments: this.#set.map.size, synced: this.#set.synced, stale: this.#set.stale },
      feed: this.#feed?.status(),
    }
  }

  // ------------------------------------------------------------------------------------------ lifecycle

  protected override onStart(): void {
    // A restart rebuilds every book from the venue: nothing from a failed run is trusted. Instruments keep
    // their last quotes, demoted to stale, until fresh snapshots arrive.
    const demoted: Quote[] = []
    for (const st of this.#set.map.values()) {
      st.book.reset()
      this.#set.setStale(st, true)
      if (st.quote !== undefined && !st.quote.stale) {
        st.quote.demote(++this.#publishSeq)
        demoted.push(st.quote)
      }
    }
    this.#set.synced = 0
    if (this.#bookListeners.size > 0 && this.#set.map.size > 0) {
      const now = this.#o.clock.now()
      const instrumentIds = [...this.#set.map.keys()]
      const stale: StaleFeedEvent = { type: 'stale', instrumentIds, reason: RESTART_STALE_REASON }
      const step: BookStep = { touched: [...this.#set.map.values()], stale: [stale], venueTs: now, receivedAt: now }
      for (const listener of this.#bookListeners) listener(step)
    }
    if (demoted.length > 0) for (const listener of this.#quoteListeners) listener(demoted)
    if (this.#appliedListeners.size > 0 && this.#set.map.size > 0) {
      const stale: StaleFeedEvent = {
        type: 'stale',
        instrumentIds: [...this.#set.map.keys()],
        reason: RESTART_STALE_REASON,
      }
      const now = this.#o.clock.now()
      for (const listener of this.#appliedListeners) listener([stale], now)
    }
    this.#feed = this.#o.adapter.createFeed((events, receivedAt) => {
      this.send({ type: 'feed', events, receivedAt })
    })
    this.#feedHasInstruments = false
    this.#loader.start()
  }

  protected override onStop(): void {
    this.#loader.stop()
    this.#feed?.close()
    this.#feed = undefined
  }

  // ------------------------------------------------------------------------------------------ process

  protected process(message: VenueMessage): void {
    switch (message.type) {
      case 'feed':
        this.#applyFeed(message.events, message.receivedAt)
        for (const listener of this.#appliedListeners) listener(message.events, message.receivedAt)
        return
      case 'catalog_loaded':
        return this.#installCatalog(message)
      case 'catalog_unchanged':
        return this.#confirmCatalog(message)
      case 'catalog_failed':
        return this.#loader.failed(message.error, message.load)
    }
  }

  #installCatalog(message: Extract<CatalogMessage, { type: 'catalog_loaded' }>): void {
    const { snapshot: built, instruments, plan, edit, load } = message
    // Its changes are since the catalog it was made from: kept only if that is the one it replaces.
    const changes =
      built.changes !== undefined && built.changes.since === this.#catalog?.version ? built.changes : undefined
    const snapshot = Object.freeze({ ...built, version: ++this.#catalogVersion, changes })
    const wasTruncated = this.#catalog?.truncation !== undefined
    this.#catalog = snapshot
    this.#catalogSyncedAt = snapshot.fetchedAt
    this.#streamed = instruments
    this.#tellFeed(this.#set.install(instruments, plan, edit), instruments)
    this.#catalogFromFile = message.fromFile === true
    this.#loader.installed(snapshot, this.#set.map.size, wasTruncated, load, message.mapping, this.#catalogFromFile)
    const retired = this.#retiredQuotes
    this.#retiredQuotes = []
    if (retired.length > 0) for (const listener of this.#quoteListeners) listener(retired)
    for (const listener of this.#catalogListeners) listener(snapshot)
    this.#checkReady()
  }

  /**
   * A sync listed the installed catalog again: nothing is installed and no listener hears of it. A feed started
   * since the install (an actor restart) still needs the streamed list.
   */
  #confirmCatalog({ fetchedAt, load, mapping }: Extract<CatalogMessage, { type: 'catalog_unchanged' }>): void {
    if (this.#catalog === undefined) return
    this.#catalogSyncedAt = fetchedAt
    this.#catalogFromFile = false
    if (this.#feed !== undefined && !this.#feedHasInstruments) {
      this.#feed.setInstruments(this.#streamed)
      this.#feedHasInstruments = true
    }
    this.#loader.confirmed(this.#catalog, load, mapping)
    this.#checkReady()
  }

  /** The feed is told only what changed, and nothing when the set did not change (the whole list if it has none). */
  #tellFeed(change: InstrumentChange | undefined, instruments: readonly string[]): void {
    const feed = this.#feed
    if (feed === undefined) return
    if (change === undefined || !this.#feedHasInstruments || feed.changeInstruments === undefined)
      feed.setInstruments(instruments)
    else if (change.added.length > 0 || change.removedIds.length > 0)
      feed.changeInstruments(change.added, change.removedIds)
    this.#feedHasInstruments = true
  }

  #applyFeed(events: readonly FeedEvent[], receivedAt: number): void {
    const frame = ++this.#frame
    // A fresh array per frame: young-generation allocation is cheaper than truncating a shared one.
    const touched: InstrumentState[] = []
    let stale: StaleFeedEvent[] | undefined
    let venueTs = 0
    for (let i = 0; i < events.length; i++) {
      const e = events[i] as FeedEvent
      if (e.type === 'stale') {
        if (this.#bookListeners.size > 0) (stale ??= []).push(e)
        for (const id of e.instrumentIds) {
          const st = this.#set.map.get(id)
          if (st === undefined) continue
          if (st.book.hasSnapshot) this.#set.synced--
          st.book.reset()
          this.#set.setStale(st, true)
          if (st.touchedInFrame !== frame) {
            st.touchedInFrame = frame
            touched.push(st)
          }
        }
        continue
      }
      const st = this.#set.map.get(e.instrumentId)
      if (st === undefined) continue
      if (e.venueTs > venueTs) venueTs = e.venueTs
      switch (e.type) {
        case 'snapshot':
          if (!st.book.hasSnapshot) this.#set.synced++
          st.book.applySnapshot(e.bids, e.asks)
          this.#set.setStale(st, false)
          break
        case 'level':
          st.book.setLevel(e.side, e.price, e.size)
          break
        case 'delta':
          st.book.addToLevel(e.side, e.price, e.delta)
          break
        case 'trade':
          st.lastTrade = e.price
          break
        case 'stats':
          st.stats = { volume: e.volume, openInterest: e.openInterest, at: e.venueTs }
          continue
      }
      if (st.touchedInFrame !== frame) {
        st.touchedInFrame = frame
        touched.push(st)
      }
    }
    if (touched.length === 0) return
    // `receivedAt` may carry a fraction of a ms (the stream's preciseTimes): it stays the quotes' and frames' receipt
    // time (`lts`), but a venue time that falls back to it is whole ms, as venue times are.
    const stepTs = venueTs || Math.trunc(receivedAt)
    let published: Quote[] | undefined
    for (let i = 0; i < touched.length; i++) {
      const q = requote(
        this.venue,
        touched[i] as InstrumentState,
        stepTs,
        receivedAt,
        this.#probability,
        this.#publishSeq + 1,
        this.#quoteRows,
      )
      if (q !== undefined) this.#publishSeq = q.seq
      if (q !== undefined) (published ??= []).push(q)
    }
    if (this.#bookListeners.size > 0) {
      const step: BookStep = { touched, stale, venueTs: stepTs, receivedAt }
      for (const listener of this.#bookListeners) listener(step)
    }
    if (published !== undefined) for (const listener of this.#quoteListeners) listener(published)
    if (!this.#ready) this.#checkReady()
  }

  /**
   * An instrument left the streamed set (its market closed or left the catalog): nothing keeps its quote current any
   * more, so the quote is demoted to stale and published (the spread engine then stops ranking its pairs as fresh:
   * without this, a market closed at runtime kept its last quote fresh on /spreads/top for the whole stale cutoff).
   */
  #retire(st: InstrumentState): void {
    st.retired = true
    if (st.quote !== undefined && !st.quote.stale) {
      st.quote.demote(++this.#publishSeq)
      this.#retiredQuotes.push(st.quote)
    }
    st.quote?.detach()
  }

  #checkReady(): void {
    if (this.#ready || this.#catalog === undefined || this.#feed === undefined) return
    if (this.#set.synced < this.#set.map.size || this.#feed.status().subscribed < this.#set.map.size) return
    this.#ready = true
    this.#o.log.info({ instruments: this.#set.map.size }, 'venue ready: catalog loaded, every book synced')
    this.#loader.venueReady()
  }
}
