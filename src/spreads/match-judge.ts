import type { Outcome } from '../model/types.js'
import type { Features } from './match-features.js'
import type { MatchingStrategy, MatchQuality, OutcomePair } from './matcher.js'

/**
 * The gates a candidate pair must pass and the score of one that does (strategy and quality as in spec 2.7).
 * Precision matters more than recall: a false match is a phantom arbitrage, so every gate can only reject.
 */

/** Same question, end times may differ by a few hours across venues (noon ET vs end of day). */
export const MAX_END_GAP_MS = 20 * 3_600_000
const TITLE_SIMILARITY_HIGH = 0.45
const TITLE_SIMILARITY_MEDIUM = 0.3
/** Below this title similarity no strategy accepts a pair. */
export const MIN_SIMILARITY = 0.15

export interface Verdict {
  readonly score: number
  readonly strategy: MatchingStrategy
  readonly quality: MatchQuality
  readonly outcomes: OutcomePair[]
}

function titleSimilarity(a: Features, b: Features, idf: ReadonlyMap<string, number>): number {
  let common = 0
  for (const t of a.text.tokens) if (b.text.tokens.has(t)) common += idf.get(t) ?? 0
  const smaller = Math.min(a.weight, b.weight)
  return smaller <= 0 ? 0 : common / smaller
}

function datesAgree(p: Features, k: Features): boolean {
  if (p.end === undefined || k.end === undefined || Math.abs(p.end - k.end) > MAX_END_GAP_MS) return false
  // Explicit dates are the most specific signal: "by Dec 31, 2026" and "before Jan 1, 2027" agree (a day apart)
  // even though their years differ, so when both titles carry dates they decide alone.
  if (p.text.dates.length > 0 && k.text.dates.length > 0) return p.text.dates.some((d) => k.text.dates.some((e) => Math.abs(Date.parse(d) - Date.parse(e)) <= 86_400_000))
  if (p.text.years.length > 0 && k.text.years.length > 0 && !p.text.years.some((y) => k.text.years.includes(y))) return false
  if (p.text.months.length > 0 && k.text.months.length > 0 && !p.text.months.some((m) => k.text.months.includes(m))) return false
  return true
}

/** Words rarer than this (IDF) carry the question's content, not its phrasing. */
const INFORMATIVE_IDF = 2

function bothAddInformation(p: Features, k: Features, idf: ReadonlyMap<string, number>): boolean {
  const adds = (a: Features, b: Features) => [...a.text.tokens].some((t) => !b.text.tokens.has(t) && (idf.get(t) ?? 0) >= INFORMATIVE_IDF)
  return adds(p, k) && adds(k, p)
}

/** Each title names something the other does not: different subjects (cities, countries, people). */
function entitiesConflict(p: Features, k: Features): boolean {
  let pOnly = false
  let kOnly = false
  for (const e of p.text.entities) if (!k.text.entities.has(e)) pOnly = true
  for (const e of k.text.entities) if (!p.text.entities.has(e)) kOnly = true
  return pOnly && kOnly
}

/** The gates cheapest first: most candidates of a busy day fail on end time, names or title similarity. */
export function judge(p: Features, k: Features, idf: ReadonlyMap<string, number>): Verdict | undefined {
  if (p.yesNo !== k.yesNo) return undefined
  if (!datesAgree(p, k) || entitiesConflict(p, k)) return undefined
  const similarity = titleSimilarity(p, k, idf)
  if (similarity < (p.yesNo ? TITLE_SIMILARITY_MEDIUM : MIN_SIMILARITY)) return undefined
  const outcomes = pairOutcomes(p, k)
  const closeness = 1 - Math.abs((p.end as number) - (k.end as number)) / MAX_END_GAP_MS
  if (p.yesNo) {
    if (outcomes.length !== 1) return undefined
    // A yes/no question is its whole title: sharing a subject is not enough when each side also asks about
    // something specific the other does not mention (a recession vs leaving office in the same country).
    if (bothAddInformation(p, k, idf)) return undefined
    if (similarity >= TITLE_SIMILARITY_HIGH) return { score: 2 + similarity + closeness * 0.1, strategy: 'auto_canonical', quality: 'auto_high', outcomes }
    return { score: 1 + similarity + closeness * 0.1, strategy: 'normalized_title_fallback', quality: 'auto_medium', outcomes }
  }
  // Multi-outcome: at least two outcomes must pair, covering most of the smaller side, and nothing may contradict.
  const smaller = Math.min(p.outcomes.length, k.outcomes.length)
  if (outcomes.length < 2 || outcomes.length < Math.ceil(smaller * 0.6)) return undefined
  const coverage = outcomes.length / smaller
  return { score: 3 + coverage + similarity + closeness * 0.1, strategy: 'event_key', quality: 'auto_high', outcomes }
}

/**
 * Pairs outcomes of two events. A yes/no question pairs its YES outcome with the other side's single market;
 * otherwise outcomes pair by identical normalized labels, else by identical number sets (thresholds and
 * brackets written differently: "$100,000" and "$100,000 or above"). Ambiguous keys pair nothing.
 */
export function pairOutcomes(p: Features, k: Features): OutcomePair[] {
  if (p.yesNo && k.yesNo) {
    const yes = p.outcomes.find((o) => o.title.toLowerCase() === 'yes') ?? (p.outcomes.length === 1 ? p.outcomes[0] : undefined)
    const kYes = k.outcomes.length === 1 ? k.outcomes[0] : k.outcomes.find((o) => o.title.toLowerCase() === 'yes')
    return yes === undefined || kYes === undefined ? [] : [{ venuep: yes, venuek: kYes, outcomeKey: `text:${yes.title.toLowerCase()}` }]
  }
  const pairs: OutcomePair[] = []
  const usedK = new Set<Outcome>()
  for (let i = 0; i < p.outcomes.length; i++) {
    const o = p.outcomes[i] as Outcome
    const key = p.outcomeKeys[i] as (typeof p.outcomeKeys)[number]
    let match = key.label.length > 0 && p.byLabel.get(key.label) === o ? k.byLabel.get(key.label) : undefined
    if (match === undefined && key.numbers.length > 0 && p.byNumbers.get(key.numbers) === o) match = k.byNumbers.get(key.numbers)
    if (match === undefined || usedK.has(match)) continue
    usedK.add(match)
    pairs.push({ venuep: o, venuek: match, outcomeKey: `text:${o.title.toLowerCase()}` })
  }
  return pairs
}
