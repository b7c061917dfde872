import type { CatalogSnapshot } from '../../actors/catalog-snapshot.js'
import { withoutThenWith } from '../../core/arrays.js'
import { addTo, removeFrom } from '../../core/multimap.js'
import { runToEnd, type Steps } from '../../core/slices.js'
import type { CatalogEvent, VenueId } from '../../model/types.js'
import type { SpreadPairSpec, SpecsChange } from '../engine/types.js'
import type { EventMatch, MatchUpdate } from './matcher.js'
import type { OutcomePair } from './match-types.js'

/**
 * Outcome pairs as engine specs, resolved against the current catalogs of the pair's two venues (fresh volumes,
 * fees and URLs); pairs whose outcomes left a catalog are dropped. A pair's key is the service slug of leg A's
 * event (its venue's own slug for it, which the event directory resolves, linked or not) and outcome key. Every
 * pair of venues after the registry's first one qualifies its outcome keys with its two venues
 * (`<key>@<venue A>+<venue B>`, `pairQualifier`): one outcome can have a gap to each of several venues, and each gap
 * needs its own key for history and alerts, while the first pair's keys stay as they were. The first making of a
 * key wins when two matches make it (in match order).
 */
export function pairSpecs(
  matches: readonly EventMatch[],
  a: CatalogSnapshot,
  b: CatalogSnapshot,
  keys: PairKeys = {},
): readonly SpreadPairSpec[] {
  return runToEnd(madeWholeSteps(matches, a, b, keys, new SpecMemo())).specs
}

/** How a pair of venues names its spreads (see pairSpecs). */
export interface PairKeys {
  /** Appended to every outcome key (`pairQualifier`); none for the first pair of venues. */
  readonly qualifier?: string
  /** The service slug of leg A's event; its event id when absent. */
  readonly eventSlug?: (event: CatalogEvent) => string
}

/** The outcome-key qualifier of the pair of venues at `index` among all pairs in registry order (see pairSpecs). */
export function pairQualifier(index: number, a: VenueId, b: VenueId): string {
  return index === 0 ? '' : `@${a}+${b}`
}

/**
 * What was made last time for one pair of venues and keys: each spec by its outcome pair, and each match's specs by
 * its event A, with what they were made from (`specsOfMatch`).
 */
export class SpecMemo {
  readonly byPair = new WeakMap<OutcomePair, SpreadPairSpec>()
  readonly byEvent = new WeakMap<CatalogEvent, MatchSpecs>()
}

interface MatchSpecs {
  readonly eventB: CatalogEvent
  readonly strategy: EventMatch['strategy']
  readonly pairs: readonly OutcomePair[]
  /** The specs its pairs made, in order, before specs with a key already taken were dropped. */
  readonly specs: readonly SpreadPairSpec[]
}

/**
 * One match's specs. A spec is given back as the same object when it would be made again field for field (the same
 * outcome pair, outcome objects, event texts, URLs and strategy: `memo.byPair`), so the spread engine tells what
 * changed by identity. A match whose two events are the objects it was made from, with the same outcome pairs and
 * strategy, gives back its specs whole (`memo.byEvent`), without a lookup per outcome or a key made again: with ids
 * listed once (`idsOnce`), an unchanged event's outcomes and markets are its own, and its slug is a function of it.
 */
function specsOfMatch(
  m: EventMatch,
  eventA: CatalogEvent,
  eventB: CatalogEvent,
  a: CatalogSnapshot,
  b: CatalogSnapshot,
  keys: PairKeys,
  memo: SpecMemo,
): readonly SpreadPairSpec[] {
  const byEvent = a.idsOnce && b.idsOnce ? memo.byEvent : undefined
  const kept = byEvent?.get(eventA)
  if (kept !== undefined && kept.eventB === eventB && kept.strategy === m.strategy && samePairs(kept.pairs, m.outcomes))
    return kept.specs
  const made = matchSpecs(m, eventA, a, b, keys, memo.byPair)
  byEvent?.set(eventA, { eventB, strategy: m.strategy, pairs: m.outcomes, specs: made })
  return made
}

function samePairs(x: readonly OutcomePair[], y: readonly OutcomePair[]): boolean {
  if (x.length !== y.length) return false
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false
  return true
}

