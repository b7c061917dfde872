import type { BusStats } from './roles/stream-role.js'
import { Counter, Gauge, Registry, type Metric } from 'prom-client'
import type { VenueActor } from './actors/venue-actor.js'
import { collectProcessMetrics } from './metrics-defaults.js'
import type { Supervisor } from './actors/supervisor.js'
import type { HttpStatsSnapshot } from './http/http-stats.js'
import type { SpreadEngine } from './spreads/engine/spread-engine.js'
import type { SamplerStats } from './spreads/history/history-sampler.js'
import type { StreamStatsSnapshot } from './stream/server/stream-stats.js'
import type { UpstreamStats } from './venues/upstream/upstream.js'
import type { PageCache } from './views/page-cache.js'

/**
 * Prometheus metrics (prom-client), served at `GET /metrics`. Everything is read at scrape time from the
 * components' own counters (actors, feeds, the spread engine, caches, HttpServer's stats, the venue upstreams),
 * so serving requests and ingesting frames pay nothing for it beyond incrementing a number.
 *
 * Counters are prom-client Counters filled in `collect` (reset, then set to the component's running total), so
 * they keep the `counter` type that `rate()` expects.
 */
export interface MetricSources {
  readonly venues: readonly VenueActor[]
  readonly supervisor: Supervisor
  readonly spreads: SpreadEngine
  readonly pages: PageCache
  readonly http: () => HttpStatsSnapshot
  /** The upstream hosts behind the venues' live reads, and the venues they belong to (named in the help text). */
  readonly upstreams?: { readonly venues: readonly string[]; readonly stats: () => readonly UpstreamStats[] }
  /** The streaming WebSocket's counters (src/stream/server/stream-stats.ts). */
  readonly stream?: () => StreamStatsSnapshot
  /** The spread history sampler's counters (src/spreads/history/history-sampler.ts). */
  readonly history?: () => SamplerStats
  /** The broker side of an ingest or an edge (src/roles/stream-role.ts); absent for ROLE=all. */
  readonly bus?: () => BusStats | undefined
}

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

