import type { EventLink } from '../views/event-directory.js'
import type { CatalogSnapshot } from '../actors/catalog-snapshot.js'
import { runToEnd, type Steps } from '../core/slices.js'
import type { CatalogEvent, Outcome } from '../model/types.js'
import { UNCALIBRATED, type MatchWeights } from './matching/calibration.js'
import { contractsOf, readingsOf, rebind, sameReading, SpecCache, type ContractSpec, type Reading } from './matching/contract.js'
import { VenuekIndex, VenuepIndex } from './matching/contract-index.js'
import { judge, mayMatch, type Evidence, type Grade } from './matching/judge.js'
import { contentWords } from './matching/text.js'

/**
 * Finds the same contract on both venues, outcome by outcome (docs/spreads.md). Precision first: a false match is a
 * phantom spread shown to every user, so a pair is published only when the judge (matching/judge.ts) finds the
 * two contracts the same on what their texts state: the same subject and role, the same threshold, the same
 * period. Stages:
 *
 * 1. **Contracts** (matching/contract.ts): every tradable outcome read into words, a period and a threshold, cached
 *    by text across runs.
 * 2. **Candidates**: the judge requires each word of a venuep contract to be stated by the venuek side, so its
 *    candidates are the venuek contracts stating its rarest word (an index by word); nothing that could pass is left
 *    out, and busy catalogs stay cheap.
 * 3. **Judge** each candidate; **assign** one to one, best grade first; a contract with two equally good partners
 *    is ambiguous and pairs with neither.
 * 4. **Events**: pairs are grouped by their two events. A group of several outcome pairs is `event_key`; a single
 *    pair `auto_canonical` when graded high, `normalized_title_fallback` when medium (spec 2.7). An event may pair
 *    outcomes with several events of the other venue (a venuek deadline ladder against single venuep questions).
 *
 * Manual matches (config/matches.json) win over automatic ones; deny rules remove automatic pairs.
 * `matchEventsSteps` is the same computation cut into slices for the event loop (src/core/slices.ts).
 */
export type MatchingStrategy = 'auto_canonical' | 'manual_override' | 'normalized_title_fallback' | 'event_key'
export type MatchQuality = 'manual' | 'auto_high' | 'auto_medium'

/** Why two outcomes were paired, as the API shows it (`match` on spread records). */
export interface MatchExplanation {
  readonly quality: MatchQuality
  /**
   * The share of pairs of this quality that were the same contract when measured (95% lower bound,
   * matching/calibration.ts); the spread's confidence is scaled by it. 1 for manual overrides.
   */
  readonly weight: number
  /** Manual overrides say so; automatic pairs carry the judge's evidence. */
  readonly manual: boolean
  /** The two contracts: venuep CLOB token id (YES side) and venuek market ticker. */
  readonly venuepOutcomeId: string
  readonly venuekOutcomeId: string
  readonly evidence: Evidence | undefined
  /** The texts each side was read from, most specific first. */
  readonly venuepText: readonly string[]
  readonly venuekText: readonly string[]
}

export interface OutcomePair {
  readonly venuep: Outcome
  readonly venuek: Outcome
  /** `text:<venuep outcome title, lowercased>` (spec 4.3). */
  readonly outcomeKey: string
  readonly quality: MatchQuality
  readonly explanation: MatchExplanation
}

export interface EventMatch {
  readonly venuepEventId: string
  readonly venuekEventId: string
  readonly strategy: MatchingStrategy
  /** The weakest of its pairs' qualities. */
  readonly quality: MatchQuality
  readonly outcomes: readonly OutcomePair[]
}

/** A manual mapping: the two events, and optionally which outcomes pair (default: paired by label). */
export interface ManualMatch {
  readonly venuepEventId: string
  readonly venuekEventId: string
  readonly outcomes?: readonly { readonly venuepOutcomeId: string; readonly venuekOutcomeId: string }[]
}

/**
 * A reviewer's "not the same": removes automatic pairs between two events, or only between two of their outcomes.
 * Manual matches are not affected (edit those directly).
 */
export interface DenyRule {
  readonly venuepEventId: string
  readonly venuekEventId: string
  readonly venuepOutcomeId?: string
  readonly venuekOutcomeId?: string
}

export interface MatchInput {
  readonly manual?: readonly ManualMatch[]
  readonly deny?: readonly DenyRule[]
  /** Measured worth of each quality (config/match-calibration.json); UNCALIBRATED when absent. */
  readonly weights?: MatchWeights
}

