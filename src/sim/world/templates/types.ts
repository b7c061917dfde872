import type { Rng } from '../random.js'
import type { VenuekCategory } from '../shapes/labels.js'
import type { VenuekDates } from '../shapes/venue-dates.js'
import type { Category, FairModel, Lifecycle, QuestionKind, VkStrikeType, VpTag } from '../types.js'

export interface ContractSpec {
  readonly label: string
  readonly threshold?: number
  /** Which venues list this contract (ladders list overlapping subsets, candidate lists differ). */
  readonly onVenuep: boolean
  readonly onVenuek: boolean
  readonly venuepLabel: string
  readonly venuekLabel: string
  readonly venuekSuffix: string
  readonly floor?: number
  readonly cap?: number
  /** venuek `strike_type` of this market when it is not the event's. */
  readonly strikeType?: VkStrikeType
  /** An inactive venuep placeholder child ("Person K"): `active: false`, no orders, never on venuek. */
  readonly placeholder?: boolean
  /** The contract (index) this one imitates on the other venue though it differs (≥ vs >, a day apart). */
  readonly lookalikeOf?: number
  /** What differs from `lookalikeOf`, for the ground truth's hard negatives. */
  readonly lookalikeReason?: string
  /** venuek `close_time` of this market when it is not the event's (a deadline ladder's markets close apart). */
  readonly venuekCloseTime?: number
  /** venuep `endDate` of this market when it is not the event's. */
  readonly venuepEndDate?: number
}

/** How venuep lists a question's contracts. */
export type VenuepLayout =
  /** One event, one market per contract (a neg-risk group or a ladder). */
  | 'grouped'
  /** One single-market event per contract ("Will X happen by June 30, 2026?" beside "… by December 31, 2026?"). */
  | 'split'

/** A group child's `groupItemTitle`: the label, `""`, or no field (the name is then only in the question). */
export type GroupTitles = 'title' | 'empty' | 'absent'

export interface QuestionSpec {
  readonly templateId: string
  /** Identifies the subject and date: two specs with the same key are the same question. */
  readonly key: string
  readonly category: Category
  readonly kind: QuestionKind
  readonly subject: string
  readonly endTime: number
  readonly model: FairModel
  /** Two-contract head-to-head: contract 1 is the complement of contract 0 (one venuep market, two outcomes). */
  readonly complementary: boolean
  readonly contracts: readonly ContractSpec[]
  readonly venuep: {
    readonly title: string
    readonly slug: string
    readonly description: string
    readonly negRisk: boolean
    /** Outcome labels of a single binary market; undefined for grouped and split listings. */
    readonly outcomes: readonly [string, string] | undefined
    readonly marketQuestion: (contractIndex: number) => string
    readonly groupItemTitle: ((contractIndex: number) => string) | undefined
    /** Default 'grouped' (ignored when `outcomes` is set). */
    readonly layout?: VenuepLayout
    /** Default 'title'. */
    readonly groupTitles?: GroupTitles
    /** The event's `endDate` (the expected resolution); default the question's end. */
    readonly endDate?: number
    /** Default: tags drawn for the category (shapes/labels.ts). */
    readonly tags?: readonly VpTag[]
    /**
     * Inactive placeholder children the venue may list ("Person K", "Party A"): their noun and how a child is
     * asked about (shapes/placeholders.ts adds them to some events).
     */
    readonly placeholders?: { readonly noun: string; readonly question: (label: string) => string }
  }
  readonly venuek: {
    readonly seriesTicker: string
    readonly seriesTitle: string
    readonly seriesCategory: VenuekCategory
    readonly frequency: string
    readonly eventTicker: string
    readonly title: string
    readonly subTitle: string
    readonly mutuallyExclusive: boolean
    readonly strikeType: VkStrikeType
    readonly marketTitle: (contractIndex: number) => string
    /** Default: closes at the question's end (a recurring short-dated series, shapes/venue-dates.ts). */
    readonly dates?: VenuekDates
  }
}

/** What a template may know about the question it builds. */
export interface BuildContext {
  readonly lifecycle: Lifecycle
  /** When the question opened. */
  readonly createdAt: number
}

/** A look-alike of a question that is a different question, and what differs. */
export interface DecoySpec {
  readonly spec: QuestionSpec
  readonly reason: string
}

export interface Template<P> {
  readonly id: string
  readonly category: Category
  /** Relative frequency in the world. */
  readonly weight: number
  pick(rng: Rng): P
  /** Days from now to the end date for an active question (min, max). */
  readonly horizonDays: readonly [number, number]
  /** How far a decoy's date moves (days). */
  readonly decoyShiftDays: number
  /**
   * The key `build` gives its spec, computed cheaply: planning checks it first and skips a subject and date already
   * planned without building it (a large world draws many).
   */
  key(params: P, endTime: number, ctx: BuildContext): string
  build(params: P, endTime: number, rng: Rng, ctx: BuildContext): QuestionSpec
  /**
   * A look-alike that is not another date of the same question: the nominee instead of the winner, another
   * country, another team, "announce" instead of "nominate". Without it (or when it returns undefined) a decoy is
   * the same question at another date.
   */
  decoy?(params: P, endTime: number, rng: Rng, ctx: BuildContext): DecoySpec | undefined
}
