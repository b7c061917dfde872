import type { Stamp } from '../core/precise-time.js'
import type { Clock } from '../core/clock.js'
import type { Logger } from '../core/logger.js'
import type { BookSideName, LevelMicros } from '../book/order-book.js'
import type { Catalog, CatalogEvent, Outcome, VenueId } from '../model/types.js'

/**
 * The contract between a venue adapter and its venue actor. Feeds turn wire frames into `FeedEvent`s in
 * integer micro-units (src/core/numbers.ts) and promise, per instrument: a snapshot before any level change,
 * and a `stale` event before any gap in what they deliver (disconnect, sequence gap, malformed frame,
 * stall). The actor trusts that promise and never guesses.
 */
export type FeedEvent =
  | {
      readonly type: 'snapshot'
      readonly instrumentId: string
      readonly bids: readonly LevelMicros[]
      readonly asks: readonly LevelMicros[]
      readonly venueTs: number
    }
  /** Absolute size at a level (a venue that sends a level's new size); size 0 removes. */
  | {
      readonly type: 'level'
      readonly instrumentId: string
      readonly side: BookSideName
      readonly price: number
      readonly size: number
      readonly venueTs: number
    }
  /** Relative change at a level (a venue that sends signed deltas). */
  | {
      readonly type: 'delta'
      readonly instrumentId: string
      readonly side: BookSideName
      readonly price: number
      readonly delta: number
      readonly venueTs: number
    }
  | {
      readonly type: 'trade'
      readonly instrumentId: string
      /** Price of this instrument in micros. */
      readonly price: number
      readonly size: number
      readonly venueTs: number
    }
  /** Market statistics pushed by the venue (a ticker channel): contracts and dollars as numbers. */
  | {
      readonly type: 'stats'
      readonly instrumentId: string
      readonly volume: number | undefined
      readonly openInterest: number | undefined
      readonly venueTs: number
    }
  /** The feed can no longer vouch for these books until it delivers a new snapshot. */
  | { readonly type: 'stale'; readonly instrumentIds: readonly string[]; readonly reason: string }

/** Receives the events of one wire frame (or one connection event). Called from socket callbacks. */
export type FeedSink = (events: FeedEvent[], receivedAt: number) => void

export interface FeedStatus {
  readonly connections: number
  readonly openConnections: number
  readonly instruments: number
  /** Instruments whose subscription has been sent on an open connection. */
  readonly subscribed: number
  readonly reconnects: number
  readonly framesReceived: number
  readonly malformedFrames: number
  readonly sequenceGaps: number
  readonly staleTimeouts: number
  /**
   * Connections resubscribed because the venue spoke again after missing its probes: a stall that ended, whether or
   * not it lasted long enough to be a stale timeout (ws-connection.ts). Absent for a feed without probes.
   */
  readonly stallResyncs?: number
  /**
   * Probe replies read late only because our own event loop was stalled meanwhile (a pause of ours, not the venue's
   * silence): excused, no resubscription (ws-connection.ts). Absent for a feed without probes.
   */
  readonly lateRepliesExcused?: number
  readonly lastFrameAt: number | undefined
}

export interface VenueFeed {
  /** The full set of instruments to stream; the feed subscribes and unsubscribes the difference. */
  setInstruments(instrumentIds: readonly string[]): void
  /**
   * The same for a known difference from the current set, in O(changes) (a catalog refresh at 20,000 markets
   * changes a handful). Feeds without it get `setInstruments` with the whole list.
   */
  changeInstruments?(added: readonly string[], removed: readonly string[]): void
  close(): void
  status(): FeedStatus
}

/**
 * Whether a venue's API key is usable (a venue's credentials.ts says what each state means); `not_required` for a
 * venue that needs none (its market data and market channel are public).
 */
export type CredentialState = 'configured' | 'missing' | 'unreadable' | 'invalid' | 'not_required'

/**
 * Told of every catalog page as it arrives, so the first sync of a large catalog (tens of thousands of events, in
 * hundreds of pages) shows its progress in /readyz and the log before anything is installed.
 */
export interface CatalogProgress {
  /** One page of `events` raw events (before mapping) from the venue's `list`: `open`, `closed` or `settled`. */
  page(list: string, events: number): void
}

