import type { Steps } from '../core/slices.js'
import type { CatalogEvent, Outcome } from '../model/types.js'
import { datesIn, entities, labelKey, monthsIn, numbersIn, titleTokens, yearsIn } from './normalize.js'

/**
 * What the matcher compares about an event: its title's tokens, names, dates; its outcomes' comparison keys.
 * Deriving them is most of a matcher run's cost (regular expressions over every title and label), and between
 * two catalog refreshes almost every title and label is unchanged, so `FeatureCache` keeps them by text.
 */
export interface TitleFeatures {
  readonly tokens: ReadonlySet<string>
  /** Names in the title (capitalized words), and their set as one key and the keys of its proper subsets. */
  readonly entities: ReadonlySet<string>
  readonly names: readonly string[]
  readonly nameKey: string
  /** Undefined when the title names more than MAX_NAMES_FOR_SUBSETS things (the matcher then falls back). */
  readonly nameSubsetKeys: readonly string[] | undefined
  readonly dates: readonly string[]
  readonly months: readonly string[]
  readonly years: readonly string[]
}

export interface OutcomeKey {
  readonly label: string
  readonly numbers: string
}

export interface Features {
  /** Shared by every event with the same title and subtitle (cached across runs). */
  readonly text: TitleFeatures
  readonly event: CatalogEvent
  readonly end: number | undefined
  readonly outcomes: readonly Outcome[]
  /** Each outcome's comparison keys (same order as `outcomes`), and the keys only one outcome has. */
  readonly outcomeKeys: readonly OutcomeKey[]
  readonly byLabel: ReadonlyMap<string, Outcome>
  readonly byNumbers: ReadonlyMap<string, Outcome>
  /** A binary yes/no question (one YES outcome to compare). */
  readonly yesNo: boolean
  /** Total IDF weight of the title tokens (set once the IDF is known). */
  weight: number
}

/** Subset enumeration is 2^n lookups: beyond this many names a title uses the plain name lists. */
export const MAX_NAMES_FOR_SUBSETS = 6

/**
 * Derived features by text, kept across matcher runs. Each run starts a generation; entries not used during it
 * are dropped when the next one starts, so the cache holds about one catalog's worth.
 */
export class FeatureCache {
  #titles = new Map<string, TitleFeatures>()
  #outcomes = new Map<string, OutcomeKey>()
  #previousTitles = new Map<string, TitleFeatures>()
  #previousOutcomes = new Map<string, OutcomeKey>()

  nextGeneration(): void {
    this.#previousTitles = this.#titles
    this.#previousOutcomes = this.#outcomes
    this.#titles = new Map()
    this.#outcomes = new Map()
  }

  title(title: string, subtitle: string | undefined): TitleFeatures {
    const key = subtitle === undefined ? title : `${title}\u0000${subtitle}`
    return reuse(this.#titles, this.#previousTitles, key, () => titleFeatures(title, subtitle))
  }

  outcome(o: Outcome): OutcomeKey {
    const key = o.strike === undefined ? o.title : `${o.title}\u0000${o.strike.floor}\u0000${o.strike.cap}`
    return reuse(this.#outcomes, this.#previousOutcomes, key, () => outcomeKey(o))
  }
}

function reuse<V>(current: Map<string, V>, previous: Map<string, V>, key: string, derive: () => V): V {
  let v = current.get(key)
  if (v === undefined) {
    v = previous.get(key) ?? derive()
    current.set(key, v)
  }
  return v
}

export function features(e: CatalogEvent, cache: FeatureCache): Features {
  const text = cache.title(e.title, e.subtitle)
  const outcomes = e.markets.flatMap((m) => m.outcomes)
  const outcomeKeys = outcomes.map((o) => cache.outcome(o))
  const labels = outcomes.map((o) => o.title.toLowerCase())
  const yesNo = outcomes.length === 1 || (outcomes.length === 2 && labels.includes('yes') && labels.includes('no'))
  return {
    text,
    event: e,
    end: e.endTime,
    outcomes,
    yesNo,
    outcomeKeys,
    byLabel: unambiguous(outcomes, outcomeKeys, (k) => k.label),
    byNumbers: unambiguous(outcomes, outcomeKeys, (k) => k.numbers),
    weight: 0,
  }
}

function titleFeatures(title: string, subtitle: string | undefined): TitleFeatures {
  const text = `${title} ${subtitle ?? ''}`
  const names = entities(title)
  const list = [...names]
  return {
    tokens: new Set(titleTokens(title)),
    entities: names,
    names: list,
    nameKey: nameSetKey(list),
    nameSubsetKeys: list.length > 0 && list.length <= MAX_NAMES_FOR_SUBSETS ? nameSubsets(list) : undefined,
    dates: datesIn(text),
    months: monthsIn(text),
    years: yearsIn(text),
  }
}

function outcomeKey(o: Outcome): OutcomeKey {
  const strike = o.strike
  const fromStrike = strike === undefined ? [] : [strike.floor, strike.cap].filter((x): x is number => x !== undefined)
  const nums = numbersIn(o.title)
  // venuek strikes are authoritative; venuep carries thresholds only in its labels.
  const numbers = (fromStrike.length > 0 ? fromStrike : nums).map((n) => String(n)).sort().join(',')
  return { label: labelKey(o.title), numbers }
}

/** Key → outcome, leaving out keys shared by several outcomes of the same event. */
function unambiguous(outcomes: readonly Outcome[], keys: readonly OutcomeKey[], keyOf: (k: OutcomeKey) => string): Map<string, Outcome> {
  const out = new Map<string, Outcome>()
  const dup = new Set<string>()
  for (let i = 0; i < outcomes.length; i++) {
    const o = outcomes[i] as Outcome
    const k = keyOf(keys[i] as OutcomeKey)
    if (k.length === 0) continue
    if (out.has(k)) dup.add(k)
    else out.set(k, o)
  }
  for (const k of dup) out.delete(k)
  return out
}

export function nameSetKey(names: Iterable<string>): string {
  return [...names].sort().join('\u0001')
}

/** Keys of every proper subset of `names`, the empty set included. */
function nameSubsets(names: readonly string[]): string[] {
  const out: string[] = []
  const full = (1 << names.length) - 1
  for (let mask = 0; mask < full; mask++) out.push(nameSetKey(names.filter((_, i) => (mask & (1 << i)) !== 0)))
  return out
}

/** Token → inverse document frequency over all titles, as steps (~0.1 s of CPU over 40,000 titles). */
export function* inverseDocumentFrequencySteps(all: readonly Features[]): Steps<Map<string, number>> {
  const df = new Map<string, number>()
  for (let i = 0; i < all.length; i++) {
    for (const t of (all[i] as Features).text.tokens) df.set(t, (df.get(t) ?? 0) + 1)
    if (i % 256 === 255) yield
  }
  const n = all.length
  const idf = new Map<string, number>()
  let k = 0
  for (const [t, d] of df) {
    idf.set(t, Math.log((n + 1) / (d + 0.5)))
    if (++k % 1024 === 0) yield
  }
  return idf
}

export function weigh(f: Features, idf: ReadonlyMap<string, number>): void {
  let w = 0
  for (const t of f.text.tokens) w += idf.get(t) ?? 0
  f.weight = w
}
