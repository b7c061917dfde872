import { addTo, removeFrom } from '../../core/multimap.js'
import { lowerBound } from '../../core/arrays.js'
import type { EventLink, LinksDelta } from '../../views/event-directory.js'
import type { EventMatch } from './match-types.js'
import { byEvents, eventLinks } from './pair-assignment.js'

/** Past this share of the matches in the components a change reaches, the links are drawn whole. */
const MAX_REACHED_SHARE = 1 / 8

/**
 * The event links of one pair of venues (pair-assignment.ts `eventLinks`: each event at most once, the best-ranked
 * match first) kept between matcher runs, so that a run that changed a few matches redraws only the links those
 * matches can reach, and says which links changed.
 *
 * Why that is exact: the greedy draw takes a match when neither of its events is taken yet, in rank order, so a match
 * is taken or not by the matches it shares an event with, and theirs, and so on: its component in the graph of
 * events joined by matches. A change of matches redraws the components of the events it touches, in rank order; every
 * other component draws what it drew. The links are kept in rank order, as the whole draw lists them. With manual
 * matches (made anew at every run, and possibly over the same two events as an automatic one) every draw is whole.
 * test/spreads/matching/incremental-matching.property.test.ts checks updates against whole draws.
 */
export class LinkState {
  readonly #ofA = new Map<string, EventMatch[]>()
  readonly #ofB = new Map<string, EventMatch[]>()
  /** The match drawn as each event's link, by event id. */
  readonly #drawnOfA = new Map<string, EventMatch>()
  readonly #drawnOfB = new Map<string, EventMatch>()
  /** The drawn matches in rank order, and their links (the same order). */
  #drawn: EventMatch[] = []
  #links: EventLink[] = []
  #matches = 0
  #drawnWhole = false

