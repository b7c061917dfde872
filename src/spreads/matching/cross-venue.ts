import type { CatalogSnapshot } from '../../actors/catalog-snapshot.js'
import type { VenueActor } from '../../actors/venue-actor.js'
import type { Logger } from '../../core/logger.js'
import type { CatalogEvent, VenueId } from '../../model/types.js'
import type { EventLink, LinksDelta } from '../../views/event-directory.js'
import { runInSlices } from '../../core/slices.js'
import { MatchState, type EventMatch, type MatchInput, type MatchUpdate } from './matcher.js'
import { LinkState } from './link-state.js'
import { overridesFingerprint } from './match-file.js'
import type { MatchFileKeeper } from './match-file-keeper.js'
import { joinParts, type Joined } from './joined-parts.js'
import { PairSpecState, pairQualifier } from './pair-specs.js'
import type { SpecsChange, SpreadEngine, SpreadPairSpec } from '../engine/spread-engine.js'

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
  /** Its spread specs, made again by what changed (pair-specs.ts). */
  readonly specs: PairSpecState
  /** Its event links, drawn again by what changed (link-state.ts). */
  readonly links: LinkState
  /** What changed in `matches` since the links were last drawn (undefined: not known, drawn whole; none at first). */
  changed: MatchUpdate['changedMatches']
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
  #published: Joined<EventLink> | undefined
  /** The specs last handed to the engine, and each pair's array they were made of. */
  #handed: Joined<SpreadPairSpec> | undefined
  /** Refreshes in which a matcher state was updated (tests and logs). */
  runs = 0
  /** What the last refresh's updates did (full or incremental, events changed, pairs judged), over all pairs. */
  lastUpdate: Omit<MatchUpdate, 'matches'> | undefined

  constructor(options: CrossVenueOptions) {
    this.#o = options
    const pairs: VenuePair[] = []
    const v = options.venues
    for (let i = 0; i < v.length; i++)
      for (let j = i + 1; j < v.length; j++) {
        const a = v[i] as VenueActor
        const b = v[j] as VenueActor
        const slugOf = options.eventSlug
        const keys = {
          qualifier: pairQualifier(pairs.length, a.venue, b.venue),
          eventSlug: slugOf && ((e: CatalogEvent) => slugOf(a.venue, e)),
        }
        pairs.push({
          a,
          b,
          state: new MatchState(),
          matches: [],
          matched: undefined,
          seedTried: false,
          fromFile: false,
          specs: new PairSpecState(keys),
          links: new LinkState(),
          changed: undefined,
        })
      }
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
            // A pass over every match: counted on full runs, where the matcher passed over everything anyway.
            ...(update.mode === 'full' ? { outcomes: update.matches.reduce((n, m) => n + m.outcomes.length, 0) } : {}),
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
    const made: { specs: readonly SpreadPairSpec[]; change?: SpecsChange }[] = []
    for (const { pair, a, b } of ready) {
      const changed = pair.changed
      drawn.push(pair.links.update(pair.matches, changed))
      pair.changed = NOTHING_CHANGED
      made.push(await runInSlices(pair.specs.updateSteps(pair.matches, changed, a, b)))
      if (this.#stopped) return
    }
    this.#publishLinks(drawn)
    const { specs, change } = this.#handOn(made)
    await this.#o.engine.setPairsInSlices(specs, change)
    // Written after the install: a start's spreads do not wait for its first match file.
    for (const m of matched) files?.matched(m.matches, m.a, m.b, fingerprint)
    if (seeded) void (this.#o.fullRunAfterSeed ?? Promise.resolve()).then(() => this.#schedule())
  }

  /**
   * Every pair's specs as one array for the engine, with what changed since the array handed last when every pair's
   * change is known (each pair's made from its part of that array).
   */
  #handOn(made: readonly { readonly specs: readonly SpreadPairSpec[]; readonly change?: SpecsChange }[]): {
    specs: readonly SpreadPairSpec[]
    change?: SpecsChange
  } {
    const last = this.#handed
    const deltas = made.map((m, i) =>
      m.change !== undefined && m.change.from === last?.parts[i] ? m.change : undefined,
    )
    const { joined, delta } = joinParts(
      last,
      made.map((m) => m.specs),
      deltas,
    )
    this.#handed = joined
    return delta === undefined || last === undefined
      ? { specs: joined.all }
      : { specs: joined.all, change: { from: last.all, ...delta } }
  }

  /**
   * Every pair's links to the read models: the array published last time when no pair's changed, with the changes when
   * every pair's are known.
   */
  #publishLinks(drawn: readonly { readonly links: readonly EventLink[]; readonly delta?: LinksDelta }[]): void {
    const { joined, same, delta } = joinParts(
      this.#published,
      drawn.map((d) => d.links),
      drawn.map((d) => d.delta),
    )
    this.#published = joined
    this.#o.onLinks(joined.all, same ? NOTHING_CHANGED : delta)
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
