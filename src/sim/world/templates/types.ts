import type { Rng } from '../random.js'
import type { TickersCategory } from '../shapes/labels.js'
import type { TickersDates } from '../shapes/venue-dates.js'
import type { Category, FairModel, Lifecycle, QuestionKind, StrikeType, EventTag } from '../types.js'

/**
 * A template words and lists each question in two listing styles, the two ways the real catalogs differ; a venue's
 * peer folder lists the style it speaks (src/sim/<venue>/listing.ts reads its part of the spec):
 *
 * - `slugs`: events with slugs and question titles ("Will X happen by June 30, 2026?"), several tags, grouped
 *   markets (one per outcome, titled or not), strikes in words ("↑ $120,000"), an expected-resolution end date;
 * - `tickers`: series, event and market tickers, one category, short subtitles ("Before Jul 1, 2026"), strikes as
 *   a `strike_type` with floor and cap, a close time that is the latest trading can stop.
 *
 * Which contracts each style lists differs too (`onSlugs`, `onTickers`): candidates, strikes and deadlines overlap.
 */
export interface ContractSpec {
  readonly label: string
  readonly threshold?: number
  /** Which venues list this contract (ladders list overlapping subsets, candidate lists differ). */
  readonly onSlugs: boolean
  readonly onTickers: boolean
  readonly slugsLabel: string
  readonly tickersLabel: string
  readonly tickersSuffix: string
  readonly floor?: number
  readonly cap?: number
  /** The ticker style's `strike_type` of this market when it is not the event's. */
  readonly strikeType?: StrikeType
  /** An inactive slug-style placeholder child ("Person K"): `active: false`, no orders, never in the ticker style. */
  readonly placeholder?: boolean
  /** The contract (index) this one imitates on the other venue though it differs (≥ vs >, a day apart). */
  readonly lookalikeOf?: number
  /** What differs from `lookalikeOf`, for the ground truth's hard negatives. */
  readonly lookalikeReason?: string
  /** The ticker style's `close_time` of this market when it is not the event's (a deadline ladder's markets close apart). */
  readonly tickersCloseTime?: number
  /**
   * The slug style's `endDate` of this market when it is not the event's (a deadline group's child; a match's map,
   * which ends before the match does).
   */
  readonly slugsEndDate?: number
}

/** How the slug style lists a question's contracts. */
export type SlugsLayout =
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
  /** Two-contract head-to-head: contract 1 is the complement of contract 0 (one slug-style market, two outcomes). */
  readonly complementary: boolean
  /**
   * What sets this question apart from the other questions of its occasion (`Template.siblings`): "map 2 winner",
   * "map handicap", "10am ET". The hard negatives between siblings give both as their reason ("map 1 winner vs map 2
   * winner", as the real labels state it).
   */
  readonly facet?: string
  readonly contracts: readonly ContractSpec[]
  readonly slugs: {
    readonly title: string
    readonly slug: string
    readonly description: string
    readonly negRisk: boolean
    /** Outcome labels of a single binary market; undefined for grouped and split listings. */
    readonly outcomes: readonly [string, string] | undefined
    readonly marketQuestion: (contractIndex: number) => string
    readonly groupItemTitle: ((contractIndex: number) => string) | undefined
    /** Default 'grouped' (ignored when `outcomes` is set). */
    readonly layout?: SlugsLayout
    /** Default 'title'. */
    readonly groupTitles?: GroupTitles
    /** The event's `endDate` (the expected resolution); default the question's end. */
    readonly endDate?: number
    /** Default: tags drawn for the category (shapes/labels.ts). */
    readonly tags?: readonly EventTag[]
    /**
     * Inactive placeholder children the venue may list ("Person K", "Party A"): their noun and how a child is
     * asked about (shapes/placeholders.ts adds them to some events).
     */
    readonly placeholders?: { readonly noun: string; readonly question: (label: string) => string }
    /**
     * Questions whose specs name the same key list their markets in one event: a match's maps and handicaps are
     * separate questions, and the slug style lists them in one event per match (the first question listed creates
     * it). Undefined: an event of the question's own.
     */
    readonly eventKey?: string
    /**
     * A market's own slug when it is not derived from its question (grouped, split) or the event's slug (a single
     * market): the real hourly ladders put the year in the slug but not in the question, a match's maps are
     * `<event>-game2`.
     */
    readonly marketSlug?: (contractIndex: number) => string
  }
  readonly tickers: {
    readonly seriesTicker: string
    readonly seriesTitle: string
    readonly seriesCategory: TickersCategory
    readonly frequency: string
    readonly eventTicker: string
    readonly title: string
    readonly subTitle: string
    readonly mutuallyExclusive: boolean
    readonly strikeType: StrikeType
    readonly marketTitle: (contractIndex: number) => string
    /** Default: closes at the question's end (a recurring short-dated series, shapes/venue-dates.ts). */
    readonly dates?: TickersDates
    /**
     * Questions whose specs name the same key list their markets in one event (a tournament's "Top 10" event has a
     * market per player, each player's finish a question of its own); the first question listed creates it.
     */
    readonly eventKey?: string
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
  /**
   * The other questions of the same occasion, planned right after this one: the next hours of an hourly ladder, a
   * match's other maps and its handicaps. Each is a question of its own (contracts, fair model, `facet`), ending
   * when its spec says, with this question's lifecycle and listed where this one is, on the venues whose style lists
   * any of its contracts (a handicap only in the slug style). Alike contracts (the same label) of two siblings are
   * hard negatives: real venues list every hour and every map, so the matcher must tell them apart.
   */
  siblings?(params: P, endTime: number, rng: Rng, ctx: BuildContext): readonly QuestionSpec[]
  /**
   * What the question takes up for its day: a team plays one game a day (a tournament's two meetings of the same
   * pair aside, which the world leaves out). Planning skips a draw whose teams already play that day, so no two
   * questions are the same matchup on one day under different spellings, and no team meets two opponents at once.
   */
  occupies?(params: P, endTime: number): readonly string[]
}
