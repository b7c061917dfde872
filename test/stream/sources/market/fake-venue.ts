import { VenueActor } from '../../../../src/actors/venue-actor.js'
import { SimulatedClock } from '../../../../src/core/clock.js'
import { silentLogger } from '../../../../src/core/logger.js'
import type { Catalog, CatalogEvent, Outcome } from '../../../../src/model/types.js'
import { Sequencer, type FrameSink } from '../../../../src/stream/sequencer.js'
import type { FeedEvent, FeedSink, FeedStatus, VenueAdapter } from '../../../../src/venues/types.js'
import { venuepProbability } from '../../../../src/venues/venuep/probability.js'
import { testOutcome as outcome } from '../../../helpers/outcomes.js'
import { waitFor } from '../../../helpers/wait.js'

/** Decimal → micro-units, as the feeds produce them. */
export const P = (x: number): number => Math.round(x * 1e6)

function catalog(ids: readonly string[]): Catalog {
  const market = {
    venue: 'venuep' as const,
    marketId: 'm',
    eventId: 'e',
    title: 'E',
    category: 'other',
    status: 'active' as const,
    rawStatus: 'active',
    url: 'u',
    createdAt: undefined,
    updatedAt: undefined,
    endTime: undefined,
    volumeTotal: undefined,
    volume24h: undefined,
    liquidity: undefined,
    openInterest: undefined,
    outcomes: ids.map((id) => outcome(id)),
  }
  const event: CatalogEvent = { ...market, subtitle: undefined, mutuallyExclusive: false, markets: [market] }
  return { venue: 'venuep', events: [event], fetchedAt: 0 }
}

/** A venuep adapter whose feed the test drives: events go straight into the actor; the status is the test's. */
export class FakeVenue {
  sink: FeedSink | undefined
  status: FeedStatus = {
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
  readonly adapter: VenueAdapter

  constructor(
    readonly clock: SimulatedClock,
    ids: readonly string[],
  ) {
    this.adapter = {
      id: 'venuep',
      fetchCatalog: async () => catalog(ids),
      createFeed: (sink) => {
        this.sink = sink
        return {
          setInstruments: (list) => {
            this.status = { ...this.status, instruments: list.length, subscribed: list.length }
          },
          close() {},
          status: () => this.status,
        }
      },
      probability: venuepProbability,
      instrumentsOf: (c) => c.events.flatMap((e) => e.markets.flatMap((m) => m.outcomes.map((o) => o.instrumentId))),
    }
  }

  /** One wire frame's events, received now. */
  emit(...events: FeedEvent[]): void {
    this.status = { ...this.status, lastFrameAt: this.clock.now() }
    this.sink?.(events, this.clock.now())
  }
}

/** Every published frame, parsed, per topic (in publish order). */
export class RecordingSink implements FrameSink {
  readonly frames = new Map<string, Frame[]>()
  onFrame: ((topic: string, frame: Frame) => void) | undefined
  publish(topic: string, frame: string): void {
    const parsed = JSON.parse(frame) as Frame
    let list = this.frames.get(topic)
    if (list === undefined) this.frames.set(topic, (list = []))
    list.push(parsed)
    this.onFrame?.(topic, parsed)
  }
  of(topic: string): Frame[] {
    return this.frames.get(topic) ?? []
  }
}

export interface Frame {
  type: 'snapshot' | 'delta' | 'marker'
  ch: string
  key: string
  epoch: string
  seq: number
  ts: number
  lts: number
  pts: number
  d: Record<string, unknown>
}

export interface Rig {
  readonly clock: SimulatedClock
  readonly venue: FakeVenue
  readonly actor: VenueActor
  readonly sink: RecordingSink
  readonly sequencer: Sequencer
}

/** A started venue actor with instruments `ids` (catalog loaded), a sequencer with a pinned epoch. */
export async function rig(ids: readonly string[] = ['a', 'b']): Promise<Rig> {
  const clock = new SimulatedClock(1_000)
  const venue = new FakeVenue(clock, ids)
  const actor = new VenueActor({ adapter: venue.adapter, clock, log: silentLogger, catalogRefreshMs: 3_600_000 })
  actor.start()
  await waitFor(() => actor.catalog() !== undefined)
  const sink = new RecordingSink()
  const sequencer = new Sequencer({ clock, sink, epoch: 'e0' })
  return { clock, venue, actor, sink, sequencer }
}

export const snapshot = (
  id: string,
  bids: readonly (readonly [number, number])[],
  asks: readonly (readonly [number, number])[],
  venueTs = 900,
): FeedEvent => ({
  type: 'snapshot',
  instrumentId: id,
  bids: bids.map(([p, s]) => [P(p), P(s)] as const),
  asks: asks.map(([p, s]) => [P(p), P(s)] as const),
  venueTs,
})

export const level = (id: string, side: 'bid' | 'ask', price: number, size: number, venueTs = 950): FeedEvent => ({
  type: 'level',
  instrumentId: id,
  side,
  price: P(price),
  size: P(size),
  venueTs,
})
