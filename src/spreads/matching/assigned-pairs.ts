import { addTo } from '../../core/multimap.js'
import { lowerBound } from '../../core/arrays.js'
import type { Steps } from '../../core/slices.js'
import type { MatchWeights } from './calibration.js'
import type { ContractSpec } from './contract.js'
import type { EventMatch } from './match-types.js'
import {
  assignOneToOneSteps,
  byEvents,
  compare,
  groupByEventsSteps,
  groupKey,
  groupMatch,
  isAssigned,
  type Accepted,
} from './pair-assignment.js'

/**
 * The matcher's published automatic matches, kept between updates (matcher.ts `MatchState`): which accepted pairs are
 * assigned one to one, their groups by pair of events, and each group's match, in order. A full build assigns and
 * groups every accepted pair (pair-assignment.ts); an update after a few events changed redoes only what the pairs
 * accepted or dropped since can reach.
 *
 * Why that is exact: whether a pair is assigned depends only on the accepted pairs of its two contracts
 * (`isAssigned`). A contract whose pairs changed is marked (`touched`); the pairs of marked contracts, and the pairs
 * assigned to them before, are the only ones whose assignment can differ; a group's match depends only on its
 * assigned pairs, so only the groups those pairs enter or leave are made again. Every other match is the same object
 * as before, which tells the consumers what did not change. Pairs are kept by contract object, which is the
 * outcome's identity when each catalog lists every id once (`idsOnce`); otherwise the matcher builds whole.
 * test/spreads/matching/incremental-matching.property.test.ts checks updates against full runs.
 */
export class AssignedPairs {
  readonly #ofA = new Map<ContractSpec, Accepted>()
  readonly #ofB = new Map<ContractSpec, Accepted>()
  readonly #groups = new Map<string, Accepted[]>()
  readonly #matchOf = new Map<string, EventMatch>()
  /** Every group's match, by A's event id then B's. */
  #sorted: EventMatch[] = []
  #weights: MatchWeights | undefined
  /** Contracts whose accepted pairs changed since the last build or update. */
  readonly #touchedA = new Set<ContractSpec>()
  readonly #touchedB = new Set<ContractSpec>()

  /** The automatic matches of the last build or update (a new array each time; never changed after). */
  get matches(): readonly EventMatch[] {
    return this.#sorted
  }

  /** Whether an update can follow: built once, under the same weights. */
  canUpdate(weights: MatchWeights): boolean {
    return this.#weights === weights
  }

  /** Whether any contract's accepted pairs changed since the last build or update. */
  get dirty(): boolean {
    return this.#touchedA.size > 0 || this.#touchedB.size > 0
  }

  /** A pair was accepted, or dropped with one of its contracts. */
  touched(x: Accepted): void {
    this.#touchedA.add(x.a)
    this.#touchedB.add(x.b)
  }

  clear(): void {
    this.#ofA.clear()
    this.#ofB.clear()
    this.#groups.clear()
    this.#matchOf.clear()
    this.#sorted = []
    this.#weights = undefined
    this.#touchedA.clear()
    this.#touchedB.clear()
  }

  /** Assigns and groups every accepted pair (`accepted`) from nothing. */
  *buildSteps(accepted: readonly Accepted[], weights: MatchWeights): Steps<readonly EventMatch[]> {
    this.clear()
    const assigned = yield* assignOneToOneSteps(accepted)
    const matches = yield* groupByEventsSteps(assigned, weights)
    // Assigned pairs are sorted by A's outcome id: each group's list is in its match's order.
    for (const x of assigned) this.#assign(x)
    for (const m of matches) this.#matchOf.set(`${m.a.eventId}\u0000${m.b.eventId}`, m)
    this.#sorted = matches
    this.#weights = weights
    return matches
  }

  /**
   * Brings the matches up to the accepted pairs now (`pairsOfA`, `pairsOfB`: each contract's), after the changes
   * `touched` marked. Returns the matches that left and came (the same group with other pairs is both).
   */
  update(
    pairsOfA: ReadonlyMap<ContractSpec, readonly Accepted[]>,
    pairsOfB: ReadonlyMap<ContractSpec, readonly Accepted[]>,
  ): { readonly removed: readonly EventMatch[]; readonly added: readonly EventMatch[] } {
    const weights = this.#weights
    if (weights === undefined) throw new Error('AssignedPairs.update before a build')
    const regroup = new Set<string>()
    const candidates = new Set<Accepted>()
    for (const [touched, of, pairs] of [
      [this.#touchedA, this.#ofA, pairsOfA],
      [this.#touchedB, this.#ofB, pairsOfB],
    ] as const) {
      for (const c of touched) {
        const before = of.get(c)
        if (before !== undefined) regroup.add(this.#unassign(before))
        for (const x of pairs.get(c) ?? []) candidates.add(x)
      }
      touched.clear()
    }
    for (const x of candidates) {
      if (this.#ofA.get(x.a) === x) continue
      if (isAssigned(x, pairsOfA.get(x.a) ?? [], pairsOfB.get(x.b) ?? [])) regroup.add(this.#assign(x))
    }
    const removed: EventMatch[] = []
    const added: EventMatch[] = []
    for (const key of regroup) {
      const before = this.#matchOf.get(key)
      const list = this.#groups.get(key)
      if (before !== undefined) removed.push(before)
      if (list === undefined || list.length === 0) {
        this.#groups.delete(key)
        this.#matchOf.delete(key)
        continue
      }
      list.sort((x, y) => compare(x.a.outcome.outcomeId, y.a.outcome.outcomeId))
      const made = groupMatch(list, weights)
      this.#matchOf.set(key, made)
      added.push(made)
    }
    if (removed.length > 0 || added.length > 0) this.#sorted = replaced(this.#sorted, removed, added)
    return { removed, added }
  }

  /** Marks `x` assigned; returns its group's key. */
  #assign(x: Accepted): string {
    this.#ofA.set(x.a, x)
    this.#ofB.set(x.b, x)
    const key = groupKey(x)
    addTo(this.#groups, key, x)
    return key
  }

  /** Marks `x` not assigned; returns its group's key. */
  #unassign(x: Accepted): string {
    if (this.#ofA.get(x.a) === x) this.#ofA.delete(x.a)
    if (this.#ofB.get(x.b) === x) this.#ofB.delete(x.b)
    const key = groupKey(x)
    const list = this.#groups.get(key)
    const i = list?.indexOf(x) ?? -1
    if (list !== undefined && i >= 0) list.splice(i, 1)
    return key
  }
}

/**
 * `sorted` (by events, one match per pair of events) without `removed` and with `added`, as a new array: a few binary
 * searches and one copy, not a sort of every match.
 */
function replaced(
  sorted: readonly EventMatch[],
  removed: readonly EventMatch[],
  added: readonly EventMatch[],
): EventMatch[] {
  const out = [...sorted]
  for (const m of removed) {
    const i = lowerBound(out, m, byEvents)
    if (out[i] === m) out.splice(i, 1)
  }
  for (const m of added) out.splice(lowerBound(out, m, byEvents), 0, m)
  return out
}