/** One match's specs, each pair's made again or given back by `byPair` when field for field the same. */
function matchSpecs(
  m: EventMatch,
  eventA: CatalogEvent,
  a: CatalogSnapshot,
  b: CatalogSnapshot,
  keys: PairKeys,
  byPair: WeakMap<OutcomePair, SpreadPairSpec> | undefined,
): SpreadPairSpec[] {
  const qualifier = keys.qualifier ?? ''
  const eventSlug = keys.eventSlug?.(eventA) ?? eventA.eventId
  const specs: SpreadPairSpec[] = []
  for (const pair of m.outcomes) {
    const outcomeA = a.outcomesById.get(pair.a.outcomeId)
    const outcomeB = b.outcomesById.get(pair.b.outcomeId)
    if (outcomeA === undefined || outcomeB === undefined) continue
    const outcomeKey = `${pair.outcomeKey}${qualifier}`
    const key = `${eventSlug}|${outcomeKey}`
    const urlA = a.marketsById.get(outcomeA.marketId)?.url ?? eventA.url
    const urlB = b.marketsById.get(outcomeB.marketId)?.url ?? ''
    const made = byPair?.get(pair)
    if (
      made !== undefined &&
      made.key === key &&
      made.a.outcome === outcomeA &&
      made.b.outcome === outcomeB &&
      made.eventTitle === eventA.title &&
      made.category === eventA.category &&
      made.a.url === urlA &&
      made.b.url === urlB &&
      made.strategy === m.strategy
    ) {
      specs.push(made)
      continue
    }
    const spec: SpreadPairSpec = {
      key,
      eventSlug,
      eventTitle: eventA.title,
      category: eventA.category,
      outcomeKey,
      outcomeTitle: outcomeA.title,
      a: { venue: outcomeA.venue, outcome: outcomeA, url: urlA },
      b: { venue: outcomeB.venue, outcome: outcomeB, url: urlB },
      strategy: m.strategy,
      quality: pair.quality,
      match: pair.explanation,
    }
    byPair?.set(pair, spec)
    specs.push(spec)
  }
  return specs
}

/**
 * One pair of venues' spread specs kept between refreshes, made again by what changed: the matches that left and came
 * (the matcher's `changedMatches`) and the matched events whose objects a patched catalog replaced
 * (`CatalogSnapshot.changes`). Only those matches' specs are made (or given back: `specsOfMatch`);
 * every other spec stays, and the engine is told the change (`SpecsChange`), so a refresh that changed one event
 * costs that event's specs, not a pass over every match (~120 ms at 46,000 pairs). Whatever it cannot tell by changes
 * (the first making, manual matches, catalogs built whole, a key two matches make) it makes whole, as
 * `pairSpecs`; either way the specs are the same set (their order may differ: nothing reads them in an order).
 */
export class PairSpecState {
  readonly #keys: PairKeys
  readonly #memo = new SpecMemo()
  #made: Made | undefined

  constructor(keys: PairKeys = {}) {
    this.#keys = keys
  }

