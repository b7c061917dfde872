import type { CatalogSnapshot } from '../../actors/catalog-snapshot.js'
import type { VenueActor } from '../../actors/venue-actor.js'
import type { Logger } from '../../core/logger.js'
import type { EventLink } from '../../views/event-directory.js'
import { runInSlices, runToEnd, type Steps } from '../../core/slices.js'
import { eventLinks, MatchState, type EventMatch, type MatchInput, type MatchUpdate } from './matcher.js'
import type { SpreadEngine, SpreadPairSpec } from '../engine/spread-engine.js'

/**
 * Keeps the cross-venue matching current: when either catalog changes it updates the matcher's state (only the
 * events whose contracts changed are judged again: matcher.ts `MatchState`), then hands the event links to the
 * read models (one service event per pair; called after every catalog change, so the read models rebuild once per
 * change) and the outcome pairs to the spread engine, re-resolved against the new catalogs.
 *
 * The first run judges everything (seconds of CPU at real catalog sizes), later ones what changed; both run in
 * slices (src/core/slices.ts) between requests. One run at a time; a catalog change during a run schedules one
 * more. Everything else proportional to the catalogs (resolving pair specs, installing them in the engine) runs in
 * slices too.
 */
export interface CrossVenueOptions {
  readonly venuep: VenueActor
  readonly venuek: VenueActor
  readonly engine: SpreadEngine
  readonly onLinks: (links: readonly EventLink[]) => void
  /** Manual matches and deny rules (config/matches.json), read anew at every run. */
  readonly overrides: () => MatchInput
  readonly log: Logger
}

export class CrossVenueMatching {
  readonly #o: CrossVenueOptions
  #matches: readonly EventMatch[] = []
  /** The catalogs and manual overrides the current matches were computed from. */
  #matched: { readonly p: CatalogSnapshot; readonly k: CatalogSnapshot; readonly manual: string } | undefined
  #scheduled = false
  #running = false
  #runAgain = false
  #stopped = false
  /** Contracts, indexes and accepted pairs of the last run: a catalog change costs what changed (matcher.ts). */
  readonly #state = new MatchState()
  readonly #unsubscribe: (() => void)[] = []
  /** Matcher updates (tests and logs). */
  runs = 0
  /** What the last update did (full or incremental, events changed, pairs judged). */
  lastUpdate: Omit<MatchUpdate, 'matches'> | undefined

  constructor(options: CrossVenueOptions) {
    this.#o = options
  }

  get matches(): readonly EventMatch[] {
    return this.#matches
  }

  /** No run is scheduled or running: links and pairs are those of the current catalogs. */
  get settled(): boolean {
    return !this.#scheduled && !this.#running
  }

  start(): void {
    for (const actor of [this.#o.venuep, this.#o.venuek]) this.#unsubscribe.push(actor.subscribeCatalog(() => this.#schedule()))
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
    const p = this.#o.venuep.catalog()
    const k = this.#o.venuek.catalog()
    if (p === undefined || k === undefined) {
      // Nothing to match yet; the one venue that has a catalog is still served.
      this.#o.onLinks([])
      return
    }
    const overrides = this.#o.overrides()
    const manualKey = JSON.stringify(overrides)
    const prev = this.#matched
    const same = !force && prev !== undefined && prev.manual === manualKey && prev.p === p && prev.k === k
    if (!same) {
      const started = Date.now()
      const update = await runInSlices(this.#state.updateSteps(p, k, overrides))
      if (this.#stopped) return
      this.#matches = update.matches
      this.runs++
      this.lastUpdate = { mode: update.mode, changedEvents: update.changedEvents, judged: update.judged }
      this.#o.log.info(
        { ms: Date.now() - started, mode: update.mode, changed_events: update.changedEvents, judged: update.judged, events: update.matches.length, outcomes: update.matches.reduce((n, m) => n + m.outcomes.length, 0) },
        'cross-venue matching',
      )
    }
    this.#matched = { p, k, manual: manualKey }
    const links = eventLinks(this.#matches)
    const specs = await runInSlices(pairSpecsSteps(this.#matches, p, k))
    if (this.#stopped) return
    this.#o.onLinks(links)
    await this.#o.engine.setPairsInSlices(specs)
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
 * Outcome pairs as engine specs, resolved against the current catalogs (fresh volumes, fees and URLs); pairs
 * whose outcomes left a catalog are dropped. A pair's key is its service event slug (the venuep slug) and
 * outcome key.
 */
export function pairSpecs(matches: readonly EventMatch[], venuep: CatalogSnapshot, venuek: CatalogSnapshot): SpreadPairSpec[] {
  return runToEnd(pairSpecsSteps(matches, venuep, venuek))
}

export function* pairSpecsSteps(matches: readonly EventMatch[], venuep: CatalogSnapshot, venuek: CatalogSnapshot): Steps<SpreadPairSpec[]> {
  const specs: SpreadPairSpec[] = []
  const seen = new Set<string>()
  let n = 0
  for (const m of matches) {
    if (++n % 128 === 0) yield
    const pe = venuep.eventsById.get(m.venuepEventId)
    if (pe === undefined || !venuek.eventsById.has(m.venuekEventId)) continue
    for (const pair of m.outcomes) {
      const po = venuep.outcomesById.get(pair.venuep.outcomeId)
      const ko = venuek.outcomesById.get(pair.venuek.outcomeId)
      if (po === undefined || ko === undefined) continue
      const key = `${pe.eventId}|${pair.outcomeKey}`
      if (seen.has(key)) continue
      seen.add(key)
      specs.push({
        key,
        eventSlug: pe.eventId,
        eventTitle: pe.title,
        outcomeKey: pair.outcomeKey,
        outcomeTitle: po.title,
        a: { venue: po.venue, outcome: po, url: venuep.marketsById.get(po.marketId)?.url ?? pe.url },
        b: { venue: ko.venue, outcome: ko, url: venuek.marketsById.get(ko.marketId)?.url ?? '' },
        strategy: m.strategy,
        quality: pair.quality,
        match: pair.explanation,
      })
    }
  }
  return specs
}
