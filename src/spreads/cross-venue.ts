import type { CatalogSnapshot } from '../actors/catalog-snapshot.js'
import type { VenueActor } from '../actors/venue-actor.js'
import type { Logger } from '../core/logger.js'
import type { EventLink } from '../views/event-directory.js'
import { runInSlices } from '../core/slices.js'
import { FeatureCache } from './match-features.js'
import { matchEventsSteps, type EventMatch, type ManualMatch } from './matcher.js'
import type { SpreadEngine, SpreadPairSpec } from './spread-engine.js'

/**
 * Keeps the cross-venue matching current: when either catalog changes it re-runs the matcher — only when the
 * set of events changed (a refresh that only moved volumes keeps the matches and re-resolves their outcome
 * records) — then hands the event links to the read models (one service event per pair; called after every
 * catalog change, so the read models rebuild once per change) and the outcome pairs to the spread engine.
 *
 * A run over two 20,000-event catalogs takes a few hundred milliseconds of CPU, so it runs in slices
 * (src/core/slices.ts) between requests, reusing the features of unchanged titles from the previous run. One run
 * at a time; a catalog change during a run schedules one more.
 */
export interface CrossVenueOptions {
  readonly venuep: VenueActor
  readonly venuek: VenueActor
  readonly engine: SpreadEngine
  readonly onLinks: (links: readonly EventLink[]) => void
  readonly manual: () => readonly ManualMatch[]
  readonly log: Logger
}

export class CrossVenueMatching {
  readonly #o: CrossVenueOptions
  #matches: readonly EventMatch[] = []
  #signature = ''
  #scheduled = false
  #running = false
  #runAgain = false
  #stopped = false
  readonly #cache = new FeatureCache()
  readonly #unsubscribe: (() => void)[] = []
  /** Matcher runs (tests and logs). */
  runs = 0

  constructor(options: CrossVenueOptions) {
    this.#o = options
  }

  get matches(): readonly EventMatch[] {
    return this.#matches
  }

  start(): void {
    for (const actor of [this.#o.venuep, this.#o.venuek]) this.#unsubscribe.push(actor.subscribeCatalog(() => this.#schedule()))
    this.#schedule()
  }

  stop(): void {
    this.#stopped = true
    for (const u of this.#unsubscribe.splice(0)) u()
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
    const manual = this.#o.manual()
    const signature = `${eventIds(p)}#${eventIds(k)}#${JSON.stringify(manual)}`
    if (force || signature !== this.#signature) {
      const started = Date.now()
      const matches = await runInSlices(matchEventsSteps(p, k, manual, this.#cache))
      if (this.#stopped) return
      this.#matches = matches
      this.#signature = signature
      this.runs++
      this.#o.log.info({ ms: Date.now() - started, events: matches.length, outcomes: matches.reduce((n, m) => n + m.outcomes.length, 0) }, 'cross-venue matching')
    }
    this.#o.onLinks(this.#matches.map((m) => ({ venuepEventId: m.venuepEventId, venuekEventId: m.venuekEventId })))
    this.#o.engine.send({ type: 'pairs', specs: pairSpecs(this.#matches, p, k) })
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

function eventIds(c: CatalogSnapshot): string {
  // Cheap and order-independent enough: ids sorted once per catalog version.
  return c.events
    .map((e) => e.eventId)
    .sort()
    .join(',')
}

/**
 * Outcome pairs as engine specs, resolved against the current catalogs (fresh volumes, fees and URLs); pairs
 * whose outcomes left a catalog are dropped. A pair's key is its service event slug (the venuep slug) and
 * outcome key.
 */
export function pairSpecs(matches: readonly EventMatch[], venuep: CatalogSnapshot, venuek: CatalogSnapshot): SpreadPairSpec[] {
  const specs: SpreadPairSpec[] = []
  const seen = new Set<string>()
  for (const m of matches) {
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
        venuep: po,
        venuek: ko,
        venuepUrl: venuep.marketsById.get(po.marketId)?.url ?? pe.url,
        venuekUrl: venuek.marketsById.get(ko.marketId)?.url ?? '',
        strategy: m.strategy,
        quality: m.quality,
      })
    }
  }
  return specs
}