export function createMetrics(sources: MetricSources): Registry {
  const registry = new Registry()
  collectProcessMetrics(registry)
  const registers = [registry]

  /** A labelled series per venue: a Gauge, or a Counter when `counter` (the value is a running total). */
  const perVenue = (name: string, help: string, read: (v: VenueActor) => number | undefined, counter = false) => {
    const fill = (set: (labels: { venue: string }, x: number) => void) => {
      for (const v of sources.venues) {
        const x = read(v)
        if (x !== undefined) set({ venue: v.venue }, x)
      }
    }
    if (counter)
      new Counter({
        name,
        help,
        labelNames: ['venue'],
        registers,
        collect() {
          this.reset()
          fill((l, x) => this.inc(l, x))
        },
      })
    else
      new Gauge({
        name,
        help,
        labelNames: ['venue'],
        registers,
        collect() {
          this.reset()
          fill((l, x) => this.set(l, x))
        },
      })
  }
  perVenue('predmkt_venue_ready', '1 once the venue catalog is loaded and every book synced.', (v) => (v.ready ? 1 : 0))
  perVenue('predmkt_catalog_events', 'Events in the installed catalog.', (v) => v.venueStatus().catalog.events)
  perVenue('predmkt_catalog_markets', 'Markets in the installed catalog.', (v) => v.venueStatus().catalog.markets)
  perVenue('predmkt_catalog_version', 'Catalog version (increments per sync).', (v) => v.venueStatus().catalog.version)
  perVenue(
    'predmkt_catalog_sync_listed_events',
    'Raw events the catalog sync in progress has listed so far (0 between syncs): the first sync of a real catalog takes minutes.',
    (v) => v.venueStatus().catalog.loading?.events ?? 0,
  )
  perVenue(
    'predmkt_catalog_sync_failures',
    'Catalog syncs failed in a row (0 after a success); /readyz catalog.last_error says why.',
    (v) => v.venueStatus().catalog.failures,
  )
  perVenue(
    'predmkt_catalog_truncated',
    '1 while the installed catalog stopped at its maxEvents guard with the venue listing more.',
    (v) => (v.venueStatus().catalog.truncated ? 1 : 0),
  )
  perVenue('predmkt_books_streamed', 'Instruments streamed from the venue.', (v) => v.venueStatus().books.instruments)
  perVenue('predmkt_books_synced', 'Streamed books with a current snapshot.', (v) => v.venueStatus().books.synced)
  perVenue('predmkt_books_stale', 'Streamed books waiting for a resync.', (v) => v.venueStatus().books.stale)
  perVenue(
    'predmkt_feed_connections_open',
    'Open venue websocket connections.',
    (v) => v.venueStatus().feed?.openConnections,
  )
  perVenue('predmkt_feed_frames_total', 'Websocket frames received.', (v) => v.venueStatus().feed?.framesReceived, true)
  perVenue(
    'predmkt_quotes_published_total',
    'Quote changes published (best bid/ask, sizes, last trade or staleness of one instrument).',
    (v) => v.quotesPublished,
    true,
  )
  perVenue('predmkt_feed_reconnects_total', 'Websocket reconnects.', (v) => v.venueStatus().feed?.reconnects, true)
  perVenue(
    'predmkt_feed_sequence_gaps_total',
    'Sequence gaps detected (each triggers a resync).',
    (v) => v.venueStatus().feed?.sequenceGaps,
    true,
  )
  perVenue(
    'predmkt_feed_malformed_frames_total',
    'Frames that could not be read.',
    (v) => v.venueStatus().feed?.malformedFrames,
    true,
  )
  perVenue(
    'predmkt_feed_stale_timeouts_total',
    'Sockets replaced after going silent.',
    (v) => v.venueStatus().feed?.staleTimeouts,
    true,
  )
  perVenue(
    'predmkt_feed_stall_resyncs_total',
    'Connections resubscribed because the venue spoke again after missing its probes (a stall that ended).',
    (v) => v.venueStatus().feed?.stallResyncs,
    true,
  )
  perVenue(
    'predmkt_feed_late_replies_excused_total',
    "Probe replies read late only because the service's own event loop was stalled meanwhile: no resubscription.",
    (v) => v.venueStatus().feed?.lateRepliesExcused,
    true,
  )

  const bus = sources.bus
  if (bus !== undefined) {
    const busSeries = (
      name: string,
      help: string,
      read: (b: BusStats) => number | boolean | undefined,
      counter = false,
    ): void => {
      const collect = function (this: Gauge | Counter) {
        this.reset()
        const b = bus()
        const x = b === undefined ? undefined : read(b)
        if (x === undefined) return
        const v = typeof x === 'boolean' ? Number(x) : x
        if (this instanceof Counter) this.inc(v)
        else this.set(v)
      }
      if (counter) new Counter({ name, help, registers, collect })
      else new Gauge({ name, help, registers, collect })
    }
    busSeries('predmkt_bus_link_up', '1 while the broker link is up (ROLE=ingest or edge).', (b) => b.linkUp)
    busSeries('predmkt_bus_streams', 'Streams the ingest holds open, or the edge mirrors.', (b) => b.streams)
    busSeries(
      'predmkt_bus_frames_failed_total',
      'Ingest: stream frames the broker client refused (edges resync those streams).',
      (b) => b.framesFailed,
      true,
    )
    busSeries(
      'predmkt_bus_frames_held_total',
      'Ingest: stream frames published once the broker was back, held through its outage (none lost).',
      (b) => b.framesHeld,
      true,
    )
    busSeries(
      'predmkt_bus_hold_overflows_total',
      'Ingest: broker outages that outgrew NATS_HOLD_MAX_BYTES (edges started every stream over from its snapshot).',
      (b) => b.holdOverflows,
      true,
    )
    busSeries(
      'predmkt_bus_keyframes_total',
      'Ingest: snapshots republished for quiet streams.',
      (b) => b.keyframes,
      true,
    )
    busSeries(
      'predmkt_bus_leases_expired_total',
      'Ingest: leased streams (book, spreads.top, alerts) closed because no edge renewed them.',
      (b) => b.leasesExpired,
      true,
    )
    busSeries('predmkt_bus_leases', 'Edge: leased streams it holds from the ingest for its clients.', (b) => b.leases)
    busSeries(
      'predmkt_bus_lease_failures_total',
      'Edge: leased streams the ingest did not open in time (their clients were refused, told to try again).',
      (b) => b.leaseFailures,
      true,
    )
    busSeries(
      'predmkt_bus_mirror_gaps_total',
      'Edge: mirrored frames that did not continue their stream (clients got a snapshot instead).',
      (b) => b.mirrorGaps,
      true,
    )
    busSeries(
      'predmkt_bus_mirror_skipped_total',
      'Edge: markers (and incremental deltas) dropped because the state they follow was not held.',
      (b) => b.mirrorSkipped,
      true,
    )
    busSeries(
      'predmkt_bus_mirror_malformed_total',
      'Edge: messages on md.> that were not frames of a mirrored channel.',
      (b) => b.mirrorMalformed,
      true,
    )
  }

  new Gauge({
    name: 'predmkt_actor_mailbox_pending',
    help: 'Messages waiting in an actor mailbox.',
    labelNames: ['actor'],
    registers,
    collect() {
      this.reset()
      for (const a of sources.supervisor.snapshot()) this.set({ actor: a.name }, a.pending)
    },
  })
  new Counter({
    name: 'predmkt_actor_messages_total',
    help: 'Messages processed by an actor.',
    labelNames: ['actor'],
    registers,
    collect() {
      this.reset()
      for (const a of sources.supervisor.snapshot()) this.inc({ actor: a.name }, a.counters.processed)
    },
  })
  new Counter({
    name: 'predmkt_actor_restarts_total',
    help: 'Supervisor restarts of an actor.',
    labelNames: ['actor'],
    registers,
    collect() {
      this.reset()
      for (const a of sources.supervisor.snapshot()) this.inc({ actor: a.name }, a.restarts)
    },
  })
  new Gauge({
    name: 'predmkt_spread_pairs',
    help: 'Matched outcome pairs in the spread engine.',
    registers,
    collect() {
      this.set(sources.spreads.pairCount)
    },
  })
  new Counter({
    name: 'predmkt_spread_recomputations_total',
    help: 'Spread records recomputed.',
    registers,
    collect() {
      this.reset()
      this.inc(sources.spreads.recomputed)
    },
  })
  const history = sources.history
  if (history !== undefined)
    new Counter({
      name: 'predmkt_spread_history_points_total',
      help:
        'Spread history points by fate: `written` (committed to the store), `rejected` (refused by the store as invalid), ' +
        '`dropped` (queue overflow), `lost` (still unwritten when shutdown gave up).',
      labelNames: ['outcome'],
      registers,
      collect() {
        this.reset()
        const s = history()
        this.inc({ outcome: 'written' }, s.written)
        this.inc({ outcome: 'rejected' }, s.rejected)
        this.inc({ outcome: 'dropped' }, s.dropped)
        this.inc({ outcome: 'lost' }, s.lost)
      },
    })
  new Counter({
    name: 'predmkt_page_cache_lookups_total',
    help: 'List responses looked up in the page cache, by result.',
    labelNames: ['result'],
    registers,
    collect() {
      this.reset()
      this.inc({ result: 'hit' }, sources.pages.hits)
      this.inc({ result: 'miss' }, sources.pages.misses)
    },
  })

  new Counter({
    name: 'predmkt_http_responses_total',
    help: 'HTTP responses written, by status code.',
    labelNames: ['code'],
    registers,
    collect() {
      this.reset()
      for (const [code, n] of sources.http().responses) this.inc({ code: String(code) }, n)
    },
  })
  new Counter({
    name: 'predmkt_http_aborted_total',
    help: 'HTTP requests the client abandoned before the response.',
    registers,
    collect() {
      this.reset()
      this.inc(sources.http().aborted)
    },
  })
  registry.registerMetric(httpLatencyHistogram(sources.http))

  if (sources.upstreams !== undefined) {
    const upstreams = sources.upstreams.stats
    const hostOf = `a ${sources.upstreams.venues.join(' or ')} host`
    const perHost = (name: string, help: string, read: (s: UpstreamStats) => number) =>
      new Counter({
        name,
        help,
        labelNames: ['host'],
        registers,
        collect() {
          this.reset()
          for (const s of upstreams()) this.inc({ host: s.name }, read(s))
        },
      })
    perHost('predmkt_upstream_calls_total', `Requests sent to ${hostOf} by the live proxies.`, (s) => s.calls)
    perHost('predmkt_upstream_cache_hits_total', 'Live reads answered from the upstream cache.', (s) => s.cacheHits)
    perHost('predmkt_upstream_joined_total', 'Live reads that shared an identical in-flight request.', (s) => s.joined)
    perHost(
      'predmkt_upstream_failures_total',
      'Venue calls that failed (error status, timeout, bad body).',
      (s) => s.failures,
    )
    perHost(
      'predmkt_upstream_refused_total',
      'Live reads refused locally: breaker open or rate budget used.',
      (s) => s.refusedOpen + s.refusedRateLimit,
    )
    new Gauge({
      name: 'predmkt_upstream_breaker_open',
      help: `1 while the breaker of ${hostOf} is open or half-open.`,
      labelNames: ['host'],
      registers,
      collect() {
        this.reset()
        for (const s of upstreams()) this.set({ host: s.name }, s.breaker === 'closed' ? 0 : 1)
      },
    })
  }
  if (sources.stream !== undefined) streamMetrics(sources.stream, registers)
  return registry
}

