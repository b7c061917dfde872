import type { CatalogSnapshot } from '../../actors/catalog-snapshot.js'
import type { EventMatch, MatchQuality } from './matcher.js'
import { contractsOf, type ContractSpec, type SpecCache } from './contract.js'
import { judge, type Judgement } from './judge.js'

/**
 * How good a matcher run is, against pairs whose answer is known: hand-labelled real pairs (test/fixtures/
 * real-venues/labels-dev.json, format in its FORMAT.md) and the simulator's ground truth. Used by the matcher's
 * tests and by `npm run eval:matching` (bench/sections/matching.ts), which also calibrates the match weights on it.
 */
export interface LabelledPair {
  readonly venuep: { readonly event_slug: string; readonly market_slug: string; readonly outcome_title: string; readonly question: string }
  readonly venuek: { readonly event_ticker: string; readonly market_ticker: string; readonly title: string; readonly yes_sub_title: string }
  readonly label: 'same' | 'different'
  readonly reason: string
  readonly category?: string
}

export interface LabelVerdict {
  readonly pair: LabelledPair
  /** The matcher published this pair. */
  readonly matched: boolean
  readonly correct: boolean
  /** The judge's verdict on the two contracts (why it was or was not matched); undefined when one is not listed. */
  readonly judgement: Judgement | undefined
  /** The quality it was published with. */
  readonly quality: MatchQuality | undefined
}

export interface Scores {
  readonly tp: number
  readonly fp: number
  readonly fn: number
  readonly precision: number
  readonly recall: number
  readonly f1: number
}

/** Published pairs per quality, and how many of them were right: what calibration.ts turns into weights. */
export type QualityCounts = Record<'auto_high' | 'auto_medium', { pairs: number; correct: number }>

export function scores(tp: number, fp: number, fn: number): Scores {
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp)
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn)
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall)
  return { tp, fp, fn, precision, recall, f1 }
}

export function emptyCounts(): QualityCounts {
  return { auto_high: { pairs: 0, correct: 0 }, auto_medium: { pairs: 0, correct: 0 } }
}

/** Published outcome pairs by `${venuep outcome id}|${venuek outcome id}`, with their quality. */
export function publishedPairs(matches: readonly EventMatch[]): Map<string, MatchQuality> {
  const out = new Map<string, MatchQuality>()
  for (const m of matches) for (const o of m.outcomes) out.set(`${o.venuep.outcomeId}|${o.venuek.outcomeId}`, o.quality)
  return out
}

/** Every labelled pair: was it published, was that right, and what did the judge say. */
export function scoreLabels(matches: readonly EventMatch[], labels: readonly LabelledPair[], venuep: CatalogSnapshot, venuek: CatalogSnapshot, cache: SpecCache): { verdicts: LabelVerdict[]; scores: Scores; counts: QualityCounts } {
  const published = publishedPairs(matches)
  const verdicts: LabelVerdict[] = []
  const counts = emptyCounts()
  let tp = 0
  let fp = 0
  let fn = 0
  for (const pair of labels) {
    const p = venuepContract(venuep, pair, cache)
    const k = venuekContract(venuek, pair, cache)
    const quality = p === undefined || k === undefined ? undefined : published.get(`${p.outcome.outcomeId}|${k.outcome.outcomeId}`)
    const matched = quality !== undefined
    const same = pair.label === 'same'
    if (matched && same) tp++
    else if (matched) fp++
    else if (same) fn++
    if (quality === 'auto_high' || quality === 'auto_medium') {
      counts[quality].pairs++
      if (same) counts[quality].correct++
    }
    verdicts.push({ pair, matched, correct: matched === same, judgement: p === undefined || k === undefined ? undefined : judge(p, k), quality })
  }
  return { verdicts, scores: scores(tp, fp, fn), counts }
}

function venuepContract(snapshot: CatalogSnapshot, pair: LabelledPair, cache: SpecCache): ContractSpec | undefined {
  const event = snapshot.eventsById.get(pair.venuep.event_slug)
  return event === undefined ? undefined : contractsOf(event, cache).find((c) => c.outcome.childMarketSlug === pair.venuep.market_slug)
}

function venuekContract(snapshot: CatalogSnapshot, pair: LabelledPair, cache: SpecCache): ContractSpec | undefined {
  const event = snapshot.eventsById.get(pair.venuek.event_ticker)
  return event === undefined ? undefined : contractsOf(event, cache).find((c) => c.outcome.outcomeId === pair.venuek.market_ticker)
}

/** A known same-contract pair of the simulator's world (world.truth.outcomePairs). */
export interface TruePair {
  readonly venuepTokenId: string
  readonly venuekMarketTicker: string
}

/**
 * Precision and recall against a ground truth that lists every same pair: a published pair not in it is false.
 * Truth pairs whose outcomes the catalogs do not list (closed long ago) are left out.
 */
export function scoreTruth(matches: readonly EventMatch[], truth: readonly TruePair[], venuep: CatalogSnapshot, venuek: CatalogSnapshot): { scores: Scores; counts: QualityCounts } {
  const listed = truth.filter((t) => venuep.outcomesById.has(t.venuepTokenId) && venuek.outcomesById.has(t.venuekMarketTicker))
  const truthKeys = new Set(listed.map((t) => `${t.venuepTokenId}|${t.venuekMarketTicker}`))
  const counts = emptyCounts()
  let tp = 0
  let fp = 0
  for (const [key, quality] of publishedPairs(matches)) {
    const right = truthKeys.has(key)
    if (right) tp++
    else fp++
    if (quality === 'auto_high' || quality === 'auto_medium') {
      counts[quality].pairs++
      if (right) counts[quality].correct++
    }
  }
  return { scores: scores(tp, fp, listed.length - tp), counts }
}
