import type { CatalogSnapshot } from '../../actors/catalog-snapshot.js'
import type { VenueId } from '../../model/types.js'
import type { EventMatch, MatchQuality } from './match-types.js'
import { contractsOf, type ContractSpec, type SpecCache } from './contract.js'
import { judge, type Judgement } from './judge.js'

/**
 * How good a matcher run is, against pairs whose answer is known: hand-labelled real pairs (test/fixtures/
 * real-venues/labels-dev.json, format in its FORMAT.md) and the simulator's ground truth. Used by the matcher's
 * tests and by `npm run eval:matching` (bench/sections/matching.ts), which also calibrates the match weights on it.
 */
export interface LabelledPair {
  readonly label: 'same' | 'different'
  readonly reason: string
  readonly category?: string
}

/**
 * Where a labels file writes one venue's side of a pair: an object under the venue's id, naming the event and the
 * contract's binary market (its outcome id or market slug) in these fields.
 */
export interface LabelFields {
  readonly event: string
  readonly market: string
}

/** One venue's catalog and where the labels write its side. */
export interface LabelledVenue {
  readonly catalog: CatalogSnapshot
  readonly fields: LabelFields
}

/** The event and market a labelled pair names on `venue`'s side; undefined when it names none there. */
export function labelSide(
  pair: LabelledPair,
  venue: VenueId,
  fields: LabelFields,
): { readonly eventId: string; readonly marketId: string } | undefined {
  const side = (pair as unknown as Readonly<Record<string, Readonly<Record<string, unknown>> | undefined>>)[venue]
  const eventId = side?.[fields.event]
  const marketId = side?.[fields.market]
  return typeof eventId === 'string' && typeof marketId === 'string' ? { eventId, marketId } : undefined
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

/** Published outcome pairs by `${A outcome id}|${B outcome id}`, with their quality. */
export function publishedPairs(matches: readonly EventMatch[]): Map<string, MatchQuality> {
  const out = new Map<string, MatchQuality>()
  for (const m of matches) for (const o of m.outcomes) out.set(`${o.a.outcomeId}|${o.b.outcomeId}`, o.quality)
  return out
}

/** Every labelled pair between venues A and B: was it published, was that right, and what did the judge say. */
export function scoreLabels(
  matches: readonly EventMatch[],
  labels: readonly LabelledPair[],
  a: LabelledVenue,
  b: LabelledVenue,
  cache: SpecCache,
): { verdicts: LabelVerdict[]; scores: Scores; counts: QualityCounts } {
  const published = publishedPairs(matches)
  const verdicts: LabelVerdict[] = []
  const counts = emptyCounts()
  let tp = 0
  let fp = 0
  let fn = 0
  for (const pair of labels) {
    const x = labelledContract(a, pair, cache)
    const y = labelledContract(b, pair, cache)
    const quality =
      x === undefined || y === undefined ? undefined : published.get(`${x.outcome.outcomeId}|${y.outcome.outcomeId}`)
    const matched = quality !== undefined
    const same = pair.label === 'same'
    if (matched && same) tp++
    else if (matched) fp++
    else if (same) fn++
    if (quality === 'auto_high' || quality === 'auto_medium') {
      counts[quality].pairs++
      if (same) counts[quality].correct++
    }
    verdicts.push({
      pair,
      matched,
      correct: matched === same,
      judgement: x === undefined || y === undefined ? undefined : judge(x, y),
      quality,
    })
  }
  return { verdicts, scores: scores(tp, fp, fn), counts }
}

/** The contract a label names on one venue: in its event, the one whose binary market it names (id or slug). */
function labelledContract(v: LabelledVenue, pair: LabelledPair, cache: SpecCache): ContractSpec | undefined {
  const side = labelSide(pair, v.catalog.venue, v.fields)
  const event = side === undefined ? undefined : v.catalog.eventsById.get(side.eventId)
  return event === undefined || side === undefined
    ? undefined
    : contractsOf(event, cache).find(
        (c) => c.outcome.outcomeId === side.marketId || c.outcome.childMarketSlug === side.marketId,
      )
}

/** A known same-contract pair of the simulator's world (world.truth.outcomePairs): A's outcome id and B's. */
export interface TruePair {
  readonly a: string
  readonly b: string
}

/**
 * Precision and recall against a ground truth that lists every same pair between venues A and B: a published pair
 * not in it is false. Truth pairs whose outcomes the catalogs do not list (closed long ago) are left out.
 */
export function scoreTruth(
  matches: readonly EventMatch[],
  truth: readonly TruePair[],
  a: CatalogSnapshot,
  b: CatalogSnapshot,
): { scores: Scores; counts: QualityCounts } {
  const listed = truth.filter((t) => a.outcomesById.has(t.a) && b.outcomesById.has(t.b))
  const truthKeys = new Set(listed.map((t) => `${t.a}|${t.b}`))
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