/** The streaming WebSocket: connections, held streams, frames out, drops, re-snapshots, closes. */
function streamMetrics(read: () => StreamStatsSnapshot, registers: Registry[]): void {
  new Gauge({
    name: 'predmkt_stream_connections',
    help: 'Open /api/v2/stream connections.',
    registers,
    collect() {
      this.set(read().connections)
    },
  })
  new Gauge({
    name: 'predmkt_stream_subscriptions',
    help: 'Streams held by connections (one per key per connection).',
    registers,
    collect() {
      this.set(read().subscriptions)
    },
  })
  new Gauge({
    name: 'predmkt_stream_open_streams',
    help: 'Streams with a log (held, or within the resume window after their last subscriber left).',
    registers,
    collect() {
      this.set(read().streams)
    },
  })
  const byLabel = (
    name: string,
    help: string,
    label: string,
    pick: (s: StreamStatsSnapshot) => ReadonlyMap<string | number, number>,
  ) =>
    new Counter({
      name,
      help,
      labelNames: [label],
      registers,
      collect() {
        this.reset()
        for (const [k, n] of pick(read())) this.inc({ [label]: String(k) }, n)
      },
    })
  byLabel(
    'predmkt_stream_frames_published_total',
    'Data and marker frames published (once per frame, whatever the number of subscribers), by channel.',
    'channel',
    (s) => s.framesPublished,
  )
  byLabel(
    'predmkt_stream_drops_total',
    'Frames a slow socket lost (or would have: the socket was closed instead), by channel.',
    'channel',
    (s) => s.drops,
  )
  byLabel('predmkt_stream_closes_total', 'Stream connections closed, by WebSocket close code.', 'code', (s) => s.closes)
  new Counter({
    name: 'predmkt_stream_resnapshots_total',
    help: 'Snapshots re-sent to slow sockets once they drained.',
    registers,
    collect() {
      this.reset()
      this.inc(read().resnapshots)
    },
  })
}

/**
 * `predmkt_http_request_duration_seconds` as a real Prometheus histogram built from HttpServer's buckets at
 * scrape time. prom-client's Histogram can only be fed one observation at a time (~0.3 µs each on the request
 * path), so this is a minimal metric object of the shape its registry serializes (name, help, type, get()).
 */
function httpLatencyHistogram(read: () => HttpStatsSnapshot): Metric {
  const name = 'predmkt_http_request_duration_seconds'
  const metric = {
    name,
    help: 'Time from the request callback to the response write (handler, validation, auth, serialization).',
    type: 'histogram',
    aggregator: 'sum',
    collect: () => undefined,
    get: async () => {
      const s = read()
      const values = [
        ...s.buckets.map(([le, n]) => ({
          metricName: `${name}_bucket`,
          labels: { le: Number.isFinite(le) ? String(le) : '+Inf' },
          value: n,
        })),
        { metricName: `${name}_sum`, labels: {}, value: s.sum },
        { metricName: `${name}_count`, labels: {}, value: s.count },
      ]
      return { name, help: metric.help, type: 'histogram', aggregator: 'sum', values }
    },
  }
  return metric as unknown as Metric
}
