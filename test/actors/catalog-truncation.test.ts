import assert from 'node:assert/strict'
import { test } from 'node:test'
import { VenueActor } from '../../src/actors/venue-actor.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { createLogger } from '../../src/core/logger.js'
import type { Catalog, CatalogEvent, CatalogTruncation } from '../../src/model/types.js'
import type { FeedStatus, VenueAdapter } from '../../src/venues/types.js'
import { venuepProbability } from '../../src/venues/venuep/probability.js'
import { waitFor } from '../helpers/wait.js'

/**
 * A catalog cut at its `maxEvents` guard is installed and served (the venue still becomes ready), never quietly:
 * one error line per installed catalog version naming the guard, what was cut and the setting to raise; the status
 * (/readyz, /metrics) says `truncated` until a catalog that fits is installed, which is logged too.
 */
function catalog(events: number, truncation?: CatalogTruncation): Catalog {
  const list: CatalogEvent[] = Array.from({ length: events }, (_, i) => ({
    venue: 'venuep',
    marketId: `m${i}`,
    eventId: `e${i}`,
    title: `event ${i}`,
    category: 'other',
    status: 'closed',
    rawStatus: 'closed',
    url: 'u',
    createdAt: undefined,
    updatedAt: undefined,
    endTime: undefined,
    volumeTotal: undefined,
    volume24h: undefined,
    liquidity: undefined,
    openInterest: undefined,
    outcomes: [],
    subtitle: undefined,
    mutuallyExclusive: false,
    markets: [],
  }))
  return truncation === undefined
    ? { venue: 'venuep', events: list, fetchedAt: 0 }
    : { venue: 'venuep', events: list, fetchedAt: 0, truncation }
}

function fakeAdapter(current: () => Catalog): VenueAdapter {
  const status: FeedStatus = {
    connections: 1,
    openConnections: 1,
    instruments: 0,
    subscribed: 0,
    reconnects: 0,
    framesReceived: 0,
    malformedFrames: 0,
    sequenceGaps: 0,
    staleTimeouts: 0,
    lastFrameAt: undefined,
  }
  return {
    id: 'venuep',
    fetchCatalog: async () => current(),
    createFeed: () => ({ setInstruments() {}, close() {}, status: () => status }),
    probability: venuepProbability,
    instrumentsOf: () => [],
  }
}

test('a truncated catalog: served and ready, one error line per catalog version, shown in the status until a catalog fits', async () => {
  let current = catalog(5, { maxEvents: 5, cut: 'open' })
  const lines: Record<string, unknown>[] = []
  const log = createLogger('debug', 'predmkt', {
    write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>),
  }).child({ venue: 'venuep' })
  const clock = new SimulatedClock(0)
  const actor = new VenueActor({
    adapter: fakeAdapter(() => current),
    clock,
    log,
    catalogRefreshMs: 60_000,
    catalogMaxEvents: 5,
  })
  const said = () =>
    lines
      .filter(
        (l) => (l.msg as string).startsWith('catalog truncated') || (l.msg as string).startsWith('catalog no longer'),
      )
      .map(({ time: _t, pid: _p, ...rest }) => rest)
  const refresh = async () => {
    const version = actor.catalog()?.version ?? 0
    clock.increment(60_000)
    await waitFor(() => actor.catalog()?.version === version + 1)
  }
  const truncatedLine = (version: number, cut: 'open' | 'closed', what: string) => ({
    level: 50,
    name: 'predmkt',
    venue: 'venuep',
    version,
    maxEvents: 5,
    cut,
    events: 5,
    msg: `catalog truncated at maxEvents=5: ${what}; serving the first 5 events listed. The guard is meant to sit far above the real catalog: raise venues.venuep.catalog.maxEvents, or find out why the venue pages forever`,
  })
  actor.start()
  try {
    await waitFor(() => actor.catalog() !== undefined)
    assert.equal(actor.ready, true, 'a truncated catalog still makes the venue ready')
    assert.deepEqual(actor.venueStatus().catalog, {
      loaded: true,
      version: 1,
      events: 5,
      markets: 0,
      outcomes: 0,
      fetchedAt: 0,
      syncedAt: 0,
      fromFile: false,
      lastError: undefined,
      truncated: true,
      maxEvents: 5,
      loading: undefined,
      failures: 0,
    })
    assert.deepEqual(said(), [
      truncatedLine(1, 'open', 'the venue listed more open events; the closed lookback was not read'),
    ])

    current = catalog(5, { maxEvents: 5, cut: 'closed' })
    await refresh()
    assert.deepEqual(said(), [
      truncatedLine(1, 'open', 'the venue listed more open events; the closed lookback was not read'),
      truncatedLine(2, 'closed', 'every open event fits, but closed events of the lookback window were cut'),
    ])

    current = catalog(4)
    await refresh()
    assert.deepEqual(actor.venueStatus().catalog, {
      loaded: true,
      version: 3,
      events: 4,
      markets: 0,
      outcomes: 0,
      fetchedAt: 0,
      syncedAt: 0,
      fromFile: false,
      lastError: undefined,
      truncated: false,
      maxEvents: 5,
      loading: undefined,
      failures: 0,
    })
    assert.deepEqual(said().slice(2), [
      {
        level: 30,
        name: 'predmkt',
        venue: 'venuep',
        version: 3,
        events: 4,
        msg: 'catalog no longer truncated: every event the venue listed fits under maxEvents',
      },
    ])

    current = catalog(4)
    await refresh()
    assert.equal(said().length, 3, 'a catalog that fits is not logged again')
  } finally {
    actor.stop()
  }
})
