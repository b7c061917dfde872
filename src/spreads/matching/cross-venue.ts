import type { CatalogSnapshot } from '../../actors/catalog-snapshot.js'
import type { VenueActor } from '../../actors/venue-actor.js'
import type { Logger } from '../../core/logger.js'
import type { CatalogEvent, VenueId } from '../../model/types.js'
import type { EventLink, LinksDelta } from '../../views/event-directory.js'
import { runInSlices, runToEnd, type Steps } from '../../core/slices.js'
import { MatchState, type EventMatch, type MatchInput, type MatchUpdate } from './matcher.js'
import { LinkState } from './link-state.js'
import { overridesFingerprint } from './match-file.js'
import type { MatchFileKeeper } from './match-file-keeper.js'
import type { OutcomePair } from './match-types.js'
import type { SpreadEngine, SpreadPairSpec } from '../engine/spread-engine.js'

/**
 * Keeps the cross-venue matching current: every pair of venues (A, B), A the earlier in registry order, has a
 * matcher state of its own. When a catalog changes, each pair's state is updated (only the events whose contracts
 * changed are judged again: matcher.ts `MatchState`), then the event links go to the read models (one service event
 * per pair; called after every catalog change, so the read models rebuild once per change) and the outcome pairs of
 * all pairs to the spread engine, re-resolved against the new catalogs.
 *
 * The first run judges everything (seconds of CPU at real catalog sizes), later ones what changed; both run in
 * slices (src/core/slices.ts) between requests. One run at a time; a catalog change during a run schedules one
 * more. Everything else proportional to the catalogs (resolving pair specs, installing them in the engine) runs in
 * slices too.
 *
 * With match files (`files`, match-file.ts), the first run of a pair of venues is seeded instead: the matches kept
 * from before the restart that still hold for the catalogs served are published at once, so the spreads are ready in
 * seconds, and the full run follows (once the service is ready, `fullRunAfterSeed`) and replaces them (`fromFile`
 * until it has).
 */
export interface CrossVenueOptions {
  /** The venue actors in registry order: every two of them, i < j, are matched as A = i, B = j. */
  readonly venues: readonly VenueActor[]
  readonly engine: SpreadEngine
  /**
   * The event links of every pair of venues; `delta`, when known, what changed since the last call's (every other
   * link is the same object). The same array when nothing changed.
   */
  readonly onLinks: (links: readonly EventLink[], delta?: LinksDelta) => void
  /** Manual matches and deny rules (config/matches.json), read anew at every run. */
  readonly overrides: () => MatchInput
  readonly log: Logger
  /**
   * The service's slug for a venue's event (the venue's view rule), which a pair's `event_slug` is: stable
   * whatever the links, and resolvable at /events/{slug}. Default: the venue's event id.
   */
  readonly eventSlug?: (venue: VenueId, event: CatalogEvent) => string
  /** Where the last matches are kept for a restart (match-file-keeper.ts); none when absent. */
  readonly files?: MatchFileKeeper
  /**
   * After a seed from the match files, the full run waits for this (the service ready from its files), so it does not
   * compete with the start's own work; at once when absent.
   */
  readonly fullRunAfterSeed?: Promise<void>
}

/** One pair of venues: its matcher state and what it last matched. */
interface VenuePair {
  readonly a: VenueActor
  readonly b: VenueActor
  /** Contracts, indexes and accepted pairs of the last run: a catalog change costs what changed (matcher.ts). */
  readonly state: MatchState
  matches: readonly EventMatch[]
  /** The catalogs and manual overrides the current matches were computed from. */
  matched: { readonly a: CatalogSnapshot; readonly b: CatalogSnapshot; readonly manual: string } | undefined
  /** The match file has been read (once, before the first run). */
  seedTried: boolean
  /** `matches` are the match file's, not yet replaced by a run of the matcher. */
  fromFile: boolean
  /** The spread specs last made, given back while unchanged (`pairSpecsSteps`). */
  readonly specs: SpecMemo
  /** Its event links, drawn again by what changed (link-state.ts). */
  readonly links: LinkState
  /** What changed in `matches` since the links were last drawn (undefined: not known, drawn whole; none at first). */
  changed: MatchUpdate['changedMatches']
  /** The spread specs last made, and the catalogs they were made from (`#specsKept`). */
  made:
    { readonly a: CatalogSnapshot; readonly b: CatalogSnapshot; readonly specs: readonly SpreadPairSpec[] } | undefined
}

