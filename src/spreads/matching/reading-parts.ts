import type { ContestFacts, Participant } from './contest.js'
import { hasFacts, NO_PERIOD, type PeriodFacts } from './periods.js'
import type { Evidence } from './match-types.js'
import type { Interval } from './strikes.js'

/**
 * Equal parts of readings held once (hash-consing). Contracts of one family say the same things: every rung of a
 * ladder states the same words, requires the same ones and is decided on the same day, and the two sides of a game
 * name the same two teams. Read one contract at a time, each held its own copies. At 30,000 simulated questions
 * (88,497 contracts) the held word lists had 11–27k distinct contents among 88k arrays each, the period keys 637,
 * the periods 1,309 among 60k objects, the facts strings 58k (share-probe of 2026-12-07, docs/SCALE.md).
 *
 * Everything handed out is shared by every contract with equal content, so it must never be changed (the reading's
 * types are readonly; not frozen: the judge's loops over frozen arrays measured 17–40% slower in
 * `npm run matcher:cost`). Pooled for one update of the matcher and cleared with the spec cache after it (`clear`): the
 * parts already held stay shared, and a later update's new contracts share among themselves.
 */
export class ReadingParts {
  #lists = new Map<string, readonly string[]>()
  #periods = new Map<string, PeriodFacts>()
  #intervals = new Map<string, Interval>()
  #participants = new Map<string, readonly [Participant, Participant]>()
  #texts = new Map<string, string>()

  clear(): void {
    this.#texts = new Map()
    this.#lists = new Map()
    this.#periods = new Map()
    this.#intervals = new Map()
    this.#participants = new Map()
  }

  /** One string object for equal strings built apart (a contract's facts: its day, strike, sides, code). */
  text(s: string): string {
    const held = this.#texts.get(s)
    if (held !== undefined) return held
    this.#texts.set(s, s)
    return s
  }

  /**
   * A list of exactly its length equal to `list` (the shared empty list for none). Its items are normalized words,
   * codes or day keys: none holds the separator the key joins them with.
   */
  list<T extends string>(list: readonly T[]): readonly T[] {
    if (list.length === 0) return NONE
    const key = list.join('\u0001')
    let held = this.#lists.get(key)
    if (held === undefined) this.#lists.set(key, (held = list.slice()))
    return held as readonly T[]
  }

  period(f: PeriodFacts): PeriodFacts {
    if (!hasFacts(f)) return NO_PERIOD
    const key = `${f.deadlines.join()}|${f.days.join()}|${f.instants.join()}|${f.months.join()}|${f.years.join()}|${f.opaque.join('\u0001')}`
    let held = this.#periods.get(key)
    if (held === undefined) this.#periods.set(key, (held = f))
    return held
  }

  interval(i: Interval | undefined): Interval | undefined {
    if (i === undefined) return undefined
    const key = `${i.lo}|${i.loClosed}|${i.hi}|${i.hiClosed}|${i.unit}`
    let held = this.#intervals.get(key)
    if (held === undefined) this.#intervals.set(key, (held = i))
    return held
  }

  /**
   * An accepted pair's evidence with its words and phrases shared: a ladder's pairs state the same subject and period
   * rung after rung, and a pair keeps its evidence as long as both contracts are listed.
   */
  evidence(e: Evidence): Evidence {
    // Field by field, not spread (contract.ts SpecCache.spec says why).
    return {
      kind: e.kind,
      // Free text (outcome titles): its strings are pooled, not the list (`list` keys by a separator words never hold).
      compared: e.compared.map((c) => this.text(c)),
      shared: this.list(e.shared),
      implicit: this.list(e.implicit),
      period: this.text(e.period),
      strike: e.strike === undefined ? undefined : this.text(e.strike),
    }
  }

  /** The facts with their participants (and residual words) shared with every contest naming the same two. */
  contest(c: ContestFacts | undefined): ContestFacts | undefined {
    if (c === undefined) return undefined
    const [p, q] = c.participants
    // Names are the venue's text, which may hold any character: keyed by JSON, not joined.
    const key = JSON.stringify([p.name, p.codes, q.name, q.codes])
    let participants = this.#participants.get(key)
    if (participants === undefined) {
      const shared = (x: Participant): Participant => ({ name: x.name, key: x.key, codes: this.list(x.codes) })
      this.#participants.set(key, (participants = Object.freeze([shared(p), shared(q)] as const)))
    }
    // Field by field, not spread (contract.ts SpecCache.spec says why).
    return {
      participants,
      kind: c.kind,
      side: c.side,
      over: c.over,
      line: c.line,
      score: c.score,
      segment: c.segment,
      discipline: c.discipline,
      day: c.day,
      dayNumber: c.dayNumber,
      minutes: c.minutes,
      residual: this.list(c.residual),
    }
  }
}

/** The shared empty list (frozen): a reading holds no empty array of its own (one per contract at real size). */
export const NONE: readonly never[] = Object.freeze([])
