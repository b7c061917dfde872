import { jetstreamManager } from '@nats-io/jetstream'
import type { HttpServer } from '../http/server.js'
import type { Clock } from '../core/clock.js'
import type { Stamp } from '../core/precise-time.js'
import type { Logger } from '../core/logger.js'
import type { Config } from '../config/schema.js'
import type { VenueActor } from '../actors/venue-actor.js'
import type { SpreadEngine } from '../spreads/engine/spread-engine.js'
import type { AlertService } from '../alerts/alert-service.js'
import type { BusLink } from '../bus/connection.js'
import {
  BusFrameSink,
  ensureMdStream,
  LEASED_CHANNELS,
  LeaseClient,
  MirroredSource,
  MirrorStreams,
  serveLeases,
  StreamKeeper,
} from '../bus/stream/index.js'
import { Sequencer } from '../stream/sequencer.js'
import type { ChannelSource } from '../stream/source.js'
import { StreamServer, type StreamServerOptions } from '../stream/server/stream-server.js'
import { TopicPublisher } from '../stream/server/topic-publisher.js'
import { RecentFirings, streamSources, venueHeartbeat } from '../stream/sources/index.js'

/**
 * `/api/v2/stream` as each role runs it (docs/SCALE-OUT.md):
 * - `all`: the sources number frames (Sequencer) and publish them on this app's uWS topics; the fan-out serves them.
 * - `ingest`: the same sources and sequencer, but frames go to the broker (`md.<ch>.<venue>.<stream>`); no client
 *   opens streams here, so a keeper does: every `venue` stream, and the streams edges lease for their clients. The
 *   `MD` JetStream stream keeps the resume window. No client-facing stream: clients connect to edges.
 * - `edge`: every channel comes from the broker with the ingest's `(epoch, seq)` (MirrorStreams), so a resume token
 *   is good on any edge; the edge's own sources (over its replica state) only check keys, so a bad key is refused in
 *   the same words as on one process.
 */
/** The bus side's counters for /metrics (src/metrics.ts), per role: what can go wrong there, counted. */
export interface BusStats {
  readonly linkUp: boolean
  /** Ingest: frames the broker client refused (each leaves its stream to resync at the edges). */
  readonly framesFailed?: number
  /** Ingest: frames published again after a broker outage (held through it); times that hold overflowed. */
  readonly framesHeld?: number
  readonly holdOverflows?: number
  /** Ingest: snapshots republished for streams quiet for half a window. */
  readonly keyframes?: number
  /** Ingest: streams held open; edge: streams mirrored. */
  readonly streams: number
  /** Ingest: leased streams closed because no edge renewed them. */
  readonly leasesExpired?: number
  /** Edge: streams it leases from the ingest, and lease requests that failed (its clients were told to retry). */
  readonly leases?: number | undefined
  readonly leaseFailures?: number | undefined
  /** Edge: frames that did not continue their stream, markers dropped for want of state, messages not frames. */
  readonly mirrorGaps?: number
  readonly mirrorSkipped?: number
  readonly mirrorMalformed?: number
}

export interface StreamRole {
  /** The fan-out (absent on an ingest). */
  readonly server: StreamServer | undefined
  /** This process's sequencer (the ingest's numbers the mirrored streams; an edge's only its own channels). */
  readonly sequencer: Sequencer
  readonly recentFirings: RecentFirings
  /** Starts what needs the broker (the MD stream, the keeper; the mirror's read of the window). */
  start(): Promise<void>
  /** Clients first (`bye`), then the bus side. */
  close(): Promise<void>
  /** The bus side's counters; undefined for `all`. */
  busStats(): BusStats | undefined
}

export interface StreamRoleOptions {
  readonly config: Config
  readonly http: HttpServer
  readonly link: BusLink | undefined
  readonly clock: Clock
  readonly log: Logger
  readonly stamp: Stamp | undefined
  readonly actors: readonly VenueActor[]
  readonly spreads: SpreadEngine
  readonly alerts: AlertService
  readonly venueIds: readonly string[]
  readonly authenticate: StreamServerOptions['authenticate']
}