const NOTHING_CHANGED = { removed: [], added: [] } as const

export class CrossVenueMatching {
  readonly #o: CrossVenueOptions
  readonly #pairs: readonly VenuePair[]
  #scheduled = false
  #running = false
  #runAgain = false
  #stopped = false
  readonly #unsubscribe: (() => void)[] = []
  /** The links last published, and each pair's array they were made of. */
  #published: { readonly parts: readonly (readonly EventLink[])[]; readonly links: readonly EventLink[] } | undefined
  /** Refreshes in which a matcher state was updated (tests and logs). */
  runs = 0
  /** What the last refresh's updates did (full or incremental, events changed, pairs judged), over all pairs. */
  lastUpdate: Omit<MatchUpdate, 'matches'> | undefined

  constructor(options: CrossVenueOptions) {
    this.#o = options
    const pairs: VenuePair[] = []
    const v = options.venues
    for (let i = 0; i < v.length; i++)
      for (let j = i + 1; j < v.length; j++)
        pairs.push({
          a: v[i] as VenueActor,
          b: v[j] as VenueActor,
          state: new MatchState(),
          matches: [],
          matched: undefined,
          seedTried: false,
          fromFile: false,
          specs: new SpecMemo(),
          links: new LinkState(),
          changed: undefined,
          made: undefined,
        })
    this.#pairs = pairs
  }

  /** The matches of every pair of venues, pair by pair in registry order. */
  get matches(): readonly EventMatch[] {
    return this.#pairs.length === 1 ? (this.#pairs[0] as VenuePair).matches : this.#pairs.flatMap((p) => p.matches)
  }

  /** No run is scheduled or running: links and pairs are those of the current catalogs. */
  get settled(): boolean {
    return !this.#scheduled && !this.#running
  }

  /** Some pair of venues is still served the matches of its match file: the matcher's first run is not done. */
  get fromFile(): boolean {
    return this.#pairs.some((p) => p.fromFile)
  }

