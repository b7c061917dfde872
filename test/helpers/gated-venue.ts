import type { Catalog, CatalogEvent, Outcome } from '../../src/model/types.js'
import type { FeedEvent, FeedSink, FeedStatus, VenueAdapter } from '../../src/venues/types.js'
import { venuepProbability } from '../../src/venues/venuep/probability.js'
import { testOutcome } from './outcomes.js'

/**
 * A venuep-like adapter whose every listing waits until the test releases or fails it (`release`, `fail`), counting
 * the listings asked for (`syncs`), with a feed that takes any instruments and books the test emits. For tests of
 * when a venue actor lists its venue and what it does meanwhile.
 */
export class GatedVenue {
  sink: FeedSink | undefined
  release: ((c: Catalog) => void) | undefined
  fail: ((e: Error) => void) | undefined
  syncs = 0
  subscribed = 0
  readonly adapter: VenueAdapter

  constructor(source = 'https://gamma.example') {
    this.adapter = {
      id: 'venuep',
      catalogSource: source,
      fetchCatalog: () =>
        new Promise<Catalog>((resolve, reject) => {
          this.syncs++
          this.release = resolve
          this.fail = reject
        }),
      createFeed: (sink) => {
        this.sink = sink
        const venue = this
        return {
          setInstruments(ids) {
            venue.subscribed = ids.length
          },
          close() {},
          status: () => quietFeedStatus(venue.subscribed),
        }
      },
      probability: venuepProbability,
      instrumentsOf: () => [],
      streams: (o) => o.status === 'active',
    }
  }

  emit(...events: FeedEvent[]): void {
    this.sink?.(events, 1_000)
  }
}

/**
 * The status of a feed with `connections` open and `subscribed` instruments, that has seen nothing go wrong (and no
 * frame): what a test's fake feed reports.
 */
export function quietFeedStatus(subscribed: number, connections = 1): FeedStatus {
  return {
    connections,
    openConnections: connections,
    instruments: subscribed,
    subscribed,
    reconnects: 0,
    framesReceived: 0,
    malformedFrames: 0,
    sequenceGaps: 0,
    staleTimeouts: 0,
    lastFrameAt: undefined,
  }
}

const P = (x: number) => Math.round(x * 1e6)

/** A book snapshot of `id` (bid 0.40, ask 0.45). */
export const bookSnapshot = (id: string): FeedEvent => ({
  type: 'snapshot',
  instrumentId: id,
  bids: [[P(0.4), P(10)]],
  asks: [[P(0.45), P(5)]],
  venueTs: 900,
})

/** A venuep catalog of one event per outcome id, each with one market; `closed` ones are listed but not streamed. */
export function oneOutcomeEvents(ids: readonly string[], closed: readonly string[] = [], fetchedAt = 0): Catalog {
  const outcome = (id: string, status: Outcome['status']) =>
    testOutcome(id, { marketId: `m-${id}`, eventId: `e-${id}`, status, rawStatus: status })
  const events = [...ids.map((id) => outcome(id, 'active')), ...closed.map((id) => outcome(id, 'closed'))].map((o) =>
    oneMarketEvent(o.eventId, o.marketId, o.status, [o]),
  )
  return { venue: 'venuep', events, fetchedAt }
}

/** A venuep event of one market (`marketId`, titled as its event) holding `outcomes`, every optional field unknown. */
export function oneMarketEvent(
  eventId: string,
  marketId: string,
  status: Outcome['status'],
  outcomes: Outcome[],
): CatalogEvent {
  const market = {
    venue: 'venuep' as const,
    marketId,
    eventId,
    title: outcomes.length === 1 ? (outcomes[0] as Outcome).title : eventId,
    category: 'other',
    status,
    rawStatus: status,
    url: 'u',
    createdAt: undefined,
    updatedAt: undefined,
    endTime: undefined,
    volumeTotal: undefined,
    volume24h: undefined,
    liquidity: undefined,
    openInterest: undefined,
    outcomes,
  }
  return { ...market, subtitle: undefined, mutuallyExclusive: false, markets: [market] }
}
