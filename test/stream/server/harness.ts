import { Value } from '@sinclair/typebox/value'
import WebSocket from 'ws'
import { StreamConfigSchema, type StreamConfig } from '../../../src/config/schema.js'
import { SimulatedClock } from '../../../src/core/clock.js'
import { silentLogger } from '../../../src/core/logger.js'
import { HttpServer } from '../../../src/http/server.js'
import type { Channel, Rejection } from '../../../src/stream/protocol.js'
import { Sequencer, streamId, type StreamId, type StreamLog } from '../../../src/stream/sequencer.js'
import type { ChannelSource, SubscribeParams } from '../../../src/stream/source.js'
import type { VenueAge } from '../../../src/stream/server/control-frames.js'
import { StreamServer, type StreamCaller } from '../../../src/stream/server/stream-server.js'
import { TopicPublisher } from '../../../src/stream/server/topic-publisher.js'
import { waitFor } from '../../helpers/wait.js'

/**
 * A stream server on a local port with the real pipeline (Sequencer → TopicPublisher → uWS topics) and a test
 * source per channel whose keys are a fixed list: a test emits a change with `emit(key, d)`. Timers (heartbeats,
 * auth timeout, lifetime, stream close) run on a SimulatedClock the test moves.
 */
export const EPOCH = 'e0'
export const GOOD_KEYS = ['venuep:A', 'venuep:B', 'venuek:C'] as const
export const VALID_KEY = 'pmk_live_good'

export class TestSource implements ChannelSource {
  readonly ch: Channel
  readonly opened: string[] = []
  readonly closed: string[] = []
  readonly logs = new Map<string, StreamLog>()
  /** Latest state per key, what a snapshot carries. */
  readonly state = new Map<string, unknown>()
  readonly #sequencer: Sequencer
  readonly #clock: SimulatedClock

  constructor(ch: Channel, sequencer: Sequencer, clock: SimulatedClock) {
    this.ch = ch
    this.#sequencer = sequencer
    this.#clock = clock
  }

  resolve(key: string, params: SubscribeParams): StreamId | Rejection {
    if (!(GOOD_KEYS as readonly string[]).includes(key))
      return { key, code: 'UNKNOWN_KEY', reason: 'no such instrument' }
    return streamId(this.ch, key, this.ch === 'book' ? params.depth : undefined)
  }

  open(log: StreamLog): void {
    this.opened.push(log.id.topic)
    this.logs.set(log.id.key, log)
  }

  close(log: StreamLog): void {
    this.closed.push(log.id.topic)
    this.logs.delete(log.id.key)
  }

  snapshot(log: StreamLog): string {
    return this.#sequencer.snapshot(log, { v: this.state.get(log.id.key) ?? null })
  }

  /** A change of `key`'s state, emitted if its stream is open. Returns the frame, or undefined. */
  emit(key: string, d: unknown): string | undefined {
    this.state.set(key, d)
    const log = this.logs.get(key)
    if (log === undefined) return undefined
    const now = this.#clock.now()
    return this.#sequencer.emit(log, 'delta', { v: d }, now, now)
  }
}

export interface HarnessOptions {
  readonly config?: Partial<StreamConfig>
  readonly authRequired?: boolean
  readonly windowFrames?: number
  readonly windowMs?: number
}

export class Harness {
  readonly clock = new SimulatedClock(1_000_000)
  readonly http = new HttpServer({ log: silentLogger })
  readonly publisher = new TopicPublisher(this.http.app)
  readonly sequencer: Sequencer
  readonly quote: TestSource
  readonly book: TestSource
  readonly alerts: TestSource
  readonly server: StreamServer
  readonly config: StreamConfig
  readonly clients: Client[] = []
  readonly venueAges: Record<string, VenueAge> = { venuep: { state: 'up', age_ms: 140 } }
  port = 0