/** Events between two slice checkpoints. */
const CHECKPOINT_EVERY = 64
/** Candidates examined between two slice checkpoints (a common word can have thousands of holders). */
const JUDGED_PER_CHECKPOINT = 2_048

export function matchEvents(venuep: CatalogSnapshot | undefined, venuek: CatalogSnapshot | undefined, input: MatchInput = {}, cache = new SpecCache()): EventMatch[] {
  return runToEnd(matchEventsSteps(venuep, venuek, input, cache))
}

/** One full run from nothing (the same as a first `MatchState.update`). */
export function* matchEventsSteps(venuep: CatalogSnapshot | undefined, venuek: CatalogSnapshot | undefined, input: MatchInput, cache: SpecCache): Steps<EventMatch[]> {
  return (yield* new MatchState(cache).updateSteps(venuep, venuek, input)).matches
}

/** What one update did: the matches, and how much of the catalogs it had to read again. */
export interface MatchUpdate {
  readonly matches: EventMatch[]
  /** `full`: from nothing (first run, or the overrides changed); `incremental`: only changed events were judged. */
  readonly mode: 'full' | 'incremental'
  /** Events added, changed or removed on either venue since the last update. */
  readonly changedEvents: number
  /** Candidate pairs judged by this update. */
  readonly judged: number
}

/**
 * The matcher's state between catalog versions: every contract of both catalogs, the blocking indexes
 * (matching/contract-index.ts) and every pair the judge accepted. An update reads each event's contracts again
 * (cheap: the spec cache keeps them by text), and only events whose contracts changed are taken out and put back:
 * their pairs are dropped and their contracts judged against the other venue's. Assignment and grouping then run
 * over the accepted pairs (a few per contract). A refresh of two real-size catalogs in which a few hundred events
 * changed costs the diff, not the ~N² of blocking everything again.
 *
 * The result is exactly that of a full run on the same catalogs: the accepted set is every pair the judge accepts
 * among exact candidates, whichever way they were found, and assignment and grouping do not depend on its order
 * (test/spreads/incremental-matching.test.ts checks it against full runs over random changes).
 *
 * Bounded: it holds one entry per contract of the current catalogs (removed events are dropped at the update that
 * sees them go) and the accepted pairs among them.
 */
export class MatchState {
  readonly #cache: SpecCache
  readonly #venuep = new Map<string, EventContracts>()
  readonly #venuek = new Map<string, EventContracts>()
  readonly #pIndex = new VenuepIndex()
  readonly #kIndex = new VenuekIndex()
  /** Accepted pairs by each side's contract. */
  readonly #byP = new Map<ContractSpec, Accepted[]>()
  readonly #byK = new Map<ContractSpec, Accepted[]>()
  /** The overrides (manual outcomes taken out of automatic matching, deny rules) the state was built under. */
  #overridesKey: string | undefined
  /** The automatic matches of the last update, and the weights they were graded with. */
  #last: { readonly weights: MatchWeights; readonly automatic: EventMatch[] } | undefined

  constructor(cache = new SpecCache()) {
    this.#cache = cache
  }