export function assembleStream(o: StreamRoleOptions): StreamRole {
  const { config, clock } = o
  const log = o.log.child({ component: 'stream' })
  const role = config.role
  const recentFirings = new RecentFirings()
  const publisher = new TopicPublisher(o.http.app)
  const busSink =
    role === 'ingest'
      ? new BusFrameSink(requireLink(o.link).nc, { holdMaxBytes: config.nats.holdMaxBytes, log })
      : undefined
  const sequencer = new Sequencer({
    clock,
    sink: busSink ?? publisher,
    windowFrames: config.stream.resumeWindowFrames,
    windowMs: config.stream.resumeWindowMs,
    stamp: o.stamp,
  })
  // On an edge these sources only resolve keys (their frames come from the ingest), so nothing fires there.
  const sources = streamSources({
    sequencer,
    clock,
    log,
    venues: o.actors,
    engine: o.spreads,
    venueIds: o.venueIds,
    alerts: { service: o.alerts, recent: recentFirings },
  })
  const window = { windowMs: config.stream.resumeWindowMs, windowFrames: config.stream.resumeWindowFrames }

  if (role === 'ingest') {
    const link = requireLink(o.link)
    const keeper = new StreamKeeper({
      sequencer,
      sink: busSink as BusFrameSink,
      sources,
      venues: o.actors,
      clock,
      log,
    })
    // The sink holds frames through a broker outage; if that overflowed, every stream starts over from its snapshot.
    const sink = busSink as BusFrameSink
    sink.onLost = () => keeper.publishSnapshots()
    let unfollow: (() => void) | undefined
    let leases: ReturnType<typeof serveLeases> | undefined
    return {
      server: undefined,
      sequencer,
      recentFirings,
      start: async () => {
        await ensureMdStream(await jetstreamManager(link.nc), window)
        keeper.start()
        unfollow = sink.follow(link.nc)
        leases = serveLeases(link.nc, keeper, log)
      },
      close: async () => {
        leases?.stop()
        unfollow?.()
        keeper.stop()
      },
      busStats: () => ({
        linkUp: link.up,
        framesFailed: sink.failed,
        framesHeld: sink.framesHeld,
        holdOverflows: sink.holdOverflows,
        keyframes: keeper.keyframes,
        streams: keeper.topics.length,
        leasesExpired: keeper.leasesExpired,
      }),
    }
  }

  let mirror: MirrorStreams | undefined
  let leases: LeaseClient | undefined
  let served: ChannelSource[] = sources
  if (role === 'edge') {
    const nc = requireLink(o.link).nc
    mirror = new MirrorStreams({
      nc,
      sink: publisher,
      clock,
      log,
      ...window,
      onBroken: (topic) => leases?.repair(topic),
    })
    const m = mirror
    const l = new LeaseClient({ nc, mirror: m, clock, log, windowMs: window.windowMs })
    leases = l
    // Keys are checked by the edge's own source (its replica actors and engine), so a bad key is refused for the
    // same reason in the same words as on one process; the frames come from the mirror.
    served = sources.map(
      (s) => new MirroredSource(s.ch, m, (k, p) => s.resolve(k, p), LEASED_CHANNELS.has(s.ch) ? l : undefined),
    )
  }
  const server = new StreamServer({
    app: o.http.app,
    publisher,
    sequencer: mirror ?? sequencer,
    sources: served,
    clock,
    log,
    config: config.stream,
    authRequired: config.auth.required,
    authenticate: o.authenticate,
    // The same state rule as the `venue` channel's (market/venue-state.ts).
    venues: () => venueHeartbeat(o.actors, clock),
  })
  return {
    server,
    sequencer,
    recentFirings,
    start: async () => {
      await mirror?.start()
      leases?.start()
    },
    close: async () => {
      server.close()
      leases?.stop()
      await mirror?.stop()
    },
    busStats: () =>
      mirror === undefined || o.link === undefined
        ? undefined
        : {
            linkUp: o.link.up,
            streams: mirror.size,
            leases: leases?.size,
            leaseFailures: leases?.failures,
            mirrorGaps: mirror.gaps,
            mirrorSkipped: mirror.skipped,
            mirrorMalformed: mirror.malformed,
          },
  }
}

function requireLink(link: BusLink | undefined): BusLink {
  if (link === undefined) throw new Error('this role needs the broker link (NATS_URL)')
  return link
}