  /**
   * The specs of `matches` against catalogs `a` and `b`; `changed`: what changed in `matches` since the last update
   * (undefined: not known). `change` says what changed in the specs when it is known (the array itself is the last
   * one when nothing did).
   */
  *updateSteps(
    matches: readonly EventMatch[],
    changed: MatchUpdate['changedMatches'],
    a: CatalogSnapshot,
    b: CatalogSnapshot,
  ): Steps<{ readonly specs: readonly SpreadPairSpec[]; readonly change?: SpecsChange }> {
    const patched = this.#patch(matches, changed, a, b)
    if (patched !== undefined) return patched
    this.#made = yield* madeWholeSteps(matches, a, b, this.#keys, this.#memo)
    return { specs: this.#made.specs }
  }

  #patch(
    matches: readonly EventMatch[],
    changed: MatchUpdate['changedMatches'],
    a: CatalogSnapshot,
    b: CatalogSnapshot,
  ): { specs: readonly SpreadPairSpec[]; change: SpecsChange } | undefined {
    const made = this.#made
    if (made === undefined || changed === undefined || !a.idsOnce || !b.idsOnce) return undefined
    if (matches.some((m) => m.strategy === 'manual_override')) return undefined
    const eventsA = changedIds(a, made.a)
    const eventsB = changedIds(b, made.b)
    if (eventsA === undefined || eventsB === undefined) return undefined
    // The matches to make again: those that came, and those whose event on either side is a new object.
    const gone = new Set(changed.removed)
    const redo = new Set(changed.added)
    for (const id of eventsA) for (const m of made.matchesOf.a.get(id) ?? []) if (!gone.has(m)) redo.add(m)
    for (const id of eventsB) for (const m of made.matchesOf.b.get(id) ?? []) if (!gone.has(m)) redo.add(m)
    const from = made.specs
    if (gone.size === 0 && redo.size === 0) {
      this.#made = { ...made, a, b }
      return { specs: from, change: { from, removed: [], added: [] } }
    }
    // From here on `made` is patched in place: a bail-out makes everything whole, into new maps.
    this.#made = undefined
    const removed: SpreadPairSpec[] = []
    for (const m of [...gone, ...redo]) {
      for (const spec of made.specsOf.get(m) ?? []) {
        // Another match made this key too and lost it: which one holds it now is the whole making's order.
        if (made.contested.has(spec.key)) return undefined
        made.byKey.delete(spec.key)
        removed.push(spec)
      }
      made.specsOf.delete(m)
    }
    const added: SpreadPairSpec[] = []
    for (const m of redo) {
      const eventA = a.eventsById.get(m.a.eventId)
      const eventB = b.eventsById.get(m.b.eventId)
      const kept: SpreadPairSpec[] = []
      if (eventA !== undefined && eventB !== undefined) {
        for (const spec of specsOfMatch(m, eventA, eventB, a, b, this.#keys, this.#memo)) {
          if (made.byKey.has(spec.key)) return undefined
          made.byKey.set(spec.key, spec)
          kept.push(spec)
          added.push(spec)
        }
      }
      made.specsOf.set(m, kept)
    }
    for (const m of gone) (removeFrom(made.matchesOf.a, m.a.eventId, m), removeFrom(made.matchesOf.b, m.b.eventId, m))
    for (const m of changed.added) (addTo(made.matchesOf.a, m.a.eventId, m), addTo(made.matchesOf.b, m.b.eventId, m))
    // A spec made again field for field is the same object: it neither left nor came.
    const stays = new Set(added)
    const wasThere = new Set(removed)
    const left = new Set(removed.filter((s) => !stays.has(s)))
    const came = added.filter((s) => !wasThere.has(s))
    const specs = left.size === 0 && came.length === 0 ? from : withoutThenWith(from, left, came)
    this.#made = { ...made, a, b, specs }
    return { specs, change: { from, removed: [...left], added: came } }
  }
}

/** What a pair of venues' specs were last made of, and the indexes a patch reads (`PairSpecState`). */
interface Made {
  readonly a: CatalogSnapshot
  readonly b: CatalogSnapshot
  readonly specs: readonly SpreadPairSpec[]
  /** Each match's specs among `specs` (a spec whose key an earlier match took is not). */
  readonly specsOf: Map<EventMatch, readonly SpreadPairSpec[]>
  /** The matches by each side's event id. */
  readonly matchesOf: { readonly a: Map<string, EventMatch[]>; readonly b: Map<string, EventMatch[]> }
  readonly byKey: Map<string, SpreadPairSpec>
  /** Keys more than one match made (the first in match order holds it). */
  readonly contested: Set<string>
}

function* madeWholeSteps(
  matches: readonly EventMatch[],
  a: CatalogSnapshot,
  b: CatalogSnapshot,
  keys: PairKeys,
  memo: SpecMemo,
): Steps<Made> {
  const made: Made = {
    a,
    b,
    specs: [],
    specsOf: new Map(),
    matchesOf: { a: new Map(), b: new Map() },
    byKey: new Map(),
    contested: new Set(),
  }
  const specs = made.specs as SpreadPairSpec[]
  let n = 0
  for (const m of matches) {
    if (++n % 128 === 0) yield
    addTo(made.matchesOf.a, m.a.eventId, m)
    addTo(made.matchesOf.b, m.b.eventId, m)
    const eventA = a.eventsById.get(m.a.eventId)
    const eventB = b.eventsById.get(m.b.eventId)
    const kept: SpreadPairSpec[] = []
    if (eventA !== undefined && eventB !== undefined) {
      for (const spec of specsOfMatch(m, eventA, eventB, a, b, keys, memo)) {
        if (made.byKey.has(spec.key)) {
          made.contested.add(spec.key)
          continue
        }
        made.byKey.set(spec.key, spec)
        kept.push(spec)
        specs.push(spec)
      }
    }
    made.specsOf.set(m, kept)
  }
  return made
}

/**
 * The ids of the events of `now` that are not the objects of `then` (changed, new or gone), when `now` says so
 * (patched from `then` with its ids listed once); undefined when it cannot tell.
 */
function changedIds(now: CatalogSnapshot, then: CatalogSnapshot): Set<string> | undefined {
  if (now === then) return new Set()
  const changes = now.changes
  if (changes === undefined || changes.since !== then.version || !now.idsOnce) return undefined
  const ids = new Set<string>()
  for (const e of changes.removed) ids.add(e.eventId)
  for (const e of changes.added) ids.add(e.eventId)
  return ids
}
