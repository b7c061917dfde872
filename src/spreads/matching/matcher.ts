import type { CatalogSnapshot } from '../../actors/catalog-snapshot.js'
import { runToEnd, type Steps } from '../../core/slices.js'
import type { CatalogEvent, Outcome } from '../../model/types.js'
import { UNCALIBRATED, type MatchWeights } from './calibration.js'
import { contractsOf, readingsOf, rebind, sameReading, SpecCache, type ContractSpec, type Reading } from './contract.js'
import { addPosting } from './postings.js'
import { ContestIndex } from './contest-index.js'
import { LabelIndex, RequiredWordIndex, StatedWordIndex } from './contract-index.js'
import { judge, mayMatch } from './judge.js'
import type { DenyRule, EventMatch, ManualMatch, MatchExplanation, VenueEvent } from './match-types.js'
import { NO_ALIASES, type AliasLookup } from './names.js'
import { AssignedPairs } from './assigned-pairs.js'
import { outcomeKey, venueEvent, type Accepted } from './pair-assignment.js'
import { contentWords } from './text.js'

/**
 * Finds the same contract on two venues A and B (A the earlier in registry order), outcome by outcome
 * (docs/spreads.md). Precision first: a false match is a phantom spread shown to every user, so a pair is published
 * only when the judge (matching/judge.ts) finds the two contracts the same on what their texts state: the same
 * subject and role, the same threshold, the same period. Stages:
 *
 * 1. **Contracts** (matching/contract.ts): every tradable outcome read into words, a period and a threshold, cached
 *    by text across runs.
 * 2. **Candidates**: the judge requires each word of an A contract to be stated by the B side, so its candidates
 *    are the B contracts stating its rarest word (an index by word); nothing that could pass is left out, and busy
 *    catalogs stay cheap.
 * 3. **Judge** each candidate; **assign** one to one, best grade first; a contract with two equally good partners
 *    is ambiguous and pairs with neither (matching/pair-assignment.ts, as stage 4).
 * 4. **Events**: pairs are grouped by their two events. A group of several outcome pairs is `event_key`; a single
 *    pair `auto_canonical` when graded high, `normalized_title_fallback` when medium (spec 2.7). An event may pair
 *    outcomes with several events of the other venue (a deadline ladder against single questions).
 *
 * Manual matches (config/matches.json) win over automatic ones; deny rules remove automatic pairs. Both are read
 * for the two venues matched and ignored for others. `matchEventsSteps` is the same computation cut into slices
 * for the event loop (src/core/slices.ts).
 */
export type {
  DenyRule,
  DenySide,
  EventMatch,
  ManualMatch,
  MatchExplanation,
  MatchingStrategy,
  MatchLeg,
  MatchQuality,
  OutcomePair,
  VenueEvent,
} from './match-types.js'
import { pushAll } from '../../core/arrays.js'
export { eventLinks } from './pair-assignment.js'

export interface MatchInput {
  readonly manual?: readonly ManualMatch[]
  readonly deny?: readonly DenyRule[]
  /** Measured worth of each quality (config/match-calibration.json); UNCALIBRATED when absent. */
  readonly weights?: MatchWeights
  /**
   * Reviewed name aliases (config/aliases.json, aliases.ts) and their version: a new version matches everything
   * again, as a change of overrides does.
   */
  readonly aliases?: { readonly lookup: AliasLookup; readonly version: string }
}

/** Events between two slice checkpoints. */
const CHECKPOINT_EVERY = 64
/** Candidates examined between two slice checkpoints (a common word can have thousands of holders). */
const JUDGED_PER_CHECKPOINT = 2_048
/** Contracts put into a blocking index between two slice checkpoints (a few microseconds each). */
const INDEXED_PER_CHECKPOINT = 256

/** The matches between venue A's catalog `a` and venue B's `b`. */
export function matchEvents(
  a: CatalogSnapshot | undefined,
  b: CatalogSnapshot | undefined,
  input: MatchInput = {},
  cache = new SpecCache(),
): EventMatch[] {
  return runToEnd(matchEventsSteps(a, b, input, cache))
}

