import { addTo } from '../../core/multimap.js'
import { sortSteps } from '../../core/array-steps.js'
import type { Steps } from '../../core/slices.js'
import type { CatalogEvent, Outcome } from '../../model/types.js'
import type { MatchWeights } from './calibration.js'
import type { ContractSpec } from './contract.js'
import type { Grade } from './judge.js'
import type { Evidence, EventMatch, MatchingStrategy, MatchQuality, OutcomePair, VenueEvent } from './match-types.js'

/**
 * The last stages of matching (matcher.ts): the pairs the judge accepted are assigned one to one, best grade first,
 * then grouped by their two events into the published matches; and the event links the read models show are drawn
 * from those matches. Each works on the accepted pairs alone, whichever way they were found (a full run or an
 * incremental update), and its result does not depend on their order.
 */

/** Accepted pairs assigned or grouped between two slice checkpoints. */
const PAIRS_PER_CHECKPOINT = 1_024

/** A pair the judge accepted: venue A's contract and venue B's. */
export interface Accepted {
  readonly a: ContractSpec
  readonly b: ContractSpec
  readonly grade: Grade
  readonly evidence: Evidence
}

const RANK: Readonly<Record<Grade, number>> = { high: 2, medium: 1 }

/**
 * One partner per contract: each side keeps its best-graded pairs; a contract with two or more partners at its best
 * grade is ambiguous (the texts do not tell which is meant) and keeps none. Deterministic, whatever the input order.
 */
export function* assignOneToOneSteps(accepted: readonly Accepted[]): Steps<Accepted[]> {
  function* bestOf(side: 'a' | 'b'): Steps<Map<string, Accepted[]>> {
    const m = new Map<string, Accepted[]>()
    for (let i = 0; i < accepted.length; i++) {
      const x = accepted[i] as Accepted
      const id = x[side].outcome.outcomeId
      const list = m.get(id)
      if (list === undefined || RANK[x.grade] > RANK[(list[0] as Accepted).grade]) m.set(id, [x])
      else if (RANK[x.grade] === RANK[(list[0] as Accepted).grade]) list.push(x)
      if (i % PAIRS_PER_CHECKPOINT === PAIRS_PER_CHECKPOINT - 1) yield
    }
    return m
  }
  const byA = yield* bestOf('a')
  const byB = yield* bestOf('b')
  const out: Accepted[] = []
  for (const list of byA.values()) {
    if (list.length !== 1) continue
    const x = list[0] as Accepted
    const bList = byB.get(x.b.outcome.outcomeId)
    if (bList !== undefined && bList.length === 1 && bList[0] === x) out.push(x)
  }
  yield
  // A's outcome ids are unique among the assigned pairs: a total order, so the stepped sort is `sort`'s.
  return yield* sortSteps(out, (x, y) => compare(x.a.outcome.outcomeId, y.a.outcome.outcomeId))
}

export function* groupByEventsSteps(pairs: readonly Accepted[], weights: MatchWeights): Steps<EventMatch[]> {
  const groups = new Map<string, Accepted[]>()
  for (const x of pairs) addTo(groups, groupKey(x), x)
  yield
  const out: EventMatch[] = []
  for (const list of groups.values()) {
    out.push(groupMatch(list, weights))
    if (out.length % PAIRS_PER_CHECKPOINT === 0) yield
  }
  // One group per pair of events: a total order.
  return yield* sortSteps(out, byEvents)
}

/** The group an assigned pair belongs to: its two events. */
export function groupKey(x: Accepted): string {
  return `${x.a.event.eventId}\u0000${x.b.event.eventId}`
}

/** The published match of one group's assigned pairs, listed by A's outcome id (as assignment sorts them). */
export function groupMatch(list: readonly Accepted[], weights: MatchWeights): EventMatch {
  const first = list[0] as Accepted
  const outcomes = list.map((x) => autoPair(x, weights))
  const allHigh = list.every((x) => x.grade === 'high')
  const strategy: MatchingStrategy =
    list.length > 1 ? 'event_key' : allHigh ? 'auto_canonical' : 'normalized_title_fallback'
  return {
    a: venueEvent(first.a.event),
    b: venueEvent(first.b.event),
    strategy,
    quality: allHigh ? 'auto_high' : 'auto_medium',
    outcomes,
  }
}

