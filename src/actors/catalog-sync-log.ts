import type { Clock } from '../core/clock.js'
import type { Logger } from '../core/logger.js'
import type { Catalog } from '../model/types.js'
import type { CatalogLoad } from './catalog-load.js'
import type { CatalogSnapshot } from './catalog-snapshot.js'

/** How often the first sync logs its progress (a real catalog is hundreds of pages: not a line per page). */
export const PROGRESS_LOG_MS = 5_000

/**
 * What the catalog loader says of its syncs: progress lines of the first one, each install and each listing that
 * changed nothing with what the sync listed and cost, and a catalog cut at the `maxEvents` guard, loudly.
 */
export class CatalogSyncLog {
  readonly #log: Logger
  readonly #clock: Clock
  readonly #venue: string
  #progressLoggedAt = 0

  constructor(log: Logger, clock: Clock, venue: string) {
    this.#log = log
    this.#clock = clock
    this.#venue = venue
  }

  /** A first sync started: its first progress line comes PROGRESS_LOG_MS from now. */
  started(attempt: number): void {
    this.#progressLoggedAt = this.#clock.now()
    this.#log.info({ attempt }, 'catalog sync started')
  }

  /** A progress line at most every PROGRESS_LOG_MS (on the actor's clock), when a page arrives. */
  progress(load: CatalogLoad): void {
    const now = this.#clock.now()
    if (now - this.#progressLoggedAt < PROGRESS_LOG_MS) return
    this.#progressLoggedAt = now
    const s = load.status()
    this.#log.info(
      {
        list: s.list,
        pages: s.pages,
        listed: s.events,
        elapsedMs: s.elapsedMs,
        eventsPerSec: s.eventsPerSec,
        expectedEvents: s.expectedEvents ?? null,
        estimatedRemainingMs: s.estimatedRemainingMs ?? null,
      },
      'catalog loading',
    )
  }

  /** An install from the venue; `wasTruncated`: the catalog it replaced was cut at the guard (said so once). */
  installed(
    snapshot: CatalogSnapshot,
    instruments: number,
    wasTruncated: boolean,
    load: CatalogLoad | undefined,
    mapping: Catalog['mapping'] | undefined,
  ): void {
    const sync = load === undefined ? {} : this.#figures(load)
    const changed = snapshot.changes === undefined ? {} : { changedEvents: snapshot.changes.added.length }
    this.#log.info(
      { version: snapshot.version, events: snapshot.events.length, instruments, ...changed, ...sync, ...mapping },
      'catalog installed',
    )
    if (snapshot.truncation !== undefined) this.truncation(snapshot)
    else if (wasTruncated)
      this.#log.info(
        { version: snapshot.version, events: snapshot.events.length },
        'catalog no longer truncated: every event the venue listed fits under maxEvents',
      )
  }

  /** A sync that listed the installed catalog again; a sync of changes says so at info (what a refresh costs). */
  unchanged(snapshot: CatalogSnapshot, load: CatalogLoad | undefined, mapping: Catalog['mapping'] | undefined): void {
    const line = {
      version: snapshot.version,
      events: snapshot.events.length,
      ...(load === undefined ? {} : this.#figures(load)),
      ...mapping,
    }
    if (load?.since !== undefined) this.#log.info(line, 'catalog unchanged')
    else this.#log.debug(line, 'catalog unchanged')
  }

  /**
   * A catalog cut at the guard is served (a partial catalog beats none) but never quietly: one error line per
   * installed version, saying what was cut and which setting to raise. /readyz and /metrics show it too.
   */
  truncation(snapshot: CatalogSnapshot): void {
    const t = snapshot.truncation
    if (t === undefined) return
    const what =
      t.cut === 'open'
        ? 'the venue listed more open events; the closed lookback was not read'
        : 'every open event fits, but closed events of the lookback window were cut'
    this.#log.error(
      { version: snapshot.version, maxEvents: t.maxEvents, cut: t.cut, events: snapshot.events.length },
      `catalog truncated at maxEvents=${t.maxEvents}: ${what}; serving the first ${t.maxEvents} events listed. The guard is meant to sit far above the real catalog: raise venues.${this.#venue}.catalog.maxEvents, or find out why the venue pages forever`,
    )
  }

  /** What a sync listed and cost: a sync of changes gives the time it listed them since. */
  #figures(load: CatalogLoad): Record<string, unknown> {
    return {
      ...(load.since === undefined ? {} : { changesSince: new Date(load.since).toISOString() }),
      pages: load.pages,
      listed: load.events,
      elapsedMs: this.#clock.now() - load.startedAt,
      processCpuMs: load.processCpuMs(),
    }
  }
}
