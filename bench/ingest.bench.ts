import { VenueActor } from '../src/actors/venue-actor.js'
import { SimulatedClock } from '../src/core/clock.js'
import { silentLogger } from '../src/core/logger.js'
import type { Catalog, CatalogEvent, Quote, VenueId } from '../src/model/types.js'
import type { FeedEvent, FeedSink, ProbabilityInputs, VenueAdapter } from '../src/venues/types.js'
import { mapVenuekData } from '../src/venues/venuek/map-message.js'
import { venuekProbability } from '../src/venues/venuek/probability.js'
import { mapVenuepFrame } from '../src/venues/venuep/map-message.js'
import { venuepProbability } from '../src/venues/venuep/probability.js'
import { testOutcome } from '../test/helpers/outcomes.js'
import { measureBatches, type Measured } from './harness.js'
import { LEVELS_PER_SIDE, venuekFrames, venuepFrames } from './scenarios.js'

/**
 * Frame to quote: wire frames (strings, as the socket delivers them) through each feed's per-frame path —
 * JSON.parse, the sequence check (venuek), the venue mapper — into the venue actor, which applies them to its
 * books, recomputes quotes and publishes them to a subscriber. One core, one actor.
 */
const INSTRUMENTS = 2_000
const FRAMES = 20_000

function catalogOf(venue: VenueId, ids: readonly string[]): Catalog {
  const outcomes = ids.map((id) => testOutcome(id, { venue }))
  const market = {
    venue,
    marketId: 'm',
    eventId: 'e',
    title: 'E',
    category: 'other',
    status: 'active' as const,
    rawStatus: 'active',
    url: '',
    createdAt: undefined,
    updatedAt: undefined,
    endTime: undefined,
    volumeTotal: undefined,
    volume24h: undefined,
    liquidity: undefined,
    openInterest: undefined,
    outcomes,
  }
  const event: CatalogEvent = { ...market, subtitle: undefined, mutuallyExclusive: false, markets: [market] }
  return { venue, events: [event], fetchedAt: 0 }
}

/** A venue actor over `ids`, every book snapshotted with 20 levels a side; returns the feed sink. */
async function actorWithBooks(
  venue: VenueId,
  ids: readonly string[],
  probability: (i: ProbabilityInputs) => number | undefined,
) {
  let sink: FeedSink | undefined
  const catalog = catalogOf(venue, ids)
  const adapter: VenueAdapter = {
    id: venue,
    fetchCatalog: async () => catalog,
    createFeed: (s) => {
      sink = s
      return {
        setInstruments() {},
        close() {},
        status: () => ({
          connections: 1,
          openConnections: 1,
          instruments: ids.length,
          subscribed: ids.length,
          reconnects: 0,
          framesReceived: 0,
          malformedFrames: 0,
          sequenceGaps: 0,
          staleTimeouts: 0,
          lastFrameAt: undefined,
        }),
      }
    },
    probability,
    instrumentsOf: () => [...ids],
  }
  const actor = new VenueActor({
    adapter,
    clock: new SimulatedClock(0),
    log: silentLogger,
    catalogRefreshMs: 3_600_000,
  })
  let published = 0
  actor.subscribeQuotes((quotes: readonly Quote[]) => {
    published += quotes.length
  })
  actor.start()
  while (actor.catalog() === undefined) await new Promise((r) => setTimeout(r, 1))
  const snapshots: FeedEvent[] = ids.map((id) => ({
    type: 'snapshot',
    instrumentId: id,
    bids: Array.from({ length: LEVELS_PER_SIDE }, (_, i) => [490_000 - i * 10_000, 1_000_000_000] as const),
    asks: Array.from({ length: LEVELS_PER_SIDE }, (_, i) => [510_000 + i * 10_000, 1_000_000_000] as const),
    venueTs: 0,
  }))
  sink!(snapshots, 0)
  return { actor, sink: sink!, published: () => published }
}

export async function benchFrameToQuote(): Promise<Measured[]> {
  const vpAssets = Array.from(
    { length: INSTRUMENTS },
    (_, i) => `7132104567925221259462638553270691275033272857194253228963137931245558${String(i).padStart(7, '0')}`,
  )
  const vkTickers = Array.from({ length: INSTRUMENTS }, (_, i) => `KXBENCH-26NOV21-T${i}`)
  const vp = await actorWithBooks('venuep', vpAssets, venuepProbability)
  const vk = await actorWithBooks('venuek', vkTickers, venuekProbability)
  const vpData = venuepFrames(2, vpAssets, FRAMES)
  // venuek frames carry seq 1..FRAMES; each pass replays them as a fresh subscription (seq restarts at 1).
  let seq = 1
  const vkData = venuekFrames(3, vkTickers, FRAMES, seq)
  let now = 1

  const results = await measureBatches('frame to quote', [
    {
      name: 'venuep price_change frames → books → quotes',
      unitsPerCall: FRAMES,
      fn: () => {
        for (let i = 0; i < vpData.length; i++) {
          const events: FeedEvent[] = []
          const bad = mapVenuepFrame(vpData[i]!, now, events)
          if (bad !== 0) throw new Error(`unreadable frame in the bench input: ${bad}`)
          if (events.length > 0) vp.sink(events, now++)
        }
      },
    },
    {
      name: 'venuek orderbook_delta frames → books → quotes',
      unitsPerCall: FRAMES,
      fn: () => {
        seq = 1
        for (let i = 0; i < vkData.length; i++) {
          const frame = vkData[i]!
          const env = JSON.parse(frame) as { type: string; sid: number; seq: number; msg: unknown }
          if (env.seq !== seq) throw new Error(`sequence gap in the bench input: ${env.seq} != ${seq}`)
          seq++
          const events: FeedEvent[] = []
          mapVenuekData(env.type, env.msg, now, events)
          if (events.length > 0) vk.sink(events, now++)
        }
      },
    },
  ])
  if (vp.published() === 0 || vk.published() === 0)
    throw new Error('no quotes were published: the bench measured nothing')
  vp.actor.stop()
  vk.actor.stop()
  return results
}
