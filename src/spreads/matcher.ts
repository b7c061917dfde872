import type { CatalogSnapshot } from '../actors/catalog-snapshot.js'
import { sortSteps } from '../core/array-steps.js'
import { runToEnd, type Steps } from '../core/slices.js'
import type { Outcome } from '../model/types.js'
import { features, FeatureCache, inverseDocumentFrequencySteps, weigh, type Features } from './match-features.js'
import { judge, pairOutcomes, type Verdict } from './match-judge.js'

/**
 * Finds the same event and the same outcomes on both venues. Precision matters more than recall: a false match
 * is a phantom arbitrage, so every automatic match must pass hard gates before it is scored:
 * - the events end within `MAX_END_GAP_MS` of each other, and dates, months or years written in both titles
 *   agree (look-alike questions for another date fail here);
 * - their outcomes agree: the same labels after normalization, or the same numbers (thresholds, brackets) —
 *   a ladder with other thresholds fails here.
 * Strategies and qualities (spec 2.7):
 * - `manual_override` / `manual`: a mapping from config or the store;
 * - `event_key` / `auto_high`: multi-outcome events whose outcome sets agree (two or more outcomes paired);
 * - `auto_canonical` / `auto_high`: single binary questions (yes/no or a two-sided game) whose title entities
 *   agree strongly;
 * - `normalized_title_fallback` / `auto_medium`: binary questions whose titles agree less strongly but pass the
 *   gates.
 * Each event is matched at most once (best score first).
 *
 * Layout: features (match-features.ts) → candidates (blocking, here) → gates and score (match-judge.ts).
 * `matchEventsSteps` is the same computation cut into slices for the event loop (src/core/slices.ts).
 */
export type MatchingStrategy = 'auto_canonical' | 'manual_override' | 'normalized_title_fallback' | 'event_key'
export type MatchQuality = 'manual' | 'auto_high' | 'auto_medium'

export interface OutcomePair {
  readonly venuep: Outcome
  readonly venuek: Outcome
  /** `text:<venuep outcome title, lowercased>` (spec 4.3). */
  readonly outcomeKey: string
}

export interface EventMatch {
  readonly venuepEventId: string
  readonly venuekEventId: string
  readonly strategy: MatchingStrategy
  readonly quality: MatchQuality
  readonly score: number
  readonly outcomes: readonly OutcomePair[]
}

/** A manual mapping: the two events, and optionally which outcomes pair (default: paired by label). */
export interface ManualMatch {
  readonly venuepEventId: string
  readonly venuekEventId: string
  readonly outcomes?: readonly { readonly venuepOutcomeId: string; readonly venuekOutcomeId: string }[]
}

const DAY_MS = 86_400_000
/** Tokens at or under this IDF (in more than ~a third of all titles) are not indexed for blocking. */
const INDEXED_IDF = 1
/** Items between two slice checkpoints. */
const CHECKPOINT_EVERY = 16
/** Candidate judgements between two slice checkpoints (a busy title can have hundreds of candidates). */
const JUDGED_PER_CHECKPOINT = 256

export function matchEvents(venuep: CatalogSnapshot | undefined, venuek: CatalogSnapshot | undefined, manual: readonly ManualMatch[] = [], cache = new FeatureCache()): EventMatch[] {
  return runToEnd(matchEventsSteps(venuep, venuek, manual, cache))
}

export function* matchEventsSteps(
  venuep: CatalogSnapshot | undefined,
  venuek: CatalogSnapshot | undefined,
  manual: readonly ManualMatch[],
  cache: FeatureCache,
): Steps<EventMatch[]> {
  if (venuep === undefined || venuek === undefined) return []
  cache.nextGeneration()
  const matches: EventMatch[] = []
  const usedP = new Set<string>()
  const usedK = new Set<string>()
  for (const m of manual) {
    const p = venuep.eventsById.get(m.venuepEventId)
    const k = venuek.eventsById.get(m.venuekEventId)
    if (p === undefined || k === undefined || usedP.has(p.eventId) || usedK.has(k.eventId)) continue
    const outcomes = m.outcomes === undefined ? pairOutcomes(features(p, cache), features(k, cache)) : manualOutcomes(venuep, venuek, m.outcomes)
    matches.push({ venuepEventId: p.eventId, venuekEventId: k.eventId, strategy: 'manual_override', quality: 'manual', score: 1, outcomes })
    usedP.add(p.eventId)
    usedK.add(k.eventId)
  }

  const kFeatures: Features[] = []
  const pFeatures: Features[] = []
  for (const [events, used, out] of [[venuek.events, usedK, kFeatures], [venuep.events, usedP, pFeatures]] as const) {
    for (let i = 0; i < events.length; i++) {
      const e = events[i] as (typeof events)[number]
      if (!used.has(e.eventId)) out.push(features(e, cache))
      if (i % CHECKPOINT_EVERY === 0) yield
    }
  }
  const all = [...kFeatures, ...pFeatures]
  const idf = yield* inverseDocumentFrequencySteps(all)
  for (let i = 0; i < all.length; i++) {
    weigh(all[i] as Features, idf)
    if (i % 256 === 255) yield
  }
  const index = yield* indexCandidates(kFeatures, idf)

  const scored: Scored[] = []
  let judged = 0
  for (let i = 0; i < pFeatures.length; i++) {
    const p = pFeatures[i] as Features
    for (const k of index.candidates(p)) {
      const verdict = judge(p, k, idf)
      if (verdict !== undefined) scored.push({ p, k, ...verdict })
      judged++
    }
    if (++judged >= JUDGED_PER_CHECKPOINT) {
      judged = 0
      yield
    }
  }
  const ranked = yield* sortSteps(scored, byScore)
  let n = 0
  for (const s of ranked) {
    if (++n % 1024 === 0) yield
    if (usedP.has(s.p.event.eventId) || usedK.has(s.k.event.eventId)) continue
    usedP.add(s.p.event.eventId)
    usedK.add(s.k.event.eventId)
    matches.push({ venuepEventId: s.p.event.eventId, venuekEventId: s.k.event.eventId, strategy: s.strategy, quality: s.quality, score: s.score, outcomes: s.outcomes })
  }
  return matches
}

