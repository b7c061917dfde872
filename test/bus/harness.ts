import { Value } from '@sinclair/typebox/value'
import { jetstreamManager } from '@nats-io/jetstream'
import WebSocket from 'ws'
import type { VenueActor } from '../../src/actors/venue-actor.js'
import { connectBus, type BusLink } from '../../src/bus/connection.js'
import {
  BusFrameSink,
  ensureMdStream,
  LEASED_CHANNELS,
  LeaseClient,
  MirroredSource,
  MirrorStreams,
  serveLeases,
  StreamKeeper,
} from '../../src/bus/stream/index.js'
import { StreamConfigSchema, type StreamConfig } from '../../src/config/schema.js'
import type { SimulatedClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import { HttpServer } from '../../src/http/server.js'
import { RESUME_WINDOW_FRAMES, RESUME_WINDOW_MS, Sequencer } from '../../src/stream/sequencer.js'
import { StreamServer } from '../../src/stream/server/stream-server.js'
import { TopicPublisher } from '../../src/stream/server/topic-publisher.js'
import { marketSources } from '../../src/stream/sources/market/index.js'
import { waitFor } from '../helpers/wait.js'
import { Client, type Frame } from '../stream/server/harness.js'

/**
 * `/api/v2/stream` split over a real nats-server, in one test process, for the market channels (`quote`, `book`,
 * `venue`): an ingest and edges put together as ROLE=ingest and ROLE=edge put them together
 * (src/roles/stream-role.ts), over one shared venue actor on a fake feed and a clock the test moves.
 */
export interface BusWorld {
  readonly natsUrl: string
  readonly clock: SimulatedClock
  readonly actor: VenueActor
}

/** The ingest's stream side: its own sequencer (one epoch per start), the keeper, the sink and the lease responder. */
export class TestIngest {
  private constructor(
    readonly link: BusLink,
    readonly sequencer: Sequencer,
    readonly keeper: StreamKeeper,
    readonly sink: BusFrameSink,
    private readonly stopSide: () => void,
  ) {}

  static async start(world: BusWorld): Promise<TestIngest> {
    const { clock, actor } = world
    const link = await connectBus({ url: world.natsUrl, name: 'ingest', log: silentLogger })
    await ensureMdStream(await jetstreamManager(link.nc), {
      windowMs: RESUME_WINDOW_MS,
      windowFrames: RESUME_WINDOW_FRAMES,
    })
    const sink = new BusFrameSink(link.nc)
    const sequencer = new Sequencer({ clock, sink })
    const sources = marketSources({ sequencer, venues: [actor], clock })
    const keeper = new StreamKeeper({ sequencer, sink, sources, venues: [actor], clock, log: silentLogger })
    sink.onLost = () => keeper.publishSnapshots()
    keeper.start()
    const unfollow = sink.follow(link.nc)
    const leases = serveLeases(link.nc, keeper, silentLogger)
    await link.nc.flush()
    return new TestIngest(link, sequencer, keeper, sink, () => {
      leases.stop()
      unfollow()
      keeper.stop()
    })
  }

  async stop(): Promise<void> {
    this.stopSide()
    await this.link.close()
  }
}

/**
 * An edge: every channel from the mirror, the leased ones leased; keys checked by its own sources over the
 * (shared) actor, so a bad key is refused in the words of one process.
 */
export class TestEdge {
  readonly http = new HttpServer({ log: silentLogger })
  readonly publisher = new TopicPublisher(this.http.app)
  readonly mirror: MirrorStreams
  readonly leases: LeaseClient
  readonly server: StreamServer
  readonly clients: Client[] = []
  #port = 0

  private constructor(
    readonly link: BusLink,
    world: BusWorld,
  ) {
    const { clock, actor } = world
    this.mirror = new MirrorStreams({
      nc: link.nc,
      sink: this.publisher,
      clock,
      log: silentLogger,
      onBroken: (topic) => this.leases.repair(topic),
    })
    this.leases = new LeaseClient({
      nc: link.nc,
      mirror: this.mirror,
      clock,
      log: silentLogger,
      windowMs: RESUME_WINDOW_MS,
    })
    const local = marketSources({ sequencer: new Sequencer({ clock, sink: this.publisher }), venues: [actor], clock })
    this.server = new StreamServer({
      app: this.http.app,
      publisher: this.publisher,
      sequencer: this.mirror,
      sources: local.map(
        (s) =>
          new MirroredSource(
            s.ch,
            this.mirror,
            (k, p) => s.resolve(k, p),
            LEASED_CHANNELS.has(s.ch) ? this.leases : undefined,
          ),
      ),
      clock,
      log: silentLogger,
      config: Value.Default(StreamConfigSchema, {}) as StreamConfig,
      authRequired: false,
      authenticate: () => Promise.resolve(undefined),
      venues: () => ({}),
    })
    this.http.notFound()
  }

  /** `url`: another broker than the world's (an edge with no ingest behind it). */
  static async start(world: BusWorld, name: string, url = world.natsUrl): Promise<TestEdge> {
    const edge = new TestEdge(await connectBus({ url, name, log: silentLogger }), world)
    await edge.mirror.start()
    edge.leases.start()
    edge.#port = await edge.http.listen('127.0.0.1', 0)
    return edge
  }

  /** A client on `/api/v2/stream`, past its `welcome`. */
  async connect(): Promise<Client> {
    const c = new Client(new WebSocket(`ws://127.0.0.1:${this.#port}/api/v2/stream`))
    this.clients.push(c)
    await c.nextOf('welcome')
    return c
  }

  /** Terminates the clients so far and waits until the edge has let their streams go (its linger starts). */
  async closeClients(): Promise<void> {
    for (const c of this.clients.splice(0)) c.ws.terminate()
    await waitFor(() => this.server.stats.connections === 0, 5_000, 'sockets closed')
  }

  async close(): Promise<void> {
    for (const c of this.clients) c.ws.terminate()
    this.server.close()
    this.http.close()
    this.leases.stop()
    await this.mirror.stop()
    await this.link.close()
  }
}

let nextId = 1

/** Subscribes; the ack, and the frames of the initial burst up to `snapshots_done` (excluded), parsed and raw. */
export async function subscribe(
  c: Client,
  ch: string,
  keys: string[],
  extra: Record<string, unknown> = {},
): Promise<{ ack: Frame; burst: Frame[]; raw: string[] }> {
  const ack = await c.command({ op: 'subscribe', id: nextId++, ch, keys, ...extra })
  const burst: Frame[] = []
  const raw: string[] = []
  for (;;) {
    const at = c.frames.length - c.unread.length
    const f = await c.next()
    if (f.type === 'marker' && (f.d as { ev?: string }).ev === 'snapshots_done') break
    burst.push(f)
    raw.push(c.raw[at] as string)
  }
  return { ack, burst, raw }
}

/** Unread data frames of `key` until `n` have come (raw text, as the server sent them); all unread is taken. */
export async function dataFrames(c: Client, key: string, n: number): Promise<string[]> {
  const start = c.frames.length - c.unread.length
  await waitFor(() => c.frames.slice(start).filter((f) => f.key === key).length >= n, 10_000, `${n} frames of ${key}`)
  const out: string[] = []
  for (let i = start; i < c.frames.length; i++) if (c.frames[i]?.key === key) out.push(c.raw[i] as string)
  await c.take(c.frames.length - start)
  return out
}

/** A command id no other command of the test run has used. */
export const commandId = (): number => nextId++
