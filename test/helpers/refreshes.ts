import type { CatalogEvent } from '../../src/model/types.js'
import type { Rng } from '../../src/sim/world/random.js'

/**
 * A catalog's next refresh as mapped-records.ts gives it: most events the same objects, a few changed (new objects:
 * title, volume, a market's status), a few delisted (kept in `reserve`), and now and then one listed again as it
 * was or under a new id. For the tests that patch the read models from their predecessors.
 */
export function refreshed(
  rng: Rng,
  events: readonly CatalogEvent[],
  reserve: CatalogEvent[],
  step: number,
): CatalogEvent[] {
  const next: CatalogEvent[] = []
  for (const e of events) {
    const roll = rng.next()
    if (roll < 0.004) {
      reserve.push(e)
      continue
    }
    if (roll < 0.012) {
      const markets = e.markets.map((m, i) =>
        i === 0
          ? {
              ...m,
              volumeTotal: (m.volumeTotal ?? 0) + 1000 * (step + 1),
              status: rng.pick(['active', 'closed'] as const),
            }
          : m,
      )
      next.push({ ...e, title: `${e.title} v${step}`, markets, volumeTotal: (e.volumeTotal ?? 0) + 7 })
      continue
    }
    next.push(e)
  }
  // A delisted event now and then comes back as it was, or under a new id.
  if (reserve.length > 0 && rng.chance(0.5)) next.push(reserve.shift() as CatalogEvent)
  if (reserve.length > 0 && rng.chance(0.5)) {
    const e = reserve.shift() as CatalogEvent
    next.push({ ...e, eventId: `${e.eventId}-N${step}`, title: `${e.title} anew` })
  }
  return next
}
