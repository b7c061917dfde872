import { SimulatedClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import type { VenueId } from '../../src/model/types.js'
import { SpreadEngine } from '../../src/spreads/engine/spread-engine.js'

/**
 * A started spread engine whose venues have no quotes or books yet: for tests of what the matching installs in it
 * (pairs and their specs), not of prices. Every planned install is recomputed in one chunk.
 */
export function engineWithoutQuotes(venues: readonly VenueId[] = ['venuep', 'venuek']): SpreadEngine {
  const quotes = { quote: () => undefined, book: () => undefined }
  const engine = new SpreadEngine({
    venues: new Map(venues.map((v) => [v, quotes])),
    clock: new SimulatedClock(0),
    log: silentLogger,
    recomputeBudgetMs: 0,
  })
  engine.start()
  return engine
}