/**
 * Whether `x` is assigned (assignOneToOneSteps): the only pair at the best grade among its A contract's pairs, and
 * among its B contract's. `pairsOfA`, `pairsOfB`: the accepted pairs of x's two contracts.
 */
export function isAssigned(x: Accepted, pairsOfA: readonly Accepted[], pairsOfB: readonly Accepted[]): boolean {
  return uniqueBest(x, pairsOfA) && uniqueBest(x, pairsOfB)
}

function uniqueBest(x: Accepted, pairs: readonly Accepted[]): boolean {
  const rank = RANK[x.grade]
  for (const y of pairs) if (y !== x && RANK[y.grade] >= rank) return false
  return true
}

export function venueEvent(e: CatalogEvent): VenueEvent {
  return { venue: e.venue, eventId: e.eventId }
}

/**
 * Each accepted pair's outcome pair, made once per set of weights: an accepted pair lives in the matcher's state
 * as long as its two contracts do, so an update that regroups the matches gives unchanged pairs back as the same
 * objects, and the spreads made of them are found unchanged (pair-specs.ts `specsOfMatch`) without comparing
 * their explanations field by field.
 */
const outcomePairs = new WeakMap<Accepted, { readonly weights: MatchWeights; readonly pair: OutcomePair }>()

function autoPair(x: Accepted, weights: MatchWeights): OutcomePair {
  const made = outcomePairs.get(x)
  if (made !== undefined && made.weights === weights) return made.pair
  const pair = newAutoPair(x, weights)
  outcomePairs.set(x, { weights, pair })
  return pair
}

function newAutoPair(x: Accepted, weights: MatchWeights): OutcomePair {
  const quality: MatchQuality = x.grade === 'high' ? 'auto_high' : 'auto_medium'
  return {
    a: x.a.outcome,
    b: x.b.outcome,
    outcomeKey: outcomeKey(x.a.outcome),
    quality,
    explanation: {
      quality,
      weight: weights[quality],
      manual: false,
      a: { venue: x.a.outcome.venue, outcomeId: x.a.outcome.outcomeId, text: nonEmpty(x.a.texts) },
      b: { venue: x.b.outcome.venue, outcomeId: x.b.outcome.outcomeId, text: nonEmpty(x.b.texts) },
      evidence: x.evidence,
    },
  }
}

export function outcomeKey(o: Outcome): string {
  return `text:${o.title.toLowerCase()}`
}

function nonEmpty(texts: readonly string[]): string[] {
  return texts.filter((t) => t !== '')
}

/** A's event id, then B's. */
export function byEvents(x: EventMatch, y: EventMatch): number {
  return compare(x.a.eventId, y.a.eventId) || compare(x.b.eventId, y.b.eventId)
}

/**
 * The event links the read models show (one service event per venue event) between the two venues of `matches`:
 * each event at most once, the groups with the most outcome pairs first. Spread pairs do not depend on links.
 */
export function eventLinks(matches: readonly EventMatch[]): { a: VenueEvent; b: VenueEvent }[] {
  const ranked = [...matches].sort(
    (x, y) =>
      (x.strategy === 'manual_override' ? 0 : 1) - (y.strategy === 'manual_override' ? 0 : 1) ||
      y.outcomes.length - x.outcomes.length ||
      byEvents(x, y),
  )
  const usedA = new Set<string>()
  const usedB = new Set<string>()
  const links: { a: VenueEvent; b: VenueEvent }[] = []
  for (const m of ranked) {
    if (usedA.has(m.a.eventId) || usedB.has(m.b.eventId)) continue
    usedA.add(m.a.eventId)
    usedB.add(m.b.eventId)
    links.push({ a: m.a, b: m.b })
  }
  return links
}

export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
