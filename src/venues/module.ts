import type { TObject, TSchema } from '@sinclair/typebox'
import type { VenueActor } from '../actors/venue-actor.js'
import type { Clock } from '../core/clock.js'
import type { Logger } from '../core/logger.js'
import type { AnyRoute } from '../http/route.js'
import type { VenueId } from '../model/types.js'
import type { Simulator } from '../sim/simulator.js'
import type { ReadModels } from '../views/read-models.js'
import type { VenueViewRules } from '../views/venue-rules.js'
import type { AdapterContext, CredentialState, VenueAdapter } from './types.js'
import type { UpstreamStats } from './upstream/upstream.js'

/**
 * Everything the rest of the service needs from one venue: a venue is its folder (src/venues/<venue>/) and one
 * line in src/venues/index.ts. Config, the app's wiring, readiness, metrics, the read models, the OpenAPI document
 * and the per-venue routes all take their venues from that list (docs/ADDING_A_VENUE.md).
 *
 * `C` is the venue's config section (`venues.<id>` of the config), `S` what its secrets check returns, `Id` its id.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface VenueModule<C extends VenueConfigBase = any, S = any, Id extends VenueId = VenueId> {
  /** Lowercase id: the config key (`venues.<id>`), the `platform` value and the `venue` label everywhere. */
  readonly id: Id
  /** How people call the venue (logs, docs). */
  readonly name: string
  readonly config: VenueConfigSpec<C>
  /** The OpenAPI tag of the venue's own routes (named by `id`): the sentence a reader needs to pick it. */
  readonly openApiTag: string
  /** The venue's event record in `GET /api/v2/events/{slug}` (`venues.<id>`), for the OpenAPI document. */
  readonly eventSchema: TSchema
  /**
   * What a spread's `match` says of the venue's leg (`<id>_outcome_id`, `<id>_text` in `/api/v2/spreads`), in the
   * OpenAPI document: `outcomeId`, what its outcome id is (e.g. `market ticker`); `text`, the texts cross-venue
   * matching reads of an outcome, most specific first (e.g. `label, market title, event title`).
   */
  readonly matchTerms: MatchTerms
  /** How the read models name its events and print its markets. */
  readonly view: VenueViewRules
  /**
   * The listings its catalog sync pages through (`CatalogProgress.page`), e.g. `open`, `closed`, `settled`, and
   * `changes` for a venue listed by its changes between whole listings (`fetchChangedEvents`).
   */
  readonly catalogLists: readonly string[]
  /**
   * A sentence for /readyz's `credentials` description when the venue needs an API key (what is missing, what
   * then does not work); absent for a venue whose data is public.
   */
  readonly credentialsNote?: string
  /**
   * Reads and checks the venue's secrets once at boot (never throws: a problem is a warning in the log and a state
   * in /readyz). Absent for a venue that needs none.
   */
  readSecrets?(ctx: VenueBootContext<C>): S
  createAdapter(config: C, ctx: AdapterContext, secrets: S | undefined): VenueAdapter
  /** The venue's own routes and live services, once its actor and the read models exist. */
  serve?(deps: VenueServeDeps<C>): VenueServices
}

export interface MatchTerms {
  readonly outcomeId: string
  readonly text: string
}

/** The part of every venue section the app reads itself (the venue actor's catalog refresh and guard). */
export interface VenueConfigBase {
  readonly catalog: {
    readonly refreshMs: number
    readonly maxEvents: number
    /** A venue whose adapter lists changes (`fetchChangedEvents`): how often a refresh lists it whole. */
    readonly fullListingEveryMs?: number
  }
}

export interface VenueConfigSpec<C> {
  /** `venues.<id>`: TypeBox, with defaults and units, `additionalProperties: false` (src/config/schema.ts). */
  readonly schema: TObject
  /** Environment overrides of the section (e.g. `<VENUE>_REST_URL`); undefined when none is set. */
  fromEnv(env: Readonly<Record<string, string | undefined>>): Record<string, unknown> | undefined
  /** The section with the in-process simulator's peer of this venue; absent: the venue has no simulated peer. */
  atSimulator?(config: C, simulator: Simulator): C
  /** Where the venue's data is read from, for the data source description of an external simulator. */
  describe(config: C): string
}

export interface VenueBootContext<C> {
  readonly config: C
  /** The in-process simulator in sim mode (its peers hold their own keys). */
  readonly simulator: Simulator | undefined
  readonly log: Logger
}

export interface VenueServeDeps<C> {
  readonly config: C
  readonly actor: VenueActor
  readonly models: ReadModels
  readonly clock: Clock
  readonly log: Logger
}

export interface VenueServices {
  readonly routes: readonly AnyRoute[]
  /** Upstream hosts the venue's live reads call (metrics `predmkt_upstream_*`, labelled by host). */
  readonly upstreams?: () => readonly UpstreamStats[]
}

export type { CredentialState }

/** A venue's section of a validated config. */
export function venueConfig<C extends VenueConfigBase>(config: { readonly venues: object }, venue: VenueModule<C>): C {
  return (config.venues as Record<string, C>)[venue.id] as C
}
