import { lowerBound } from '../../core/arrays.js'
import type { CatalogEvent } from '../../model/types.js'
import type { InstalledCatalog } from '../types.js'

/** Past this many events changed since the version held, the index is built anew instead of patched. */
const MAX_PATCHED = 256

/**
 * The installed events with an open outcome, by that outcome's end: which events are due (a market still open whose
 * end is in a window, catalog-changes.ts) is then two binary searches and the events between, not a pass over every
 * event (~26 ms at 51,000 events, at every refresh). Held for one installed version and patched by its changes
 * (`InstalledCatalog.changes`: the events that came and went since the version held), so a refresh costs what the
 * last one installed; built anew from every event otherwise (a whole listing's install, a first refresh).
 *
 * Events are immutable (a changed event is a new object), so an entry stays right as long as its event is installed.
 */
export class DueIndex {
  /** The installed version the entries are of (undefined: none, or one without a version). */
  #version: number | undefined
  /** Open outcomes' ends, ascending, and the event of each. */
  #ends: number[] = []
  #events: CatalogEvent[] = []

  /** The ids of the active installed events with an open outcome whose end is in [from, to], each once. */
  due(installed: InstalledCatalog, from: number, to: number): string[] {
    this.#bring(installed)
    const ids = new Set<string>()
    for (let i = firstAtLeast(this.#ends, from); i < this.#ends.length && (this.#ends[i] as number) <= to; i++)
      ids.add((this.#events[i] as CatalogEvent).eventId)
    return [...ids]
  }

  #bring(installed: InstalledCatalog): void {
    const version = installed.version
    if (version !== undefined && version === this.#version) return
    const changes = installed.changes
    const patchable =
      version !== undefined &&
      this.#version !== undefined &&
      installed.idsOnce === true &&
      changes !== undefined &&
      changes.since === this.#version &&
      changes.removed.length + changes.added.length <= MAX_PATCHED
    if (patchable) {
      for (const e of changes.removed) this.#remove(e)
      for (const e of changes.added) this.#insert(e)
    } else {
      this.#build(installed.events)
    }
    this.#version = version
  }

  #build(events: readonly CatalogEvent[]): void {
    const entries: { end: number; event: CatalogEvent }[] = []
    for (const event of events) for (const end of openEnds(event)) entries.push({ end, event })
    entries.sort((x, y) => x.end - y.end)
    this.#ends = entries.map((x) => x.end)
    this.#events = entries.map((x) => x.event)
  }

  #insert(event: CatalogEvent): void {
    for (const end of openEnds(event)) {
      const at = firstAbove(this.#ends, end)
      this.#ends.splice(at, 0, end)
      this.#events.splice(at, 0, event)
    }
  }

  #remove(event: CatalogEvent): void {
    for (const end of openEnds(event)) {
      for (let i = firstAtLeast(this.#ends, end); i < this.#ends.length && this.#ends[i] === end; i++) {
        if (this.#events[i] !== event) continue
        this.#ends.splice(i, 1)
        this.#events.splice(i, 1)
        break
      }
    }
  }
}

/** The ends of an active event's open outcomes (none for an event not active). */
function openEnds(e: CatalogEvent): number[] {
  const ends: number[] = []
  if (e.status !== 'active') return ends
  for (const m of e.markets)
    for (const o of m.outcomes) if (o.status === 'active' && o.closeTime !== undefined) ends.push(o.closeTime)
  return ends
}

const ascending = (x: number, y: number) => x - y
/** Orders a value after its equals: `lowerBound` by it finds the place after them. */
const afterEquals = (x: number, y: number) => (x <= y ? -1 : 1)

/** The first index of `sorted` (ascending) whose value is not below `value`. */
const firstAtLeast = (sorted: readonly number[], value: number) => lowerBound(sorted, value, ascending)

/** The first index of `sorted` (ascending) whose value is above `value`: after the entries equal to it. */
const firstAbove = (sorted: readonly number[], value: number) => lowerBound(sorted, value, afterEquals)
