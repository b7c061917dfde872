import { venueFair, type DislocationLog } from './fair.js'
import type { QuestionSpec } from './templates/types.js'
import type { Contract, GroundTruth, Lifecycle, Question, SimVenue } from './types.js'

/**
 * The world's state: its questions, how the venues list them, their books, trades and wallets. Built by
 * generate.ts (a seeded synthetic world) or replay.ts (captured catalogs); the venue peers serve it and the engine
 * (engine.ts) moves it. Its own module so that the builders' parts can use the type without importing a builder.
 */
export interface WorldOptions {
  readonly seed: number
  /** Canonical questions to generate (each listed on one or both venues). */
  readonly questions: number
  /**
   * The world's "now" at generation: its history and books are laid out around it, and a question whose end it has
   * passed is closed or resolved (calendar.ts). Identifiers and titles do not depend on it, nor an open question's
   * dates (an ended one's venues show its end as their close, as for any ended question).
   */
  readonly anchorMs: number
  /**
   * The instant the questions are laid out around (calendar.ts); default `WORLD_CALENDAR_MS`. Identifiers, titles
   * and the questions' own dates are a function of the seed, the sizes and this.
   */
  readonly calendarMs?: number
  readonly wallets: number
  /** Book levels per side. */
  readonly bookDepth: number
  /** Share of questions listed on both venues. */
  readonly shareBoth: number
  /** Share of questions that get a look-alike decoy on one venue. */
  readonly decoyRate: number
  /**
   * Per venue id, the ladder events that venue lists alone, added after the questions by its peer (peer.ts
   * `addOwnListings`, e.g. src/sim/<venue>/ladders.ts): what makes a real catalog much larger than another's. None
   * (or 0) adds none and leaves the world as it was.
   */
  readonly ownLadders?: Readonly<Record<string, number>>
}

export const DEFAULT_WORLD_OPTIONS: Omit<WorldOptions, 'anchorMs'> = {
  seed: 42,
  questions: 2400,
  wallets: 400,
  bookDepth: 12,
  shareBoth: 0.45,
  decoyRate: 0.1,
}

export class World {
  readonly options: WorldOptions
  readonly questions: Question[] = []
  readonly questionsById = new Map<string, Question>()
  readonly dislocations: DislocationLog = new Map()
  truth!: GroundTruth
  /**
   * The first instant the world's prices have a history. A generated world lays out its past; a replay knows one
   * captured price per market, so its price history starts when the replay does.
   */
  historyStartMs = Number.NEGATIVE_INFINITY
  /** The directory of captured catalogs a replayed world serves (undefined for a generated world). */
  replayOf: string | undefined = undefined

  /**
   * Each venue's part of the world (how it lists the questions, its books, trades and wallets), under its venue id.
   * Its shape is the peer folder's (src/sim/<venue>/state.ts), which reads it through `venueState`.
   */
  readonly #venues = new Map<string, object>()

  constructor(options: WorldOptions) {
    this.options = options
  }

  /** `venue`'s part of the world, made by `create` the first time it is asked for. */
  venueState<T extends object>(venue: string, create: () => T): T {
    let state = this.#venues.get(venue)
    if (state === undefined) {
      state = create()
      this.#venues.set(venue, state)
    }
    return state as T
  }

  get anchorMs(): number {
    return this.options.anchorMs
  }

  /** The instant the questions were laid out around (calendar.ts); the anchor for a replay, which lays out nothing. */
  get calendarMs(): number {
    return this.options.calendarMs ?? this.options.anchorMs
  }

  /** YES fair value a venue quotes around for a listed contract. */
  venueFair(contract: Contract, venue: SimVenue, t: number): number {
    const q = this.questionsById.get(contract.questionId) as Question
    return venueFair(q, contract.index, venue, t, this.dislocations)
  }
}

export interface PlannedQuestion {
  readonly id: string
  readonly seed: number
  readonly spec: QuestionSpec
  readonly lifecycle: Lifecycle
  readonly createdAt: number
  readonly resolvedAt: number | undefined
  /**
   * Which venues list it, by position in the sim list (peers.ts): the world pairs the first two, and lists each
   * question on one of them or on both.
   */
  readonly listedOn: readonly [first: boolean, second: boolean]
  readonly decoyOf: string | undefined
  /** What makes a decoy differ from the question it imitates. */
  readonly decoyReason: string | undefined
  /**
   * The id of the first question of this one's occasion (`Template.siblings`: an hourly ladder's hours, a match's
   * maps), that question's own id included; undefined for a question without siblings.
   */
  readonly groupOf: string | undefined
}
