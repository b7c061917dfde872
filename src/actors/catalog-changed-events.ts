import type { Catalog, CatalogEvent } from '../model/types.js'
import type { ChangedEvents } from '../venues/types.js'
import type { CatalogSnapshot, KnownChanges } from './catalog-snapshot.js'

/**
 * The installed catalog with a venue's changed events applied (a refresh between whole listings, catalog-loader.ts):
 * a changed event replaces the installed one in its place, a new one is added at the end, one the venue would not list
 * any more (no event) is dropped. Undefined when nothing differs: every changed event is the installed object (an
 * unchanged event maps to the same object, mapped-records.ts) or was not installed and is not listed.
 *
 * Costs the changes, and one pass over the installed events only when some did change (the new list is a copy: the
 * installed one is the read models' and must not move under them).
 */
export function withChangedEvents(installed: CatalogSnapshot, changed: ChangedEvents): ChangedCatalog | undefined {
  // The last word on each id (a venue that lists an event twice: its last copy), in the order first listed.
  const latest = new Map<string, CatalogEvent | undefined>()
  for (const { eventId, event } of changed.events) latest.set(eventId, event)
  const newIds: string[] = []
  const removed: CatalogEvent[] = []
  const added: CatalogEvent[] = []
  for (const [id, event] of latest) {
    const current = installed.eventsById.get(id)
    if (current === event) continue
    if (current === undefined) newIds.push(id)
    else removed.push(current)
    if (event !== undefined) added.push(event)
  }
  if (removed.length === 0 && added.length === 0) return undefined
  const events: CatalogEvent[] = []
  for (const e of installed.events) {
    const next = latest.has(e.eventId) ? latest.get(e.eventId) : e
    if (next !== undefined) events.push(next)
  }
  for (const id of newIds) events.push(latest.get(id) as CatalogEvent)
  const catalog: Catalog = {
    venue: installed.venue,
    events,
    fetchedAt: changed.fetchedAt,
    ...(installed.truncation === undefined ? {} : { truncation: installed.truncation }),
  }
  // Exactly the events that came and went, when the installed catalog lists each id once (else the snapshot finds
  // them by its own pass, and builds whole where ids collide).
  return installed.idsOnce ? { catalog, changes: { removed, added } } : { catalog }
}

/** The catalog with the changes applied, and which events it holds that the installed one did not and vice versa. */
export interface ChangedCatalog {
  readonly catalog: Catalog
  readonly changes?: KnownChanges
}
