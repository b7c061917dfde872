import type { Catalog, CatalogEvent } from '../model/types.js'
import type { ChangedEvents } from '../venues/types.js'
import type { CatalogSnapshot } from './catalog-snapshot.js'

/**
 * The installed catalog with a venue's changed events applied (a refresh between whole listings, catalog-loader.ts):
 * a changed event replaces the installed one in its place, a new one is added at the end, one the venue would not list
 * any more (no event) is dropped. Undefined when nothing differs: every changed event is the installed object (an
 * unchanged event maps to the same object, mapped-records.ts) or was not installed and is not listed.
 *
 * Costs the changes, and one pass over the installed events only when some did change (the new list is a copy: the
 * installed one is the read models' and must not move under them).
 */
export function withChangedEvents(installed: CatalogSnapshot, changed: ChangedEvents): Catalog | undefined {
  // The last word on each id (a venue that lists an event twice: its last copy), in the order first listed.
  const latest = new Map<string, CatalogEvent | undefined>()
  for (const { eventId, event } of changed.events) latest.set(eventId, event)
  const newIds: string[] = []
  let differs = false
  for (const [id, event] of latest) {
    const current = installed.eventsById.get(id)
    if (current === undefined) {
      if (event !== undefined) (newIds.push(id), (differs = true))
    } else if (current !== event) differs = true
  }
  if (!differs) return undefined
  const events: CatalogEvent[] = []
  for (const e of installed.events) {
    const next = latest.has(e.eventId) ? latest.get(e.eventId) : e
    if (next !== undefined) events.push(next)
  }
  for (const id of newIds) events.push(latest.get(id) as CatalogEvent)
  return {
    venue: installed.venue,
    events,
    fetchedAt: changed.fetchedAt,
    ...(installed.truncation === undefined ? {} : { truncation: installed.truncation }),
  }
}