  /** Contracts held (both venues): the state's size. */
  get contracts(): number {
    let n = 0
    for (const e of this.#venuep.values()) n += e.specs.length
    for (const e of this.#venuek.values()) n += e.specs.length
    return n
  }

  *updateSteps(venuep: CatalogSnapshot | undefined, venuek: CatalogSnapshot | undefined, input: MatchInput): Steps<MatchUpdate> {
    if (venuep === undefined || venuek === undefined) return { matches: [], mode: 'full', changedEvents: 0, judged: 0 }
    const weights = input.weights ?? UNCALIBRATED
    const manual = manualMatches(venuep, venuek, input.manual ?? [], this.#cache)
    const usedP = new Set<string>()
    const usedK = new Set<string>()
    for (const m of manual) for (const o of m.outcomes) (usedP.add(o.venuep.outcomeId), usedK.add(o.venuek.outcomeId))
    const overridesKey = JSON.stringify([[...usedP].sort(), [...usedK].sort(), input.deny ?? []])
    const mode = this.#overridesKey === overridesKey ? 'incremental' : 'full'
    if (mode === 'full') this.#clear()
    this.#overridesKey = overridesKey

    // Take out what changed or left, put in what is new; judge only the new contracts.
    const newK = yield* this.#sync(this.#venuek, venuek.events, usedK, 'k')
    const newP = yield* this.#sync(this.#venuep, venuep.events, usedP, 'p')
    for (const k of newK.added) this.#kIndex.add(k)
    for (const p of newP.added) this.#pIndex.add(p, this.#kIndex)
    const denied = denyIndex(input.deny ?? [])
    let judged = 0
    let work = 0
    const consider = (p: ContractSpec, k: ContractSpec): void => {
      judged++
      work++
      if (!mayMatch(p, k) || denied(p, k)) return
      const j = judge(p, k, false)
      if (j.same) this.#accept({ p, k, grade: j.grade, evidence: j.evidence })
    }
    for (const p of newP.added) {
      for (const k of this.#kIndex.candidatesOf(p)) consider(p, k)
      if ((work += JUDGED_PER_CHECKPOINT / CHECKPOINT_EVERY) >= JUDGED_PER_CHECKPOINT) (yield, (work = 0))
    }
    // New venuek contracts against the venuep contracts that were already there (new ones met them above). A full
    // run has no such contracts.
    if (mode === 'incremental' && newK.added.length > 0) {
      const fresh = new Set(newP.added)
      for (const k of newK.added) {
        for (const p of this.#pIndex.candidatesOf(k)) if (!fresh.has(p)) consider(p, k)
        if ((work += JUDGED_PER_CHECKPOINT / CHECKPOINT_EVERY) >= JUDGED_PER_CHECKPOINT) (yield, (work = 0))
      }
    }
    // The held contracts are all the state needs; the cache's readings would only double them (SpecCache.clear).
    this.#cache.clear()
    const changedEvents = newP.changedEvents + newK.changedEvents
    // Nothing changed (the usual refresh): the same contracts give the same pairs.
    if (mode === 'incremental' && changedEvents === 0 && this.#last !== undefined && this.#last.weights === weights) {
      return { matches: [...manual, ...this.#last.automatic], mode, changedEvents, judged }
    }
    const accepted: Accepted[] = []
    for (const list of this.#byP.values()) for (const a of list) accepted.push(a)
    yield
    const automatic = groupByEvents(assignOneToOne(accepted), weights)
    this.#last = { weights, automatic }
    return { matches: [...manual, ...automatic], mode, changedEvents, judged }
  }

  #clear(): void {
    this.#last = undefined
    for (const side of [this.#venuep, this.#venuek]) side.clear()
    this.#byP.clear()
    this.#byK.clear()
    this.#pIndex.clear()
    this.#kIndex.clear()
  }

  /**
   * Brings one venue's contracts in line with `events`: an event whose contracts read the same keeps them (pointed at
   * the new catalog's objects); one that changed or left has its contracts and their pairs removed. Returns the
   * contracts to add.
   */
  *#sync(held: Map<string, EventContracts>, events: readonly CatalogEvent[], used: ReadonlySet<string>, side: 'p' | 'k'): Steps<{ added: ContractSpec[]; changedEvents: number }> {
    const added: ContractSpec[] = []
    const seen = new Set<string>()
    let changedEvents = 0
    for (let i = 0; i < events.length; i++) {
      const event = events[i] as CatalogEvent
      seen.add(event.eventId)
      const before = held.get(event.eventId)
      if (before !== undefined && before.event === event) continue
      const readings = readingsOf(event).filter((r) => !used.has(r.outcome.outcomeId))
      if (before !== undefined && sameContracts(before.specs, readings)) {
        for (let j = 0; j < readings.length; j++) rebind(before.specs[j] as ContractSpec, readings[j] as Reading)
        held.set(event.eventId, { event, specs: before.specs })
      } else {
        if (before !== undefined) this.#drop(before.specs, side)
        const specs = readings.map((r) => this.#cache.spec(r))
        held.set(event.eventId, { event, specs })
        for (const c of specs) added.push(c)
        changedEvents++
      }
      if (i % CHECKPOINT_EVERY === 0) yield
    }
    for (const [id, before] of held) {
      if (seen.has(id)) continue
      this.#drop(before.specs, side)
      held.delete(id)
      changedEvents++
    }
    return { added, changedEvents }
  }

  #drop(specs: readonly ContractSpec[], side: 'p' | 'k'): void {
    const [mine, theirs, other] = side === 'p' ? [this.#byP, this.#byK, 'k' as const] : [this.#byK, this.#byP, 'p' as const]
    for (const c of specs) {
      if (side === 'p') this.#pIndex.remove(c)
      else this.#kIndex.remove(c)
      for (const a of mine.get(c) ?? []) {
        const list = theirs.get(a[other])
        if (list === undefined) continue
        const kept = list.filter((x) => x !== a)
        if (kept.length === 0) theirs.delete(a[other])
        else theirs.set(a[other], kept)
      }
      mine.delete(c)
    }
  }

  #accept(a: Accepted): void {
    push(this.#byP, a.p, a)
    push(this.#byK, a.k, a)
  }
}

interface EventContracts {
  readonly event: CatalogEvent
  readonly specs: readonly ContractSpec[]
}

/** Whether an event's refreshed readings are the contracts held for it: same outcomes, read from the same inputs. */
function sameContracts(held: readonly ContractSpec[], readings: readonly Reading[]): boolean {
  if (held.length !== readings.length) return false
  for (let i = 0; i < held.length; i++) if (!sameReading(held[i] as ContractSpec, readings[i] as Reading)) return false
  return true
}

interface Accepted {
  readonly p: ContractSpec
  readonly k: ContractSpec
  readonly grade: Grade
  readonly evidence: Evidence
}

const RANK: Readonly<Record<Grade, number>> = { high: 2, medium: 1 }

/**
 * One partner per contract: each side keeps its best-graded pairs; a contract with two or more partners at its best
 * grade is ambiguous (the texts do not tell which is meant) and keeps none. Deterministic, whatever the input order.
 */
function assignOneToOne(accepted: readonly Accepted[]): Accepted[] {
  const bestOf = (side: 'p' | 'k'): Map<string, Accepted[]> => {
    const m = new Map<string, Accepted[]>()
    for (const a of accepted) {
      const id = a[side].outcome.outcomeId
      const list = m.get(id)
      if (list === undefined || RANK[a.grade] > RANK[(list[0] as Accepted).grade]) m.set(id, [a])
      else if (RANK[a.grade] === RANK[(list[0] as Accepted).grade]) list.push(a)
    }
    return m
  }
  const byP = bestOf('p')
  const byK = bestOf('k')
  const out: Accepted[] = []
  for (const list of byP.values()) {
    if (list.length !== 1) continue
    const a = list[0] as Accepted
    const kList = byK.get(a.k.outcome.outcomeId)
    if (kList !== undefined && kList.length === 1 && kList[0] === a) out.push(a)
  }
  return out.sort((a, b) => compare(a.p.outcome.outcomeId, b.p.outcome.outcomeId))
}

function groupByEvents(pairs: readonly Accepted[], weights: MatchWeights): EventMatch[] {
  const groups = new Map<string, Accepted[]>()
  for (const a of pairs) push(groups, `${a.p.event.eventId}\u0000${a.k.event.eventId}`, a)
  const out: EventMatch[] = []
  for (const list of groups.values()) {
    const first = list[0] as Accepted
    const outcomes = list.map((a) => autoPair(a, weights))
    const allHigh = list.every((a) => a.grade === 'high')
    const strategy: MatchingStrategy = list.length > 1 ? 'event_key' : allHigh ? 'auto_canonical' : 'normalized_title_fallback'
    out.push({ venuepEventId: first.p.event.eventId, venuekEventId: first.k.event.eventId, strategy, quality: allHigh ? 'auto_high' : 'auto_medium', outcomes })
  }
  return out.sort((a, b) => compare(a.venuepEventId, b.venuepEventId) || compare(a.venuekEventId, b.venuekEventId))
}

function autoPair(a: Accepted, weights: MatchWeights): OutcomePair {
  const quality: MatchQuality = a.grade === 'high' ? 'auto_high' : 'auto_medium'
  return {
    venuep: a.p.outcome,
    venuek: a.k.outcome,
    outcomeKey: outcomeKey(a.p.outcome),
    quality,
    explanation: { quality, weight: weights[quality], manual: false, venuepOutcomeId: a.p.outcome.outcomeId, venuekOutcomeId: a.k.outcome.outcomeId, evidence: a.evidence, venuepText: nonEmpty(a.p.texts), venuekText: nonEmpty(a.k.texts) },
  }
}

function outcomeKey(o: Outcome): string {
  return `text:${o.title.toLowerCase()}`
}

function nonEmpty(texts: readonly string[]): string[] {
  return texts.filter((t) => t !== '')
}

/**
 * The event links the read models show (one service event per venue event): each event at most once, the
 * groups with the most outcome pairs first. Spread pairs do not depend on links.
 */
export function eventLinks(matches: readonly EventMatch[]): EventLink[] {
  const ranked = [...matches].sort((a, b) => (a.strategy === 'manual_override' ? 0 : 1) - (b.strategy === 'manual_override' ? 0 : 1) || b.outcomes.length - a.outcomes.length || compare(a.venuepEventId, b.venuepEventId) || compare(a.venuekEventId, b.venuekEventId))
  const usedP = new Set<string>()
  const usedK = new Set<string>()
  const links: EventLink[] = []
  for (const m of ranked) {
    if (usedP.has(m.venuepEventId) || usedK.has(m.venuekEventId)) continue
    usedP.add(m.venuepEventId)
    usedK.add(m.venuekEventId)
    links.push({ a: { venue: 'venuep', eventId: m.venuepEventId }, b: { venue: 'venuek', eventId: m.venuekEventId } })
  }
  return links
}

/**
 * Manual matches: the listed outcome pairs, or, without a list, the outcomes whose labels say the same (the
 * judge's word test on the labels alone; yes/no questions pair their YES sides). The reviewer vouches for the rest.
 */
function manualMatches(venuep: CatalogSnapshot, venuek: CatalogSnapshot, manual: readonly ManualMatch[], cache: SpecCache): EventMatch[] {
  const out: EventMatch[] = []
  const usedP = new Set<string>()
  const usedK = new Set<string>()
  for (const m of manual) {
    const pe = venuep.eventsById.get(m.venuepEventId)
    const ke = venuek.eventsById.get(m.venuekEventId)
    if (pe === undefined || ke === undefined || usedP.has(pe.eventId) || usedK.has(ke.eventId)) continue
    usedP.add(pe.eventId)
    usedK.add(ke.eventId)
    const pairs: [Outcome, Outcome][] = []
    if (m.outcomes !== undefined) {
      for (const o of m.outcomes) {
        const p = venuep.outcomesById.get(o.venuepOutcomeId)
        const k = venuek.outcomesById.get(o.venuekOutcomeId)
        if (p !== undefined && k !== undefined) pairs.push([p, k])
      }
    } else {
      pairs.push(...pairsByLabel(contractsOf(pe, cache), contractsOf(ke, cache)))
    }
    const explanation = (p: Outcome, k: Outcome): MatchExplanation => ({ quality: 'manual', weight: 1, manual: true, venuepOutcomeId: p.outcomeId, venuekOutcomeId: k.outcomeId, evidence: undefined, venuepText: [p.title, pe.title], venuekText: [k.title, ke.title] })
    const outcomes = pairs.map(([p, k]) => ({ venuep: p, venuek: k, outcomeKey: outcomeKey(p), quality: 'manual' as const, explanation: explanation(p, k) }))
    out.push({ venuepEventId: pe.eventId, venuekEventId: ke.eventId, strategy: 'manual_override', quality: 'manual', outcomes })
  }
  return out
}

function pairsByLabel(p: readonly ContractSpec[], k: readonly ContractSpec[]): [Outcome, Outcome][] {
  if (p.length === 1 && k.length === 1) return [[(p[0] as ContractSpec).outcome, (k[0] as ContractSpec).outcome]]
  const key = (c: ContractSpec) => [...new Set(contentWords(c.texts[0] ?? ''))].sort().join(' ')
  const byKey = new Map<string, ContractSpec[]>()
  for (const c of k) push(byKey, key(c), c)
  const pCounts = new Map<string, number>()
  for (const c of p) pCounts.set(key(c), (pCounts.get(key(c)) ?? 0) + 1)
  const out: [Outcome, Outcome][] = []
  for (const c of p) {
    const kk = key(c)
    const hits = byKey.get(kk)
    if (kk !== '' && hits?.length === 1 && pCounts.get(kk) === 1) out.push([c.outcome, (hits[0] as ContractSpec).outcome])
  }
  return out
}

function denyIndex(rules: readonly DenyRule[]): (p: ContractSpec, k: ContractSpec) => boolean {
  if (rules.length === 0) return () => false
  const events = new Set<string>()
  const outcomes = new Set<string>()
  for (const r of rules) {
    if (r.venuepOutcomeId === undefined || r.venuekOutcomeId === undefined) events.add(`${r.venuepEventId}\u0000${r.venuekEventId}`)
    else outcomes.add(`${r.venuepOutcomeId}\u0000${r.venuekOutcomeId}`)
  }
  return (p, k) => events.has(`${p.event.eventId}\u0000${k.event.eventId}`) || outcomes.has(`${p.outcome.outcomeId}\u0000${k.outcome.outcomeId}`)
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else list.push(value)
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