/** One full run from nothing (the same as a first `MatchState.update`). */
export function* matchEventsSteps(
  a: CatalogSnapshot | undefined,
  b: CatalogSnapshot | undefined,
  input: MatchInput,
  cache: SpecCache,
): Steps<EventMatch[]> {
  return (yield* new MatchState(cache).updateSteps(a, b, input)).matches
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
  /**
   * The automatic matches that left and came, when the update found them by what changed (every other automatic
   * match is the object the last update gave); undefined when it built them from nothing.
   */
  readonly changedMatches?: { readonly removed: readonly EventMatch[]; readonly added: readonly EventMatch[] }
}

/**
 * The matcher's state between catalog versions of one pair of venues: every contract of both catalogs, the blocking indexes
 * (matching/contract-index.ts) and every pair the judge accepted. An update reads each event's contracts again
 * (cheap: the spec cache keeps them by text), and only events whose contracts changed are taken out and put back:
 * their pairs are dropped and their contracts judged against the other venue's. Assignment and grouping then run
 * over the accepted pairs (a few per contract). A refresh of two real-size catalogs in which a few hundred events
 * changed costs the diff, not the ~N² of blocking everything again.
 *
 * The result is exactly that of a full run on the same catalogs: the accepted set is every pair the judge accepts
 * among exact candidates, whichever way they were found, and assignment and grouping do not depend on its order
 * (test/spreads/matching/incremental-matching.property.test.ts checks it against full runs over random changes).
 *
 * Bounded: it holds one entry per contract of the current catalogs (removed events are dropped at the update that
 * sees them go) and the accepted pairs among them.
 */
export class MatchState {
  readonly #cache: SpecCache
  readonly #sideA = new Map<string, EventContracts>()
  readonly #sideB = new Map<string, EventContracts>()
  readonly #aIndex = new RequiredWordIndex()
  readonly #bIndex = new StatedWordIndex()
  /** Head-to-head contracts are blocked apart (contest-index.ts): they pair only with each other. */
  readonly #aContests = new ContestIndex(NO_ALIASES)
  readonly #bContests = new ContestIndex(NO_ALIASES)
  /** Labelled contracts whose labels agree without sharing a first word (contract-index.ts LabelIndex). */
  readonly #aLabels = new LabelIndex(NO_ALIASES)
  readonly #bLabels = new LabelIndex(NO_ALIASES)
  #aliases: AliasLookup = NO_ALIASES
  /** Accepted pairs by each side's contract. */
  readonly #byA = new Map<ContractSpec, readonly Accepted[]>()
  readonly #byB = new Map<ContractSpec, readonly Accepted[]>()
  /** The accepted pairs assigned one to one and grouped into the automatic matches (assigned-pairs.ts). */
  readonly #assigned = new AssignedPairs()
  /** The catalog each side holds (a later snapshot's `changes` since its version are all an update reads). */
  #heldA: CatalogSnapshot | undefined
  #heldB: CatalogSnapshot | undefined
  /** The overrides (manual outcomes taken out of automatic matching, deny rules) the state was built under. */
  #overridesKey: string | undefined

  constructor(cache = new SpecCache()) {
    this.#cache = cache
  }

