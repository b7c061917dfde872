import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks'
import WebSocket from 'ws'
import { STREAM_PATH } from '../../src/stream/server/stream-server.js'
import { PACE_PATH } from './frames.js'
import { LeanClient } from './lean-ws.js'
import { fineWallClock } from './wall-clock.js'

/**
 * The stream bench's clients, in a process of their own (forked by stream.bench.ts, driven over IPC), so the
 * service's CPU and the clients' are measured apart. Both kinds are LeanClients (lean-ws.ts: raw TCP, a frame
 * parser that only looks at a frame's first bytes), so the figures measure the service and not a client library:
 * - measuring clients (op `ws`, for the memory and latency runs): each connects with an API key, awaits its welcome,
 *   optionally subscribes to `quote` keys, and while recording takes, for every `delta`, the receive time (a sub-ms
 *   wall clock, wall-clock.ts) read first thing in the socket's data callback, then reads only `key`, `seq`, `lts`
 *   and `pts` from the envelope's leading fields by byte search (no JSON.parse of the frame), and checks the seq
 *   continues its stream on that client;
 * - counting clients (op `lean`) for the fan-out run: they only count deltas, and report the slowest one's count to
 *   the server (pacing.ts).
 */
export type ClientsCommand =
  /** Measuring clients (named `ws` for the WebSocket connections a user would open; no longer the `ws` package). */
  | { op: 'ws'; port: number; apiKeys: string[]; n: number }
  | { op: 'subscribe'; subs: string[][] }
  | { op: 'lean'; port: number; n: number; apiKey: string; keys: string[] }
  | { op: 'record'; on: boolean }
  | { op: 'run'; on: boolean }
  | { op: 'count' }
  | { op: 'close' }

export interface LatencySummary {
  readonly frames: number
  /** Client receive time − lts (both with µs: the service runs with STREAM_PRECISE_TIMES), ms. */
  readonly recvMinusLts: Dist
  /** Client receive time − pts, ms. */
  readonly recvMinusPts: Dist
  /** pts − lts: time inside the service from the venue frame's arrival to the publish. */
  readonly ptsMinusLts: Dist
  /** Deltas whose seq is not the previous delta's + 1 on the same client and stream (a lost or repeated frame): should be 0. */
  readonly seqBreaks: number
  /** The clients process's own event-loop delay while recording (ms): its share of the latency's tail. */
  readonly loopDelayMs: { readonly p50: number; readonly p99: number; readonly max: number }
}

export interface Dist {
  readonly p50: number
  readonly p90: number
  readonly p99: number
  readonly p999: number
  readonly max: number
  readonly mean: number
}

const now = fineWallClock()
const measuring: MeasuringClient[] = []
const lean: LeanClient[] = []
let recording = false
/**
 * The samples, in arrays allocated once (32 MiB each, off the JS heap): the clients process is the measuring
 * instrument, and arrays grown by `push` while recording (300,000 samples each in the judged run) made it collect
 * its old generation several times a run, each pause delaying every frame that arrived during it.
 */
const SAMPLE_CAPACITY = 1 << 22
const recvLts = new Float64Array(SAMPLE_CAPACITY)
const recvPts = new Float64Array(SAMPLE_CAPACITY)
const ptsLts = new Float64Array(SAMPLE_CAPACITY)
let samples = 0
let seqBreaks = 0
let loopDelay: IntervalHistogram | undefined
let pace: WebSocket | undefined
let paceTimer: NodeJS.Timeout | undefined

const KEY = Buffer.from('"key":"')
const SEQ = Buffer.from('"seq":')
const LTS = Buffer.from('"lts":')
const PTS = Buffer.from('"pts":')
/** Where the number read by the last `numberAfter` ended: the next field is searched from there. */
let cursor = 0

/**
 * The non-negative integer after `name`, searched in `buf[from, end)`; NaN if the field is not there. The envelope
 * puts `type, ch, key, epoch, seq, ts, lts, pts` before `d`, so searching on from the previous field never reaches
 * the payload.
 */
function numberAfter(buf: Buffer, name: Buffer, from: number, end: number): number {
  const at = buf.indexOf(name, from)
  if (at < 0 || at >= end) return Number.NaN
  let v = 0
  let i = at + name.length
  for (; i < end; i++) {
    const c = buf[i] as number
    if (c < 48 || c > 57) break
    v = v * 10 + (c - 48)
  }
  // A fraction (the service's STREAM_PRECISE_TIMES: microseconds).
  if (buf[i] === 46) {
    let scale = 0.1
    for (i++; i < end; i++, scale /= 10) {
      const c = buf[i] as number
      if (c < 48 || c > 57) break
      v += (c - 48) * scale
    }
  }
  cursor = i
  return v
}