/** Inputs of a venue's displayed-probability rule (decimals). */
export interface ProbabilityInputs {
  readonly bestBid: number | undefined
  readonly bestAsk: number | undefined
  readonly lastTradePrice: number | undefined
}

export interface VenueAdapter {
  readonly id: VenueId
  /** Fetches the whole catalog over REST (every page), telling `progress` of each page. */
  fetchCatalog(signal: AbortSignal, progress?: CatalogProgress): Promise<Catalog>
  createFeed(sink: FeedSink): VenueFeed
  /** The venue's documented displayed-probability rule. */
  probability(inputs: ProbabilityInputs): number | undefined
  /** Instruments to stream for a catalog (active outcomes' books). */
  instrumentsOf(catalog: Catalog): string[]
  /**
   * The rule behind `instrumentsOf`, per outcome (its instrument is streamed, first appearance first, without
   * repeats). When given, the actor lists the instruments in event-loop slices with it instead of calling
   * `instrumentsOf` in one block.
   */
  streams?(outcome: Outcome): boolean
  /** The state of the venue's API key; absent for a venue that needs none. */
  readonly credentials?: CredentialState
  /**
   * Where the catalog is listed from (the venue's base URL). With it, the service keeps the last catalog in its data
   * directory and a restart starts from it (src/actors/catalog-file.ts); a file listed from elsewhere is refused.
   */
  readonly catalogSource?: string
  /**
   * The catalog a restart serves from its file (`catalogSource`): the first listing gives back its events that the
   * venue still lists as they were (the same objects), so the restart's first sync installs only what changed
   * meanwhile, or nothing (mapped-records.ts `seed`).
   */
  seedCatalog?(catalog: Catalog): void
  /**
   * For a catalog source that announces new catalogs (an edge's, src/bus/feed/bus-adapter.ts): calls `onNew` when one
   * is there, so the actor syncs at once instead of at its next refresh. Returns the unsubscribe.
   */
  watchCatalog?(onNew: () => void): () => void
  /**
   * The events the venue stamps as updated at or after `since` (ms), for a refresh between whole listings (the
   * loader's `fullListingEveryMs`): a refresh then costs what changed, not the catalog's size. Undefined when the
   * changes cannot be applied alone (venuek: a series changed, which every event of it maps) and the venue must be
   * listed whole. `installed`: the catalog installed now, for a venue that cannot filter by stamps and asks what
   * changed by what it holds (venuep: events newer than every installed one, installed events due to close). Absent
   * for a venue that can do neither.
   */
  fetchChangedEvents?(
    since: number,
    signal: AbortSignal,
    progress?: CatalogProgress,
    installed?: InstalledCatalog,
  ): Promise<ChangedEvents | undefined>
}

/** The installed catalog as a refresh of changes reads it (a CatalogSnapshot is one). */
export interface InstalledCatalog {
  readonly events: readonly CatalogEvent[]
  readonly eventsById: ReadonlyMap<string, CatalogEvent>
  /** Which install this is, and the events that came and went since the one before (when known): for an adapter's
   * indexes of the installed events to follow the installs at the cost of what changed. */
  readonly version?: number
  readonly changes?:
    | { readonly since: number; readonly removed: readonly CatalogEvent[]; readonly added: readonly CatalogEvent[] }
    | undefined
  /** Each event id is listed once (else `changes` may not be exact). */
  readonly idsOnce?: boolean
}

/**
 * What a venue listed as changed since a time: each event by its id, with what a whole listing would now hold for it
 * (undefined: the whole listing would not list it any more, or it does not map), mapped as the whole listing maps it
 * (an unchanged event is the installed object: mapped-records.ts).
 */
export interface ChangedEvents {
  readonly events: readonly { readonly eventId: string; readonly event: CatalogEvent | undefined }[]
  readonly fetchedAt: number
}

export interface AdapterContext {
  readonly clock: Clock
  readonly log: Logger
  /** Stamps each feed frame's receipt (WsConnectionOptions.receiptStamp); `clock.now()` when absent. */
  readonly receiptStamp?: Stamp
}