  constructor(o: HarnessOptions = {}) {
    this.config = Value.Default(StreamConfigSchema, { ...o.config }) as StreamConfig
    this.sequencer = new Sequencer({
      clock: this.clock,
      sink: this.publisher,
      epoch: EPOCH,
      ...(o.windowFrames === undefined ? {} : { windowFrames: o.windowFrames }),
      ...(o.windowMs === undefined ? {} : { windowMs: o.windowMs }),
    })
    this.quote = new TestSource('quote', this.sequencer, this.clock)
    this.book = new TestSource('book', this.sequencer, this.clock)
    this.alerts = new TestSource('alerts', this.sequencer, this.clock)
    this.server = new StreamServer({
      app: this.http.app,
      publisher: this.publisher,
      sequencer: this.sequencer,
      sources: [this.quote, this.book, this.alerts],
      clock: this.clock,
      log: silentLogger,
      config: this.config,
      authRequired: o.authRequired ?? true,
      authenticate: (key) =>
        Promise.resolve<StreamCaller | undefined>(key === VALID_KEY ? { accountId: 'acct-1', keyId: 'k1' } : undefined),
      venues: () => this.venueAges,
    })
    this.http.notFound()
  }

  async start(): Promise<this> {
    this.port = await this.http.listen('127.0.0.1', 0)
    return this
  }

  /** A client with the valid key in `X-API-Key` (or as given), after its `welcome`. */
  async connect(headers: Record<string, string> = { 'x-api-key': VALID_KEY }, query = ''): Promise<Client> {
    const c = this.open(headers, query)
    await c.nextOf('welcome')
    return c
  }

  /** A client without waiting for anything. */
  open(headers: Record<string, string> = {}, query = ''): Client {
    const c = new Client(new WebSocket(`ws://127.0.0.1:${this.port}/api/v2/stream${query}`, { headers }))
    this.clients.push(c)
    return c
  }

  async close(): Promise<void> {
    for (const c of this.clients) c.ws.terminate()
    this.server.close()
    this.http.close()
  }
}

export type Frame = Record<string, unknown>

/** A `ws` client that records every frame (raw text and parsed) and its close. */
export class Client {
  readonly ws: WebSocket
  readonly raw: string[] = []
  readonly frames: Frame[] = []
  closeCode: number | undefined
  #read = 0

  constructor(ws: WebSocket) {
    this.ws = ws
    ws.on('message', (data) => {
      const text = (data as Buffer).toString('utf8')
      this.raw.push(text)
      this.frames.push(JSON.parse(text) as Frame)
    })
    ws.on('close', (code) => {
      this.closeCode = code
    })
    ws.on('error', () => undefined)
  }

  async opened(): Promise<void> {
    if (this.ws.readyState === WebSocket.OPEN) return
    await new Promise<void>((resolve, reject) => {
      this.ws.once('open', () => resolve())
      this.ws.once('close', () => reject(new Error('closed before open')))
    })
  }

  async send(command: unknown): Promise<void> {
    await this.opened()
    this.ws.send(typeof command === 'string' ? command : JSON.stringify(command))
  }

  /** The next unread frame. */
  async next(): Promise<Frame> {
    await waitFor(() => this.frames.length > this.#read, 5_000, 'a frame')
    return this.frames[this.#read++] as Frame
  }

  /** The next `n` unread frames. */
  async take(n: number): Promise<Frame[]> {
    const out: Frame[] = []
    for (let i = 0; i < n; i++) out.push(await this.next())
    return out
  }

  /** Skips unread frames up to and including the next of this type. */
  async nextOf(type: string): Promise<Frame> {
    for (;;) {
      const f = await this.next()
      if (f.type === type) return f
    }
  }

  /** Sends a command and returns the frames up to its answer (the ack, error or pong with its id), excluded hb. */
  async command(command: Frame & { id: number | string }): Promise<Frame> {
    await this.send(command)
    for (;;) {
      const f = await this.next()
      if (f.id === command.id && (f.type === 'ack' || f.type === 'error' || f.type === 'pong')) return f
    }
  }

  get unread(): Frame[] {
    return this.frames.slice(this.#read)
  }

  async closed(): Promise<number> {
    await waitFor(() => this.closeCode !== undefined, 5_000, 'the close')
    return this.closeCode as number
  }
}