/** A latency client's delta: its receive time was read before the chunk was parsed (lean-ws.ts). */
function onDelta(c: MeasuringClient, buf: Buffer, start: number, end: number, t: number): void {
  if (!recording) return
  const k = buf.indexOf(KEY, start)
  if (k < 0 || k >= end) return
  const keyStart = k + KEY.length
  const keyEnd = buf.indexOf(34, keyStart) // the closing quote: stream keys hold no escaped characters
  const seq = numberAfter(buf, SEQ, keyEnd, end)
  const lts = numberAfter(buf, LTS, cursor, end)
  const pts = numberAfter(buf, PTS, cursor, end)
  if (samples < SAMPLE_CAPACITY) {
    recvLts[samples] = t - lts
    recvPts[samples] = t - pts
    ptsLts[samples] = pts - lts
    samples++
  }
  const key = keyHash(buf, keyStart, keyEnd)
  const prev = c.lastSeq.get(key)
  if (prev !== undefined && seq !== prev + 1) seqBreaks++
  c.lastSeq.set(key, seq)
}

/**
 * A stream key's bytes hashed to a small integer (FNV-1a, 30 bits: a V8 small integer, so neither the key nor the
 * map entry allocates per frame). Two keys of one client colliding (~1 in 30,000 runs at 280 keys a client) would
 * show as seq breaks, never hide one.
 */
function keyHash(buf: Buffer, start: number, end: number): number {
  let h = 0x811c9dc5
  for (let i = start; i < end; i++) h = Math.imul(h ^ (buf[i] as number), 0x01000193)
  return h & 0x3fffffff
}

/**
 * A latency (and memory) client: a LeanClient (lean-ws.ts: raw TCP, no `ws` package) that hands its deltas' bytes to
 * `onDelta` and its other frames to `answer` while a welcome or an ack is awaited.
 */
interface MeasuringClient {
  lean: LeanClient | undefined
  answer: ((text: string) => void) | undefined
  /** Per stream key (its keyHash): the last delta's seq on this client. */
  readonly lastSeq: Map<number, number>
}

async function connectMeasuring(port: number, apiKey: string): Promise<MeasuringClient> {
  const c: MeasuringClient = { lean: undefined, answer: undefined, lastSeq: new Map() }
  const welcome = answer(c, 'welcome')
  c.lean = await LeanClient.open(
    port,
    STREAM_PATH,
    // No key: the service runs with AUTH_REQUIRED=false (the broker bench).
    apiKey === '' ? {} : { 'x-api-key': apiKey },
    {
      onControl: (text) => c.answer?.(text),
      receiver: { clock: now, onDelta: (buf, start, end, t) => onDelta(c, buf, start, end, t) },
    },
  )
  measuring.push(c)
  await welcome
  return c
}

/** The next welcome/ack frame (rejects on an error frame or a subscription's rejected keys). */
function answer(c: MeasuringClient, type: 'welcome' | 'ack'): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    c.answer = (text) => {
      if (text.startsWith(`{"type":"${type}"`)) {
        const rejected = type === 'ack' ? ((JSON.parse(text) as { rejected?: unknown[] }).rejected ?? []) : []
        c.answer = undefined
        if (rejected.length > 0) reject(new Error(`rejected: ${JSON.stringify(rejected).slice(0, 300)}`))
        else resolve()
      } else if (text.startsWith('{"type":"error"')) reject(new Error(text))
    }
  })
}

/** Keys per `subscribe` command: a venuep key is ~85 bytes, and a command must stay under max_frame_bytes (16 KiB). */
const KEYS_PER_COMMAND = 100

async function subscribe(c: MeasuringClient, keys: readonly string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += KEYS_PER_COMMAND) {
    const acked = answer(c, 'ack')
    ;(c.lean as LeanClient).send(
      JSON.stringify({ op: 'subscribe', id: i, ch: 'quote', keys: keys.slice(i, i + KEYS_PER_COMMAND) }),
    )
    await acked
  }
}