  start(): void {
    for (const actor of this.#o.venues) this.#unsubscribe.push(actor.subscribeCatalog(() => this.#schedule()))
    this.#schedule()
  }

  stop(): void {
    this.#stopped = true
    for (const u of this.#unsubscribe.splice(0)) u()
  }

  /** The reviewers' overrides changed: match again with them (the run compares them with the last run's). */
  overridesChanged(): void {
    this.#schedule()
  }

  /** Re-evaluates now (also after manual overrides change); resolves once links and pairs are installed. */
  async refresh(force = false): Promise<void> {
    const ready = this.#pairs.flatMap((pair) => {
      const a = pair.a.catalog()
      const b = pair.b.catalog()
      return a === undefined || b === undefined ? [] : [{ pair, a, b }]
    })
    if (ready.length === 0) {
      // Nothing to match yet; the venues that have a catalog are still served.
      this.#published = undefined
      this.#o.onLinks([])
      return
    }
    const overrides = this.#o.overrides()
    const manualKey = JSON.stringify(overrides)
    const files = this.#o.files
    const fingerprint = files === undefined ? '' : overridesFingerprint(overrides)
    let updated: Omit<MatchUpdate, 'matches'> | undefined
    let seeded = false
    /** Pairs the matcher ran on, whose matches go to their files once the spreads are installed. */
    const matched: { matches: readonly EventMatch[]; a: CatalogSnapshot; b: CatalogSnapshot }[] = []
    for (const { pair, a, b } of ready) {
      const prev = pair.matched
      const same = !force && prev !== undefined && prev.manual === manualKey && prev.a === a && prev.b === b
      if (!same && files !== undefined && !pair.seedTried) {
        pair.seedTried = true
        const fromFile = await files.seed(a, b, fingerprint)
        if (this.#stopped) return
        if (fromFile !== undefined) {
          // Published below; `matched` stays unset, so the run scheduled at the end matches this pair in full.
          pair.matches = fromFile
          pair.changed = undefined
          pair.fromFile = seeded = true
          continue
        }
      }
      if (!same) {
        const started = Date.now()
        const update = await runInSlices(pair.state.updateSteps(a, b, overrides))
        if (this.#stopped) return
        pair.matches = update.matches
        // Changes not drawn yet (a run that failed before the links) and these together are not known: drawn whole.
        pair.changed = pair.changed === NOTHING_CHANGED ? update.changedMatches : undefined
        updated = {
          mode: updated?.mode === 'full' ? 'full' : update.mode,
          changedEvents: (updated?.changedEvents ?? 0) + update.changedEvents,
          judged: (updated?.judged ?? 0) + update.judged,
        }
        this.#o.log.info(
          {
            venues: [a.venue, b.venue],
            ms: Date.now() - started,
            mode: update.mode,
            changed_events: update.changedEvents,
            judged: update.judged,
            events: update.matches.length,
            outcomes: update.matches.reduce((n, m) => n + m.outcomes.length, 0),
          },
          'cross-venue matching',
        )
        pair.fromFile = false
        matched.push({ matches: pair.matches, a, b })
      }
      pair.matched = { a, b, manual: manualKey }
    }
    if (updated !== undefined) {
      this.runs++
      this.lastUpdate = updated
    }
    const drawn: { links: readonly EventLink[]; delta?: LinksDelta }[] = []
    const parts: (readonly SpreadPairSpec[])[] = []
    for (const { pair, a, b } of ready) {
      const changed = pair.changed
      drawn.push(pair.links.update(pair.matches, changed))
      pair.changed = NOTHING_CHANGED
      const kept = this.#specsKept(pair, changed, a, b)
      if (kept !== undefined) {
        parts.push(kept)
        continue
      }
      const slugOf = this.#o.eventSlug
      const keys: PairKeys = {
        qualifier: pairQualifier(this.#pairs.indexOf(pair), a.venue, b.venue),
        eventSlug: slugOf && ((e) => slugOf(a.venue, e)),
      }
      const made = await runInSlices(pairSpecsSteps(pair.matches, a, b, keys, pair.specs))
      if (this.#stopped) return
      pair.made = { a, b, specs: made }
      parts.push(made)
    }
    this.#publishLinks(drawn)
    // One pair of venues: its array itself (the engine tells an unchanged one by identity at once).
    const specs = parts.length === 1 ? (parts[0] as readonly SpreadPairSpec[]) : parts.flat()
    await this.#o.engine.setPairsInSlices(specs)
    // Written after the install: a start's spreads do not wait for its first match file.
    for (const m of matched) files?.matched(m.matches, m.a, m.b, fingerprint)
    if (seeded) void (this.#o.fullRunAfterSeed ?? Promise.resolve()).then(() => this.#schedule())
  }

  /**
   * The specs `pair` made last time, when they are what it would make now: no match changed (`changed` empty), and
   * each catalog is the one they were made from or changed since only in events no match has (the links' index of
   * them, link-state.ts). At real size most refreshed events are matched with nothing, and the pass over every match
   * a making costs (~150 ms at 35,000 matches) is saved. Undefined when they must be made.
   */
  #specsKept(
    pair: VenuePair,
    changed: MatchUpdate['changedMatches'],
    a: CatalogSnapshot,
    b: CatalogSnapshot,
  ): readonly SpreadPairSpec[] | undefined {
    const made = pair.made
    if (made === undefined || changed === undefined || changed.removed.length > 0 || changed.added.length > 0)
      return undefined
    const untouched = (side: 'a' | 'b', now: CatalogSnapshot, then: CatalogSnapshot): boolean => {
      if (now === then) return true
      const changes = now.changes
      if (changes === undefined || changes.since !== then.version || !now.idsOnce) return false
      for (const list of [changes.removed, changes.added])
        for (const e of list) if (pair.links.matches(side, e.eventId) !== false) return false
      return true
    }
    if (!untouched('a', a, made.a) || !untouched('b', b, made.b)) return undefined
    pair.made = { a, b, specs: made.specs }
    return made.specs
  }

  /**
   * Every pair's links to the read models: the array published last time when no pair's changed, with the changes when
   * every pair's are known.
   */
  #publishLinks(drawn: readonly { readonly links: readonly EventLink[]; readonly delta?: LinksDelta }[]): void {
    const last = this.#published
    const same =
      last !== undefined && last.parts.length === drawn.length && drawn.every((d, i) => d.links === last.parts[i])
    if (same) return this.#o.onLinks(last.links, NOTHING_CHANGED)
    const links = drawn.length === 1 ? (drawn[0]?.links ?? []) : drawn.flatMap((d) => d.links)
    const known = last !== undefined && last.parts.length === drawn.length && drawn.every((d) => d.delta !== undefined)
    const delta = known
      ? { removed: drawn.flatMap((d) => d.delta?.removed ?? []), added: drawn.flatMap((d) => d.delta?.added ?? []) }
      : undefined
    this.#published = { parts: drawn.map((d) => d.links), links }
    this.#o.onLinks(links, delta)
  }

  #schedule(): void {
    if (this.#running) {
      this.#runAgain = true
      return
    }
    if (this.#scheduled) return
    this.#scheduled = true
    setImmediate(() => {
      this.#scheduled = false
      this.#run()
    })
  }

  #run(): void {
    if (this.#stopped) return
    this.#running = true
    this.refresh().then(
      () => this.#finished(),
      (err: unknown) => {
        this.#o.log.error({ err }, 'cross-venue matching failed')
        this.#finished()
      },
    )
  }

  #finished(): void {
    this.#running = false
    if (this.#runAgain) {
      this.#runAgain = false
      this.#schedule()
    }
  }
}

/**
 * Outcome pairs as engine specs, resolved against the current catalogs of the pair's two venues (fresh volumes,
 * fees and URLs); pairs whose outcomes left a catalog are dropped. A pair's key is the service slug of leg A's
 * event (its venue's own slug for it, which the event directory resolves, linked or not) and outcome key. Every pair of venues after the registry's first one qualifies its outcome keys with
 * its two venues (`<key>@<venue A>+<venue B>`, `pairQualifier`): one outcome can have a gap to each of several
 * venues, and each gap needs its own key for history and alerts, while the first pair's keys stay as they were.
 */
export function pairSpecs(
  matches: readonly EventMatch[],
  a: CatalogSnapshot,
  b: CatalogSnapshot,
  keys: PairKeys = {},
): SpreadPairSpec[] {
  return runToEnd(pairSpecsSteps(matches, a, b, keys))
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
 * What `pairSpecsSteps` made last time for one pair of venues and keys: each spec by its outcome pair, and each
 * match's specs by its event A, with what they were made from.
 */
export class SpecMemo {
  readonly byPair = new WeakMap<OutcomePair, SpreadPairSpec>()
  readonly byEvent = new WeakMap<CatalogEvent, MatchSpecs>()
}

interface MatchSpecs {
  readonly eventB: CatalogEvent
  readonly strategy: EventMatch['strategy']
  readonly pairs: readonly OutcomePair[]
  /** The specs its pairs made, in order, before pairs with a key already taken were dropped. */
  readonly specs: readonly SpreadPairSpec[]
}

/**
 * `previous`: what was made last time for the same pair of venues and keys (SpecMemo). A spec is given back as the
 * same object when it would be made again field for field (the same outcome pair, outcome objects, event texts, URLs
 * and strategy), so the spread engine tells what changed by identity (SpreadEngine.setPairsInSlices). A match whose
 * two events are the objects it was made from, with the same outcome pairs and strategy, gives back its specs whole,
 * without a lookup per outcome or a key made again: with ids listed once (`idsOnce`), an unchanged event's outcomes
 * and markets are its own, and its slug is a function of it. So a refresh that changed few events costs little more
 * than a pass over the matches.
 */
export function* pairSpecsSteps(
  matches: readonly EventMatch[],
  a: CatalogSnapshot,
  b: CatalogSnapshot,
  keys: PairKeys = {},
  previous?: SpecMemo,
): Steps<SpreadPairSpec[]> {
  const specs: SpreadPairSpec[] = []
  const seen = new Set<string>()
  const memo = a.idsOnce && b.idsOnce ? previous?.byEvent : undefined
  let n = 0
  for (const m of matches) {
    if (++n % 128 === 0) yield
    const eventA = a.eventsById.get(m.a.eventId)
    const eventB = b.eventsById.get(m.b.eventId)
    if (eventA === undefined || eventB === undefined) continue
    const kept = memo?.get(eventA)
    const made =
      kept !== undefined && kept.eventB === eventB && kept.strategy === m.strategy && samePairs(kept.pairs, m.outcomes)
        ? kept.specs
        : matchSpecs(m, eventA, a, b, keys, previous?.byPair)
    if (made !== kept?.specs) memo?.set(eventA, { eventB, strategy: m.strategy, pairs: m.outcomes, specs: made })
    for (const spec of made) {
      if (seen.has(spec.key)) continue
      seen.add(spec.key)
      specs.push(spec)
    }
  }
  return specs
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
