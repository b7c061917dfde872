import type { Clock } from '../core/clock.js'
import type { CatalogProgress } from '../venues/types.js'

/**
 * One catalog sync in progress, as /readyz (`catalog.loading`) and the log's progress lines show it: the pages and
 * raw events listed so far, the list being paged, the rate, and an estimate of what is left.
 *
 * Venue listings give no total (they page by offset until a short page, or by cursor until an empty one), so the only honest basis for an estimate is the size of the last sync that completed
 * in this process: the first sync after boot has none (`expectedEvents` and the estimate are undefined), refreshes
 * have one. The catalog seldom changes much between syncs, so the previous size is a good guess, not a promise.
 */
export interface CatalogLoadStatus {
  readonly startedAt: number
  readonly elapsedMs: number
  /** `listing` while pages arrive; `building` once every page is in and the snapshot and instruments are prepared. */
  readonly phase: 'listing' | 'building'
  /** The list the last page came from (`open`, `closed`, `settled`); undefined before the first page. */
  readonly list: string | undefined
  readonly pages: number
  /** Raw events listed so far (before mapping and de-duplication), every list together. */
  readonly events: number
  /** Undefined until a page arrived and some time passed. */
  readonly eventsPerSec: number | undefined
  /** Raw events the last completed sync listed; undefined without one. */
  readonly expectedEvents: number | undefined
  /** Time left to list `expectedEvents` at the current rate (0 once past it); undefined without a basis. */
  readonly estimatedRemainingMs: number | undefined
}

export class CatalogLoad implements CatalogProgress {
  readonly startedAt: number
  readonly #clock: Clock
  #expectedEvents: number | undefined
  #since: number | undefined
  /** The process's CPU time when the sync began: what the sync cost, with whatever else ran meanwhile. */
  readonly #cpuAtStart = process.cpuUsage()
  #phase: CatalogLoadStatus['phase'] = 'listing'
  #list: string | undefined
  #pages = 0
  #events = 0

  /** `since`: the sync lists the events changed since then (ms), not the venue whole. */
  constructor(clock: Clock, expectedEvents: number | undefined, since?: number) {
    this.#clock = clock
    this.startedAt = clock.now()
    this.#expectedEvents = expectedEvents
    this.#since = since
  }

  /** Since when the sync lists changes; undefined for a whole listing. */
  get since(): number | undefined {
    return this.#since
  }

  /** The changes could not be applied alone: the sync lists the venue whole after all. */
  listWhole(expectedEvents: number | undefined): void {
    this.#since = undefined
    this.#expectedEvents = expectedEvents
  }

  /**
   * The process's CPU (user + system, ms) since the sync began: an upper bound on the sync's own cost, since the
   * feeds and everything else running meanwhile are in it too.
   */
  processCpuMs(): number {
    const { user, system } = process.cpuUsage(this.#cpuAtStart)
    return Math.round((user + system) / 100) / 10
  }

  page(list: string, events: number): void {
    this.#pages++
    this.#events += events
    this.#list = list
  }

  /** Every page is in; what remains is building the snapshot (no estimate for that part). */
  listed(): void {
    this.#phase = 'building'
  }

  get pages(): number {
    return this.#pages
  }

  get events(): number {
    return this.#events
  }

  status(): CatalogLoadStatus {
    const elapsedMs = Math.max(0, this.#clock.now() - this.startedAt)
    const eventsPerSec = elapsedMs > 0 && this.#events > 0 ? (this.#events * 1000) / elapsedMs : undefined
    const expected = this.#expectedEvents
    let estimatedRemainingMs: number | undefined
    if (this.#phase === 'listing' && expected !== undefined && eventsPerSec !== undefined) {
      estimatedRemainingMs = Math.round((Math.max(0, expected - this.#events) / eventsPerSec) * 1000)
    }
    return {
      startedAt: this.startedAt,
      elapsedMs,
      phase: this.#phase,
      list: this.#list,
      pages: this.#pages,
      events: this.#events,
      eventsPerSec: eventsPerSec === undefined ? undefined : Math.round(eventsPerSec * 10) / 10,
      expectedEvents: expected,
      estimatedRemainingMs,
    }
  }
}