async function connectLean(port: number, apiKey: string, keys: string[]): Promise<void> {
  const c = await LeanClient.open(port, STREAM_PATH, { 'x-api-key': apiKey })
  lean.push(c)
  await new Promise<void>((resolve, reject) => {
    c.onControl = (text) => {
      if (text.startsWith('{"type":"ack"')) resolve()
      else if (text.startsWith('{"type":"error"')) reject(new Error(text))
    }
    // At once, without waiting for a welcome (the bare app sends none; the service holds it until the key is checked).
    c.send(JSON.stringify({ op: 'subscribe', id: 1, ch: 'quote', keys }))
  })
}

function slowest(): number {
  let min = Number.POSITIVE_INFINITY
  for (const c of lean) if (c.deltas < min) min = c.deltas
  return min
}

function dist(xs: Float64Array): Dist {
  xs.sort()
  const at = (q: number): number => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? Number.NaN
  return {
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    p999: at(0.999),
    max: xs[xs.length - 1] ?? Number.NaN,
    mean: xs.reduce((a, b) => a + b, 0) / xs.length,
  }
}

async function handle(c: ClientsCommand): Promise<unknown> {
  switch (c.op) {
    case 'ws': {
      const started = Date.now()
      // In groups of 50, as many clients would connect over a few seconds rather than in one burst.
      for (let i = 0; i < c.n; i += 50)
        await Promise.all(
          Array.from({ length: Math.min(50, c.n - i) }, (_, j) =>
            connectMeasuring(c.port, c.apiKeys.length === 0 ? '' : (c.apiKeys[(i + j) % c.apiKeys.length] as string)),
          ),
        )
      return { ms: Date.now() - started, clients: measuring.length }
    }
    case 'subscribe': {
      const started = Date.now()
      for (let i = 0; i < c.subs.length; i += 50)
        await Promise.all(
          c.subs.slice(i, i + 50).map((keys, j) => subscribe(measuring[i + j] as MeasuringClient, keys)),
        )
      return { ms: Date.now() - started }
    }
    case 'lean': {
      const started = Date.now()
      for (let i = 0; i < c.n; i += 100)
        await Promise.all(Array.from({ length: Math.min(100, c.n - i) }, () => connectLean(c.port, c.apiKey, c.keys)))
      const p = new WebSocket(`ws://127.0.0.1:${c.port}${PACE_PATH}`)
      await new Promise((resolve, reject) => p.once('open', resolve).once('error', reject))
      pace = p
      return { ms: Date.now() - started, clients: lean.length }
    }
    case 'run': {
      const p = pace as WebSocket
      clearInterval(paceTimer)
      let reported = -1
      const report = (): void => {
        const min = slowest()
        if (min === reported) return
        reported = min
        p.send(JSON.stringify({ received: min }))
      }
      p.send(JSON.stringify({ run: c.on, received: slowest() }))
      if (c.on) paceTimer = setInterval(report, 1)
      return {}
    }
    case 'count': {
      let deltas = 0
      for (const x of lean) deltas += x.deltas
      return { deltas, slowest: slowest(), at: Date.now(), cpu: process.cpuUsage() }
    }
    case 'record': {
      if (c.on) {
        samples = 0
        seqBreaks = 0
        for (const x of measuring) x.lastSeq.clear()
        loopDelay = monitorEventLoopDelay({ resolution: 1 })
        loopDelay.enable()
        recording = true
        return { cpu: process.cpuUsage() }
      }
      recording = false
      const h = loopDelay as IntervalHistogram
      h.disable()
      const summary: LatencySummary = {
        frames: samples,
        recvMinusLts: dist(recvLts.subarray(0, samples)),
        recvMinusPts: dist(recvPts.subarray(0, samples)),
        ptsMinusLts: dist(ptsLts.subarray(0, samples)),
        seqBreaks,
        loopDelayMs: { p50: h.percentile(50) / 1e6, p99: h.percentile(99) / 1e6, max: h.max / 1e6 },
      }
      return { summary, cpu: process.cpuUsage() }
    }
    case 'close': {
      clearInterval(paceTimer)
      for (const x of measuring) x.lean?.close()
      for (const x of lean) x.close()
      pace?.terminate()
      measuring.length = 0
      lean.length = 0
      return {}
    }
  }
}

process.on('message', (m: { seq: number; command: ClientsCommand }) => {
  handle(m.command).then(
    (result) => process.send?.({ seq: m.seq, result }),
    (err: unknown) => process.send?.({ seq: m.seq, error: String((err as Error)?.stack ?? err) }),
  )
})
process.send?.({ seq: 0, result: 'up' })