  /** Contracts held (both venues): the state's size. */
  get contracts(): number {
    let n = 0
    for (const e of this.#sideA.values()) n += e.specs.length
    for (const e of this.#sideB.values()) n += e.specs.length
    return n
  }

  /** Brings the state to venue A's catalog `a` and venue B's `b` (always the same two venues, in that order). */
  *updateSteps(a: CatalogSnapshot | undefined, b: CatalogSnapshot | undefined, input: MatchInput): Steps<MatchUpdate> {
    if (a === undefined || b === undefined) return { matches: [], mode: 'full', changedEvents: 0, judged: 0 }
    const weights = input.weights ?? UNCALIBRATED
    const between = (r: { readonly a: VenueEvent; readonly b: VenueEvent }) =>
      r.a.venue === a.venue && r.b.venue === b.venue
    const manual = manualMatches(a, b, (input.manual ?? []).filter(between), this.#cache)
    const deny = (input.deny ?? []).filter(between)
    const usedA = new Set<string>()
    const usedB = new Set<string>()
    for (const m of manual) for (const o of m.outcomes) (usedA.add(o.a.outcomeId), usedB.add(o.b.outcomeId))
    const aliases = input.aliases ?? { lookup: NO_ALIASES, version: '' }
    const overridesKey = JSON.stringify([[...usedA].sort(), [...usedB].sort(), deny, aliases.version])
    const mode = this.#overridesKey === overridesKey ? 'incremental' : 'full'
    if (mode === 'full') this.#clear(aliases.lookup)
    this.#overridesKey = overridesKey
    this.#cache.aliases = aliases.lookup

    // Take out what changed or left, put in what is new; judge only the new contracts.
    const newB = yield* this.#sync(this.#sideB, b, this.#heldB, usedB, 'b')
    const newA = yield* this.#sync(this.#sideA, a, this.#heldA, usedA, 'a')
    this.#heldA = a
    this.#heldB = b
    // Indexing a whole catalog (a full run) is ~0.2 s: checkpoints keep it in slices.
    for (let i = 0; i < newB.added.length; i++) {
      const c = newB.added[i] as ContractSpec
      if (c.contest !== undefined) this.#bContests.add(c)
      else (this.#bIndex.add(c), this.#bLabels.add(c))
      if (i % INDEXED_PER_CHECKPOINT === INDEXED_PER_CHECKPOINT - 1) yield
    }
    for (let i = 0; i < newA.added.length; i++) {
      const c = newA.added[i] as ContractSpec
      if (c.contest !== undefined) this.#aContests.add(c)
      else (this.#aIndex.add(c, this.#bIndex), this.#aLabels.add(c))
      if (i % INDEXED_PER_CHECKPOINT === INDEXED_PER_CHECKPOINT - 1) yield
    }
    const denied = denyIndex(deny)
    let judged = 0
    let work = 0
    const consider = (x: ContractSpec, y: ContractSpec): void => {
      judged++
      work++
      if ((x.contest === undefined && !mayMatch(x, y)) || denied(x, y)) return
      const j = judge(x, y, false, this.#aliases)
      if (j.same) this.#accept({ a: x, b: y, grade: j.grade, evidence: this.#cache.parts.evidence(j.evidence) })
    }
    for (const x of newA.added) {
      if (x.contest !== undefined) for (const y of this.#bContests.candidatesOf(x)) consider(x, y)
      else for (const y of union(this.#bIndex.candidatesOf(x), this.#bLabels.candidatesOf(x))) consider(x, y)
      if ((work += JUDGED_PER_CHECKPOINT / CHECKPOINT_EVERY) >= JUDGED_PER_CHECKPOINT) (yield, (work = 0))
    }
    // New B contracts against the A contracts that were already there (new ones met them above). A full run has no
    // such contracts.
    if (mode === 'incremental' && newB.added.length > 0) {
      const fresh = new Set(newA.added)
      for (const y of newB.added) {
        const candidates =
          y.contest !== undefined
            ? this.#aContests.candidatesOf(y)
            : union(this.#aIndex.candidatesOf(y), this.#aLabels.candidatesOf(y))
        for (const x of candidates) if (!fresh.has(x)) consider(x, y)
        if ((work += JUDGED_PER_CHECKPOINT / CHECKPOINT_EVERY) >= JUDGED_PER_CHECKPOINT) (yield, (work = 0))
      }
    }
    // The held contracts are all the state needs; the cache's readings would only double them (SpecCache.clear).
    this.#cache.clear()
    const changedEvents = newA.changedEvents + newB.changedEvents
    // Only what the pairs accepted and dropped reach is assigned and grouped again (none: the usual refresh).
    if (mode === 'incremental' && a.idsOnce && b.idsOnce && this.#assigned.canUpdate(weights)) {
      const changedMatches = this.#assigned.update(this.#byA, this.#byB)
      return { matches: [...manual, ...this.#assigned.matches], mode, changedEvents, judged, changedMatches }
    }
    const accepted: Accepted[] = []
    for (const list of this.#byA.values()) for (const x of list) accepted.push(x)
    yield
    const automatic = yield* this.#assigned.buildSteps(accepted, weights)
    return { matches: [...manual, ...automatic], mode, changedEvents, judged }
  }

  #clear(aliases: AliasLookup): void {
    this.#assigned.clear()
    this.#heldA = this.#heldB = undefined
    for (const side of [this.#sideA, this.#sideB]) side.clear()
    this.#byA.clear()
    this.#byB.clear()
    this.#aIndex.clear()
    this.#bIndex.clear()
    this.#aContests.clear(aliases)
    this.#bContests.clear(aliases)
    this.#aLabels.clear(aliases)
    this.#bLabels.clear(aliases)
    this.#aliases = aliases
  }

  /**
   * Brings one venue's contracts in line with its catalog: an event whose contracts read the same keeps them (pointed
   * at the new catalog's objects); one that changed or left has its contracts and their pairs removed. Returns the
   * contracts to add. When the snapshot says what changed since the catalog `held` was synced to (`synced`), only
   * those events are read; else every event is.
   */
  *#sync(
    held: Map<string, EventContracts>,
    catalog: CatalogSnapshot,
    synced: CatalogSnapshot | undefined,
    used: ReadonlySet<string>,
    side: Side,
  ): Steps<{ added: ContractSpec[]; changedEvents: number }> {
    const added: ContractSpec[] = []
    let changedEvents = 0
    const take = (event: CatalogEvent): void => {
      const before = held.get(event.eventId)
      if (before !== undefined && before.event === event) return
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
    }
    const leave = (id: string, before: EventContracts): void => {
      this.#drop(before.specs, side)
      held.delete(id)
      changedEvents++
    }
    // The catalog held: nothing to read.
    if (synced === catalog) return { added, changedEvents }
    const changes = catalog.changes
    if (changes !== undefined && changes.since === synced?.version && catalog.idsOnce) {
      const listed = new Set<string>()
      for (let i = 0; i < changes.added.length; i++) {
        const event = changes.added[i] as CatalogEvent
        listed.add(event.eventId)
        take(event)
        if (i % CHECKPOINT_EVERY === 0) yield
      }
      for (const event of changes.removed) {
        const before = held.get(event.eventId)
        if (before !== undefined && !listed.has(event.eventId)) leave(event.eventId, before)
      }
      return { added, changedEvents }
    }
    const seen = new Set<string>()
    const events = catalog.events
    for (let i = 0; i < events.length; i++) {
      const event = events[i] as CatalogEvent
      seen.add(event.eventId)
      take(event)
      if (i % CHECKPOINT_EVERY === 0) yield
    }
    for (const [id, before] of held) if (!seen.has(id)) leave(id, before)
    return { added, changedEvents }
  }

  #drop(specs: readonly ContractSpec[], side: Side): void {
    const [mine, theirs, other] =
      side === 'a' ? [this.#byA, this.#byB, 'b' as const] : [this.#byB, this.#byA, 'a' as const]
    for (const c of specs) {
      if (c.contest !== undefined) (side === 'a' ? this.#aContests : this.#bContests).remove(c)
      else if (side === 'a') (this.#aIndex.remove(c), this.#aLabels.remove(c))
      else (this.#bIndex.remove(c), this.#bLabels.remove(c))
      for (const x of mine.get(c) ?? []) {
        this.#assigned.touched(x)
        const list = theirs.get(x[other])
        if (list === undefined) continue
        const kept = list.filter((y) => y !== x)
        if (kept.length === 0) theirs.delete(x[other])
        else theirs.set(x[other], kept)
      }
      mine.delete(c)
    }
  }

  #accept(x: Accepted): void {
    this.#assigned.touched(x)
    addPosting(this.#byA, x.a, x)
    addPosting(this.#byB, x.b, x)
  }
}

type Side = 'a' | 'b'

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

/**
 * Manual matches: the listed outcome pairs, or, without a list, the outcomes whose labels say the same (the
 * judge's word test on the labels alone; yes/no questions pair their YES sides). The reviewer vouches for the rest.
 */
function manualMatches(
  a: CatalogSnapshot,
  b: CatalogSnapshot,
  manual: readonly ManualMatch[],
  cache: SpecCache,
): EventMatch[] {
  const out: EventMatch[] = []
  const usedA = new Set<string>()
  const usedB = new Set<string>()
  for (const m of manual) {
    const ae = a.eventsById.get(m.a.eventId)
    const be = b.eventsById.get(m.b.eventId)
    if (ae === undefined || be === undefined || usedA.has(ae.eventId) || usedB.has(be.eventId)) continue
    usedA.add(ae.eventId)
    usedB.add(be.eventId)
    const pairs: [Outcome, Outcome][] = []
    if (m.outcomes !== undefined) {
      for (const o of m.outcomes) {
        const x = a.outcomesById.get(o.a)
        const y = b.outcomesById.get(o.b)
        if (x !== undefined && y !== undefined) pairs.push([x, y])
      }
    } else {
      pushAll(pairs, pairsByLabel(contractsOf(ae, cache), contractsOf(be, cache)))
    }
    const explanation = (x: Outcome, y: Outcome): MatchExplanation => ({
      quality: 'manual',
      weight: 1,
      manual: true,
      a: { venue: x.venue, outcomeId: x.outcomeId, text: [x.title, ae.title] },
      b: { venue: y.venue, outcomeId: y.outcomeId, text: [y.title, be.title] },
      evidence: undefined,
    })
    const outcomes = pairs.map(([x, y]) => ({
      a: x,
      b: y,
      outcomeKey: outcomeKey(x),
      quality: 'manual' as const,
      explanation: explanation(x, y),
    }))
    out.push({ a: venueEvent(ae), b: venueEvent(be), strategy: 'manual_override', quality: 'manual', outcomes })
  }
  return out
}

function pairsByLabel(a: readonly ContractSpec[], b: readonly ContractSpec[]): [Outcome, Outcome][] {
  if (a.length === 1 && b.length === 1) return [[(a[0] as ContractSpec).outcome, (b[0] as ContractSpec).outcome]]
  const key = (c: ContractSpec) => [...new Set(contentWords(c.texts[0] ?? ''))].sort().join(' ')
  const byKey = new Map<string, readonly ContractSpec[]>()
  for (const c of b) addPosting(byKey, key(c), c)
  const aCounts = new Map<string, number>()
  for (const c of a) aCounts.set(key(c), (aCounts.get(key(c)) ?? 0) + 1)
  const out: [Outcome, Outcome][] = []
  for (const c of a) {
    const k = key(c)
    const hits = byKey.get(k)
    if (k !== '' && hits?.length === 1 && aCounts.get(k) === 1) out.push([c.outcome, (hits[0] as ContractSpec).outcome])
  }
  return out
}

function denyIndex(rules: readonly DenyRule[]): (a: ContractSpec, b: ContractSpec) => boolean {
  if (rules.length === 0) return () => false
  const events = new Set<string>()
  const outcomes = new Set<string>()
  for (const r of rules) {
    if (r.a.outcomeId === undefined || r.b.outcomeId === undefined) events.add(`${r.a.eventId}\u0000${r.b.eventId}`)
    else outcomes.add(`${r.a.outcomeId}\u0000${r.b.outcomeId}`)
  }
  return (a, b) =>
    events.has(`${a.event.eventId}\u0000${b.event.eventId}`) ||
    outcomes.has(`${a.outcome.outcomeId}\u0000${b.outcome.outcomeId}`)
}

/** The candidates of two lookups, each once (the label index finds few, mostly found by words too). */
function union(x: readonly ContractSpec[], y: readonly ContractSpec[]): readonly ContractSpec[] {
  if (y.length === 0) return x
  const seen = new Set(x)
  return [...x, ...y.filter((c) => !seen.has(c))]
}
