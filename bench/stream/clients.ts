import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks'
import WebSocket from 'ws'
import { STREAM_PATH } from '../../src/stream/server/stream-server.js'
import { PACE_PATH } from './frames.js'
import { LeanClient } from './lean-ws.js'
import { fineWallClock } from './wall-clock.js'

/**
 * The stream bench's clients, in a process of their own (forked by stream.bench.ts, driven over IPC), so the
 * service's CPU and the clients' are measured apart. Two kinds:
 * - `ws` clients (the `ws` package, as a Node user would write one): each connects with an API key, optionally
 *   subscribes to `quote` keys, and while recording takes, for every `delta` it receives, its receive time (a
 *   sub-ms wall clock, wall-clock.ts) against the frame's `lts` and `pts`;
 * - lean clients (lean-ws.ts) for the fan-out run: they only count deltas, and report the slowest one's count to
 *   the server (pacing.ts).
 */
export type ClientsCommand =
  | { op: 'ws'; port: number; apiKeys: string[]; n: number }
  | { op: 'subscribe'; subs: string[][] }
  | { op: 'lean'; port: number; n: number; apiKey: string; keys: string[] }
  | { op: 'record'; on: boolean }
  | { op: 'run'; on: boolean }
  | { op: 'count' }
  | { op: 'close' }

export interface LatencySummary {
  readonly frames: number
  /** Client receive time − lts (fine clock − integer ms), ms. */
  readonly recvMinusLts: Dist
  /** Client receive time − pts, ms. */
  readonly recvMinusPts: Dist
  /** pts − lts (both integer ms): time inside the service from the venue frame's arrival to the publish. */
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
const DELTA = Buffer.from('{"type":"delta"')
const wsClients: WsClient[] = []
const lean: LeanClient[] = []
let recording = false
let recvLts: number[] = []
let recvPts: number[] = []
let ptsLts: number[] = []
let seqBreaks = 0
let loopDelay: IntervalHistogram | undefined
const lastSeq = new Map<string, number>()
let pace: WebSocket | undefined
let paceTimer: NodeJS.Timeout | undefined

function field(buf: Buffer, name: Buffer): number {
  const at = buf.indexOf(name)
  if (at < 0) return Number.NaN
  let v = 0
  for (let i = at + name.length; i < buf.length; i++) {
    const c = buf[i] as number
    if (c < 48 || c > 57) break
    v = v * 10 + (c - 48)
  }
  return v
}
const LTS = Buffer.from('"lts":')
const PTS = Buffer.from('"pts":')
const SEQ = Buffer.from('"seq":')
const KEY = Buffer.from('"key":"')

function onMessage(data: Buffer, client: number): void {
  const t = now()
  if (data.compare(DELTA, 0, DELTA.length, 0, DELTA.length) !== 0) return
  if (!recording) return
  const lts = field(data, LTS)
  const pts = field(data, PTS)
  recvLts.push(t - lts)
  recvPts.push(t - pts)
  ptsLts.push(pts - lts)
  const k = data.indexOf(KEY)
  const key = `${client}|${data.toString('latin1', k + KEY.length, data.indexOf(34, k + KEY.length))}`
  const seq = field(data, SEQ)
  const prev = lastSeq.get(key)
  if (prev !== undefined && seq !== prev + 1) seqBreaks++
  lastSeq.set(key, seq)
}

/** A `ws` client waiting for its welcome or for the answer to its command. */
interface WsClient {
  readonly ws: WebSocket
  answer: ((text: string) => void) | undefined
}

async function connectWs(port: number, apiKey: string): Promise<WsClient> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}${STREAM_PATH}`, { headers: { 'x-api-key': apiKey } })
  const c: WsClient = { ws, answer: undefined }
  const index = wsClients.push(c) - 1
  const welcome = answer(c, 'welcome')
  ws.on('error', () => undefined)
  ws.on('message', (data: Buffer) => {
    if (data[2] === 116 && data[9] === 100)
      onMessage(data, index) // {"type":"delta"…: the hot path, checked first
    else c.answer?.(data.toString('utf8'))
  })
  await welcome
  return c
}

/** The next welcome/ack frame (rejects on an error frame or a subscription's rejected keys). */
function answer(c: WsClient, type: 'welcome' | 'ack'): Promise<void> {
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

async function subscribe(c: WsClient, keys: readonly string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += KEYS_PER_COMMAND) {
    const acked = answer(c, 'ack')
    c.ws.send(JSON.stringify({ op: 'subscribe', id: i, ch: 'quote', keys: keys.slice(i, i + KEYS_PER_COMMAND) }))
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

function dist(xs: number[]): Dist {
  xs.sort((a, b) => a - b)
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
            connectWs(c.port, c.apiKeys[(i + j) % c.apiKeys.length] as string),
          ),
        )
      return { ms: Date.now() - started, clients: wsClients.length }
    }
    case 'subscribe': {
      const started = Date.now()
      for (let i = 0; i < c.subs.length; i += 50)
        await Promise.all(c.subs.slice(i, i + 50).map((keys, j) => subscribe(wsClients[i + j] as WsClient, keys)))
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
        recvLts = []
        recvPts = []
        ptsLts = []
        seqBreaks = 0
        lastSeq.clear()
        loopDelay = monitorEventLoopDelay({ resolution: 1 })
        loopDelay.enable()
        recording = true
        return { cpu: process.cpuUsage() }
      }
      recording = false
      const h = loopDelay as IntervalHistogram
      h.disable()
      const summary: LatencySummary = {
        frames: recvLts.length,
        recvMinusLts: dist(recvLts),
        recvMinusPts: dist(recvPts),
        ptsMinusLts: dist(ptsLts),
        seqBreaks,
        loopDelayMs: { p50: h.percentile(50) / 1e6, p99: h.percentile(99) / 1e6, max: h.max / 1e6 },
      }
      return { summary, cpu: process.cpuUsage() }
    }
    case 'close': {
      clearInterval(paceTimer)
      for (const x of wsClients) x.ws.terminate()
      for (const x of lean) x.close()
      pace?.terminate()
      wsClients.length = 0
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
