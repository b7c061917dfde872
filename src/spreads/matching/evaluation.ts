import type { CatalogSnapshot } from '../../actors/catalog-snapshot.js'
import type { VenueId } from '../../model/types.js'
import type { EventMatch, MatchQuality } from './match-types.js'
import { contractsOf, type ContractSpec, type SpecCache } from './contract.js'
import { judge, type Judgement } from './judge.js'
import { propositionKind } from './proposition.js'

/**
 * How good a matcher run is, against pairs whose answer is known: hand-labelled real pairs (test/fixtures/
 * real-venues/labels-dev.json, format in its FORMAT.md) and the simulator's ground truth. Used by the matcher's
 * tests and by `npm run eval:matching` (bench/sections/matching.ts), which also calibrates the match weights on it.
 */
export interface LabelledPair {
  readonly label: 'same' | 'different'
  readonly reason: string
  readonly category?: string
  /** The series family the pair was drawn from ("crypto-hourly", "esports-map"), where the label file says. */
  readonly family?: string
}

/**
 * Where a labels file writes one venue's side of a pair: an object under the venue's id, naming the event and the
 * contract's binary market (its outcome id or market slug) in these fields.
 */
export interface LabelFields {
  readonly event: string
  readonly market: string
  /**
   * Where a side names which of its binary market's two listed outcomes it means (0 or 1; a head-to-head market lists
   * both teams), when the venue lists both; absent or missing: the first (the YES side).
   */
  readonly outcomeIndex?: string
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
): { readonly eventId: string; readonly marketId: string; readonly outcomeIndex: number } | undefined {
  const side = (pair as unknown as Readonly<Record<string, Readonly<Record<string, unknown>> | undefined>>)[venue]
  const eventId = side?.[fields.event]
  const marketId = side?.[fields.market]
  const index = fields.outcomeIndex === undefined ? undefined : side?.[fields.outcomeIndex]
  return typeof eventId === 'string' && typeof marketId === 'string'
    ? { eventId, marketId, outcomeIndex: index === 1 ? 1 : 0 }
    : undefined
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
  /** The proposition kind of A's contract (proposition.ts), 'not listed' when it is not in the catalog. */
  readonly kind: string
  /**
   * What decided a wrong verdict: the judge's field that kept a same pair apart, 'assignment' when the judge accepted
   * it but another partner won (or two tied), 'judged same' for a different pair the judge accepted, 'not listed'.
   */
  readonly decidedBy: string | undefined
  /**
   * For a same pair whose A side is one of two listed outcomes (a head-to-head market's teams): B's contract was
   * published with A's OTHER outcome (a spread priced on the wrong side).
   */
  readonly wrongOutcome: boolean
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
  const partnerOfB = new Map<string, string>()
  for (const m of matches) for (const o of m.outcomes) partnerOfB.set(o.b.outcomeId, o.a.outcomeId)
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
    const judgement = x === undefined || y === undefined ? undefined : judge(x, y)
    const wrongOutcome =
      same &&
      x !== undefined &&
      y !== undefined &&
      x.outcome.complementInstrumentId !== undefined &&
      partnerOfB.get(y.outcome.outcomeId) === siblingOf(a, x)
    verdicts.push({
      pair,
      matched,
      correct: matched === same,
      judgement,
      quality,
      kind: x === undefined ? 'not listed' : propositionKind(x),
      decidedBy:
        matched === same
          ? undefined
          : judgement === undefined
            ? 'not listed'
            : judgement.same
              ? matched
                ? 'judged same'
                : 'assignment'
              : judgement.test,
      wrongOutcome,
    })
  }
  return { verdicts, scores: scores(tp, fp, fn), counts }
}

/**
 * The contract a label names on one venue: in its event, the one whose binary market it names (id or slug), and of a
 * market listed as two outcomes, the one its outcome index names.
 */
function labelledContract(v: LabelledVenue, pair: LabelledPair, cache: SpecCache): ContractSpec | undefined {
  const side = labelSide(pair, v.catalog.venue, v.fields)
  const event = side === undefined ? undefined : v.catalog.eventsById.get(side.eventId)
  if (event === undefined || side === undefined) return undefined
  const inMarket = contractsOf(event, cache).filter(
    (c) => c.outcome.outcomeId === side.marketId || c.outcome.childMarketSlug === side.marketId,
  )
  return inMarket.find((c) => (c.outcome.outcomeIndex ?? 0) === side.outcomeIndex) ?? inMarket[0]
}

/** The outcome id of the other listed outcome of `x`'s binary market (its complement's), if the catalog lists it. */
function siblingOf(v: LabelledVenue, x: ContractSpec): string | undefined {
  const other = x.outcome.complementInstrumentId
  if (other === undefined) return undefined
  for (const o of v.catalog.marketsById.get(x.outcome.marketId)?.outcomes ?? [])
    if (o.instrumentId === other) return o.outcomeId
  return undefined
}

/** A group's scores and how many labelled pairs (and same ones) it holds. */
export interface GroupScores extends Scores {
  readonly labelled: number
  readonly same: number
}

/** Scores per group of labelled pairs (a family, a proposition kind): what the eval reports row by row. */
export function scoresBy(
  verdicts: readonly LabelVerdict[],
  group: (v: LabelVerdict) => string,
): Map<string, GroupScores> {
  const counts = new Map<string, { tp: number; fp: number; fn: number; labelled: number; same: number }>()
  for (const v of verdicts) {
    const key = group(v)
    let c = counts.get(key)
    if (c === undefined) counts.set(key, (c = { tp: 0, fp: 0, fn: 0, labelled: 0, same: 0 }))
    const same = v.pair.label === 'same'
    c.labelled++
    if (same) c.same++
    if (v.matched && same) c.tp++
    else if (v.matched) c.fp++
    else if (same) c.fn++
  }
  return new Map(
    [...counts]
      .sort(([x], [y]) => (x < y ? -1 : 1))
      .map(([k, c]) => [k, { ...scores(c.tp, c.fp, c.fn), labelled: c.labelled, same: c.same }]),
  )
}

/** A label's family: its `family`, else its `category`, else 'other'. */
export function familyOf(pair: LabelledPair): string {
  return pair.family ?? pair.category ?? 'other'
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
