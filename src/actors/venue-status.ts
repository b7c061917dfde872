import type { ActorStatus } from './actor.js'
import type { VenueId } from '../model/types.js'
import type { CredentialState, FeedStatus } from '../venues/types.js'
import type { CatalogLoadStatus } from './catalog-load.js'

/** A venue actor's state as /readyz, the metrics and the lifecycle tests read it (`VenueActor.venueStatus()`). */
export interface VenueStatus {
  readonly venue: VenueId
  readonly actor: ActorStatus
  readonly ready: boolean
  readonly catalog: {
    readonly loaded: boolean
    readonly version: number
    readonly events: number
    readonly markets: number
    readonly outcomes: number
    /** When the installed catalog was listed (its version's sync). */
    readonly fetchedAt: number | undefined
    /** When the venue last listed it: later than `fetchedAt` when refreshes since found nothing changed. */
    readonly syncedAt: number | undefined
    /** The installed catalog was read from the catalog file at start, and the venue has not been listed since. */
    readonly fromFile: boolean
    readonly lastError: string | undefined
    /** The installed catalog stopped at the `maxEvents` guard while the venue listed more (it is still served). */
    readonly truncated: boolean
    /** The guard (config `venues.<venue>.catalog.maxEvents`); undefined when the actor was not told it. */
    readonly maxEvents: number | undefined
    /** The sync in progress (the first one, or a refresh); undefined between syncs. */
    readonly loading: CatalogLoadStatus | undefined
    /** Syncs failed in a row (0 after a success). */
    readonly failures: number
  }
  /** The venue's API key (the adapter's; `not_required` for a venue that needs none). */
  readonly credentials: CredentialState
  readonly books: { readonly instruments: number; readonly synced: number; readonly stale: number }
  readonly feed: FeedStatus | undefined
}
