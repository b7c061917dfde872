import type { Rng } from '../random.js'
import type { Category, FairModel, QuestionKind } from '../types.js'

export interface ContractSpec {
  readonly label: string
  readonly threshold?: number
  /** Which venues list this contract (ladders list overlapping subsets). */
  readonly onVenuep: boolean
  readonly onVenuek: boolean
  readonly venuepLabel: string
  readonly venuekLabel: string
  readonly venuekSuffix: string
  readonly floor?: number
  readonly cap?: number
}

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
    /** Outcome labels of a single binary market; undefined for grouped events. */
    readonly outcomes: readonly [string, string] | undefined
    readonly marketQuestion: (contractIndex: number) => string
    readonly groupItemTitle: ((contractIndex: number) => string) | undefined
  }
  readonly venuek: {
    readonly seriesTicker: string
    readonly seriesTitle: string
    readonly seriesCategory: string
    readonly frequency: string
    readonly eventTicker: string
    readonly title: string
    readonly subTitle: string
    readonly mutuallyExclusive: boolean
    readonly strikeType: 'greater' | 'between' | 'custom' | 'structured'
    readonly marketTitle: (contractIndex: number) => string
  }
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
  build(params: P, endTime: number, rng: Rng): QuestionSpec
}