  /**
   * The links of `matches`. `changed`: the automatic matches that left and came since the last call (MatchUpdate's
   * `changedMatches`), every other match being the object it was; undefined when not known (everything is drawn
   * again). Returns a new array, and the delta when the draw was by changes.
   */
  update(
    matches: readonly EventMatch[],
    changed: { readonly removed: readonly EventMatch[]; readonly added: readonly EventMatch[] } | undefined,
  ): { readonly links: readonly EventLink[]; readonly delta?: LinksDelta } {
    const manual = matches.some((m) => m.strategy === 'manual_override')
    if (changed === undefined || manual || !this.#drawnWhole) return { links: this.#drawWhole(matches, !manual) }
    if (changed.removed.length === 0 && changed.added.length === 0) return { links: this.#links, delta: NO_CHANGE }
    for (const m of changed.removed) (removeFrom(this.#ofA, m.a.eventId, m), removeFrom(this.#ofB, m.b.eventId, m))
    for (const m of changed.added) (addTo(this.#ofA, m.a.eventId, m), addTo(this.#ofB, m.b.eventId, m))
    this.#matches += changed.added.length - changed.removed.length
    // The components the changed matches reach: their events, joined along the matches.
    const reachedA = new Set<string>()
    const reachedB = new Set<string>()
    const queue: [side: 'a' | 'b', id: string][] = []
    for (const m of [...changed.removed, ...changed.added]) queue.push(['a', m.a.eventId], ['b', m.b.eventId])
    const reached = new Set<EventMatch>()
    while (queue.length > 0) {
      const [side, id] = queue.pop() as [side: 'a' | 'b', id: string]
      const seen = side === 'a' ? reachedA : reachedB
      if (seen.has(id)) continue
      seen.add(id)
      for (const m of (side === 'a' ? this.#ofA : this.#ofB).get(id) ?? []) {
        if (reached.has(m)) continue
        reached.add(m)
        queue.push(side === 'a' ? ['b', m.b.eventId] : ['a', m.a.eventId])
      }
      if (reached.size > MAX_REACHED_SHARE * Math.max(this.#matches, 1))
        return { links: this.#drawWhole(matches, true) }
    }
    // What those components drew before, and draw now.
    const before = new Set<EventMatch>()
    for (const id of reachedA) {
      const m = this.#drawnOfA.get(id)
      if (m !== undefined) (before.add(m), this.#drawnOfA.delete(id))
    }
    for (const id of reachedB) {
      const m = this.#drawnOfB.get(id)
      if (m !== undefined) (before.add(m), this.#drawnOfB.delete(id))
    }
    const now = new Set<EventMatch>()
    for (const m of [...reached].sort(byRank)) {
      if (this.#drawnOfA.has(m.a.eventId) || this.#drawnOfB.has(m.b.eventId)) continue
      this.#drawnOfA.set(m.a.eventId, m)
      this.#drawnOfB.set(m.b.eventId, m)
      now.add(m)
    }
    // A link redrawn over the same two events (its match regrouped) is the link it was: not a change.
    const left = new Map<string, EventLink>()
    const drawn = [...this.#drawn]
    const links = [...this.#links]
    for (const m of before) {
      if (now.has(m)) continue
      const i = lowerBound(drawn, m, byRank)
      if (drawn[i] !== m) throw new Error('LinkState: a drawn match is not in the drawn list')
      drawn.splice(i, 1)
      left.set(pairOf(m), links.splice(i, 1)[0] as EventLink)
    }
    const added: EventLink[] = []
    for (const m of now) {
      if (before.has(m)) continue
      const same = left.get(pairOf(m))
      const link = same ?? { a: m.a, b: m.b }
      if (same !== undefined) left.delete(pairOf(m))
      else added.push(link)
      const i = lowerBound(drawn, m, byRank)
      drawn.splice(i, 0, m)
      links.splice(i, 0, link)
    }
    const removed = [...left.values()]
    this.#drawn = drawn
    this.#links = links
    return { links, delta: { removed, added } }
  }

  /**
   * Whether some match of the last draw has venue A's (`side` a) or B's event `eventId`; undefined when the last draw
   * kept no index of them (a draw with manual matches).
   */
  matches(side: 'a' | 'b', eventId: string): boolean | undefined {
    if (!this.#drawnWhole) return undefined
    return (side === 'a' ? this.#ofA : this.#ofB).has(eventId)
  }

  /** Draws every link from `matches`; `keep`: holds what a later update by changes needs. */
  #drawWhole(matches: readonly EventMatch[], keep: boolean): readonly EventLink[] {
    this.#ofA.clear()
    this.#ofB.clear()
    this.#drawnOfA.clear()
    this.#drawnOfB.clear()
    this.#drawnWhole = keep
    this.#matches = matches.length
    if (!keep) {
      this.#drawn = []
      this.#links = []
      return eventLinks(matches)
    }
    for (const m of matches) (addTo(this.#ofA, m.a.eventId, m), addTo(this.#ofB, m.b.eventId, m))
    const drawn: EventMatch[] = []
    for (const m of [...matches].sort(byRank)) {
      if (this.#drawnOfA.has(m.a.eventId) || this.#drawnOfB.has(m.b.eventId)) continue
      this.#drawnOfA.set(m.a.eventId, m)
      this.#drawnOfB.set(m.b.eventId, m)
      drawn.push(m)
    }
    this.#drawn = drawn
    this.#links = drawn.map((m) => ({ a: m.a, b: m.b }))
    return this.#links
  }
}

const NO_CHANGE: LinksDelta = { removed: [], added: [] }

const pairOf = (m: EventMatch) => `${m.a.eventId}\u0000${m.b.eventId}`

/** `eventLinks`'s rank: manual matches first, then more outcome pairs, then by events. */
function byRank(x: EventMatch, y: EventMatch): number {
  return (
    (x.strategy === 'manual_override' ? 0 : 1) - (y.strategy === 'manual_override' ? 0 : 1) ||
    y.outcomes.length - x.outcomes.length ||
    byEvents(x, y)
  )
}
