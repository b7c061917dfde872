import { Value } from '@sinclair/typebox/value'
import uWS from 'uWebSockets.js'
import { StreamConfigSchema, type StreamConfig } from '../../src/config/schema.js'
import { systemClock } from '../../src/core/clock.js'
import { Sequencer, streamId } from '../../src/stream/sequencer.js'
import { FANOUT_API_KEY, FANOUT_KEYS, FANOUT_TOPICS, quoteChange } from './frames.js'
import { pace } from './pacing.js'

/**
 * The fan-out run's reference: a bare uWS app with the stream's socket settings (maxBackpressure, idle timeout,
 * pings), on which a client's `subscribe` subscribes its socket to the keys' topics, publishing frames of the same
 * bytes as the service's (built before the run with a Sequencer, as the service builds them, kept as Buffers),
 * paced the same way (pacing.ts). No auth, no command checks, no sequencing, no heartbeats, no slow-consumer
 * watch: what is left is uWS moving the bytes. Prints `listening <port>`.
 */
const FRAMES_PER_TOPIC = 4_096
const config = Value.Default(StreamConfigSchema, {}) as StreamConfig
const frames: Buffer[] = []
const sequencer = new Sequencer({ clock: systemClock, sink: { publish: () => undefined }, windowFrames: 0 })
const logs = FANOUT_KEYS.map((k) => sequencer.open(streamId('quote', k)))
for (let i = 0; i < FRAMES_PER_TOPIC * FANOUT_KEYS.length; i++) {
  const now = Date.now()
  frames.push(Buffer.from(sequencer.emit(logs[i % logs.length]!, 'delta', quoteChange(i), now, now)))
}
const ACK = '{"type":"ack"}'

const app = uWS.App()
app.ws<{ key: string }>('/api/v2/stream', {
  maxPayloadLength: config.maxFrameBytes * 4,
  maxBackpressure: config.maxBackpressureBytes,
  closeOnBackpressureLimit: 0,
  idleTimeout: config.idleTimeoutS,
  sendPingsAutomatically: true,
  upgrade: (res, req, context) => {
    res.upgrade(
      { key: req.getHeader('x-api-key') },
      req.getHeader('sec-websocket-key'),
      req.getHeader('sec-websocket-protocol'),
      req.getHeader('sec-websocket-extensions'),
      context,
    )
  },
  message: (ws, message) => {
    if (ws.getUserData().key !== FANOUT_API_KEY) return
    const c = JSON.parse(Buffer.from(message).toString('utf8')) as { op?: string; keys?: string[] }
    if (c.op !== 'subscribe') return
    for (const key of c.keys ?? []) ws.subscribe(`quote|${key}`)
    ws.send(ACK)
  },
})
pace(app, (n) => app.publish(FANOUT_TOPICS[n % FANOUT_TOPICS.length] as string, frames[n % frames.length] as Buffer))
app.listen('127.0.0.1', 0, (socket) => {
  if (socket === false) process.exit(1)
  process.stdout.write(`listening ${uWS.us_socket_local_port(socket as unknown as uWS.us_socket)}\n`)
  const stop = (): void => {
    uWS.us_listen_socket_close(socket)
    process.exit(0)
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
})
