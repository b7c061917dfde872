import { Value } from '@sinclair/typebox/value'
import { StreamConfigSchema, type StreamConfig } from '../../src/config/schema.js'
import { systemClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import { HttpServer } from '../../src/http/server.js'
import type { Rejection } from '../../src/stream/protocol.js'
import { Sequencer, streamId, type StreamId, type StreamLog } from '../../src/stream/sequencer.js'
import type { ChannelSource } from '../../src/stream/source.js'
import { StreamServer } from '../../src/stream/server/stream-server.js'
import { TopicPublisher } from '../../src/stream/server/topic-publisher.js'
import { FANOUT_API_KEY, FANOUT_KEYS, quoteChange } from './frames.js'
import { pace } from './pacing.js'

/**
 * The service's publish path on its own, as a process: HttpServer's uWS app with the real Sequencer →
 * TopicPublisher → StreamServer (wired as src/app.ts wires them), fed by a bench `quote` source that emits a
 * change of FANOUT_KEYS as fast as the clients take them (pacing.ts). No venues, actors or spread engine: the run
 * measures the fan-out, not the ingest. Config: the service's defaults, except the per-key connection limit (one
 * bench key carries every client). Prints `listening <port>`.
 */
class BenchQuoteSource implements ChannelSource {
  readonly ch = 'quote' as const
  readonly logs: (StreamLog | undefined)[] = FANOUT_KEYS.map(() => undefined)
  readonly #sequencer: Sequencer
  #changes = 0

  constructor(sequencer: Sequencer) {
    this.#sequencer = sequencer
  }

  resolve(key: string): StreamId | Rejection {
    return FANOUT_KEYS.includes(key) ? streamId('quote', key) : { key, code: 'UNKNOWN_KEY', reason: 'not a bench key' }
  }

  open(log: StreamLog): void {
    this.logs[FANOUT_KEYS.indexOf(log.id.key)] = log
  }

  close(log: StreamLog): void {
    this.logs[FANOUT_KEYS.indexOf(log.id.key)] = undefined
  }

  snapshot(log: StreamLog): string {
    return this.#sequencer.snapshot(log, quoteChange(0))
  }

  /** The n-th change: stream n mod keys, emitted as the venue actor's quote listener emits (quote-source.ts). */
  emit(n: number): void {
    const log = this.logs[n % FANOUT_KEYS.length]
    if (log === undefined) return
    const now = Date.now()
    this.#sequencer.emit(log, 'delta', quoteChange(this.#changes++), now, now)
  }
}

const config = Value.Default(StreamConfigSchema, { connectionsPerKey: 1_000_000 }) as StreamConfig
const http = new HttpServer({ log: silentLogger })
const publisher = new TopicPublisher(http.app)
const sequencer = new Sequencer({
  clock: systemClock,
  sink: publisher,
  windowFrames: config.resumeWindowFrames,
  windowMs: config.resumeWindowMs,
})
const source = new BenchQuoteSource(sequencer)
const server = new StreamServer({
  app: http.app,
  publisher,
  sequencer,
  sources: [source],
  clock: systemClock,
  log: silentLogger,
  config,
  authRequired: true,
  authenticate: (key) => Promise.resolve(key === FANOUT_API_KEY ? { accountId: 'bench', keyId: 'bench' } : undefined),
  venues: () => ({}),
})
pace(http.app, (n) => source.emit(n))
http.notFound()
const port = await http.listen('127.0.0.1', 0)
process.stdout.write(`listening ${port}\n`)
const stop = (): void => {
  server.close()
  http.close()
  process.exit(0)
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