type Scored = Verdict & { readonly p: Features; readonly k: Features }

/**
 * Best score first, then venuep event id, then venuek event id: a total order (each pair is judged once), so
 * the greedy assignment does not depend on the sort algorithm (the matches are sorted in slices).
 */
function byScore(a: Scored, b: Scored): number {
  return b.score - a.score || compareIds(a.p.event.eventId, b.p.event.eventId) || compareIds(a.k.event.eventId, b.k.event.eventId)
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/**
 * Blocking, exact with respect to two of judge's gates, so it changes no result:
 * - dates: end times within 20 hours, so only events ending the same UTC day or the day before or after;
 * - names: a pair passes only when one title's names (entities) are a subset of the other's. So for a title
 *   naming E, the candidates are the events naming a superset of E (found from the rarest name of E) and the
 *   events naming a subset of E (found by their exact name sets: E has a handful of names at most).
 * A title that names nothing falls back to candidates sharing an indexed title token (the similarity gate
 * needs a shared token). Busy days with many events about one subject (price ladders, daily games) stay
 * cheap: candidates are the events about the same subjects, not every event of the day.
 */
interface CandidateIndex {
  candidates(p: Features): Iterable<Features>
}

function* indexCandidates(kFeatures: readonly Features[], idf: ReadonlyMap<string, number>): Steps<CandidateIndex> {
  const byDayName = new Map<number, Map<string, Features[]>>()
  const byDayNameSet = new Map<number, Map<string, Features[]>>()
  const byDayToken = new Map<number, Map<string, Features[]>>()
  for (let i = 0; i < kFeatures.length; i++) {
    const k = kFeatures[i] as Features
    if (i % CHECKPOINT_EVERY === 0) yield
    if (k.end === undefined) continue
    const day = Math.floor(k.end / DAY_MS)
    const names = blockOf(byDayName, day)
    for (const e of k.text.names) push(names, e, k)
    push(blockOf(byDayNameSet, day), k.text.nameKey, k)
    const tokens = blockOf(byDayToken, day)
    for (const t of k.text.tokens) if ((idf.get(t) ?? 0) > INDEXED_IDF) push(tokens, t, k)
  }
  const found = new Set<Features>()
  return {
    candidates(p: Features): Iterable<Features> {
      found.clear()
      if (p.end === undefined) return found
      const day = Math.floor(p.end / DAY_MS)
      const names = p.text.names
      for (let d = day - 1; d <= day + 1; d++) {
        if (names.length === 0) {
          const block = byDayToken.get(d)
          for (const t of p.text.tokens) for (const k of block?.get(t) ?? []) found.add(k)
          continue
        }
        const byName = byDayName.get(d)
        if (byName === undefined) continue
        if (p.text.nameSubsetKeys === undefined) {
          // Unusually many names: every event sharing one (a superset of the subset search below).
          for (const e of names) for (const k of byName.get(e) ?? []) found.add(k)
          continue
        }
        let rarest: Features[] = []
        for (let i = 0; i < names.length; i++) {
          const list = byName.get(names[i] as string) ?? []
          if (i === 0 || list.length < rarest.length) rarest = list
        }
        for (const k of rarest) if (containsAll(k.text.entities, names)) found.add(k)
        const bySet = byDayNameSet.get(d)
        if (bySet !== undefined) for (const key of p.text.nameSubsetKeys) for (const k of bySet.get(key) ?? []) found.add(k)
      }
      return found
    },
  }
}

function containsAll(set: ReadonlySet<string>, items: readonly string[]): boolean {
  for (const x of items) if (!set.has(x)) return false
  return true
}

function blockOf<V>(byDay: Map<number, Map<string, V[]>>, day: number): Map<string, V[]> {
  let block = byDay.get(day)
  if (block === undefined) byDay.set(day, (block = new Map()))
  return block
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else list.push(value)
}

function manualOutcomes(venuep: CatalogSnapshot, venuek: CatalogSnapshot, pairs: readonly { venuepOutcomeId: string; venuekOutcomeId: string }[]): OutcomePair[] {
  const out: OutcomePair[] = []
  for (const pair of pairs) {
    const p = venuep.outcomesById.get(pair.venuepOutcomeId)
    const k = venuek.outcomesById.get(pair.venuekOutcomeId)
    if (p !== undefined && k !== undefined) out.push({ venuep: p, venuek: k, outcomeKey: `text:${p.title.toLowerCase()}` })
  }
  return out
}
