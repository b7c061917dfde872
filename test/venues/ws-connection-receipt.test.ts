import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { after, before, test } from 'node:test'
import { WebSocketServer, type WebSocket } from 'ws'
import { SimulatedClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import { WsConnection } from '../../src/venues/ws-connection.js'
import { waitFor } from '../helpers/wait.js'

/**
 * A frame's receipt time (the stream's `lts`) is when the socket read that brought it arrived, not when the feed got
 * round to it: frames that came in one read share one stamp. A stamp taken per frame as it is handled would hide,
 * from `pts − lts` and from the stream bench's latency, the time a frame waited for the frames before it.
 */
let wss: WebSocketServer
let url: string
let serverSide: WebSocket | undefined

before(async () => {
  wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()))
  url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/`
  wss.on('connection', (ws) => {
    serverSide = ws
  })
})

after(async () => {
  for (const ws of wss.clients) ws.terminate()
  await new Promise<void>((resolve) => wss.close(() => resolve()))
})

/** Sends `frames` in one TCP write (the socket corked around the sends), so the client reads them in one go. */
function sendInOneWrite(frames: readonly string[]): void {
  const socket = (serverSide as unknown as { _socket: import('node:net').Socket })._socket
  socket.cork()
  for (const f of frames) serverSide?.send(f)
  socket.uncork()
}

async function receive(): Promise<[string, number][]> {
  let stamps = 0
  const got: [string, number][] = []
  serverSide = undefined
  const conn = new WsConnection({
    name: 'receipt-test',
    url,
    clock: new SimulatedClock(0),
    log: silentLogger,
    reconnectBaseMs: 20,
    reconnectMaxMs: 20,
    staleAfterMs: 60_000,
    connectTimeoutMs: 5_000,
    // Each call a new value: two frames with the same stamp were stamped by one call.
    receiptStamp: () => ++stamps,
    onOpen: () => {},
    onMessage: (data, receivedAt) => {
      got.push([data, receivedAt])
      // Handling takes time: a stamp taken per frame as it is handled would differ.
      const until = performance.now() + 2
      while (performance.now() < until);
    },
    onDown: () => {},
  })
  conn.start()
  try {
    await waitFor(() => conn.isOpen && serverSide !== undefined, 5_000, 'connection open')
    sendInOneWrite(['a', 'b', 'c'])
    await waitFor(() => got.length === 3, 5_000, 'three frames')
    sendInOneWrite(['d'])
    await waitFor(() => got.length === 4, 5_000, 'the fourth frame')
  } finally {
    conn.close()
  }
  return got
}

test('frames of one read share its receipt stamp, however long the frames before them took; a later read has a later one', async () => {
  const got = await receive()
  assert.deepEqual(
    got.map(([data]) => data),
    ['a', 'b', 'c', 'd'],
  )
  const [a, b, c, d] = got.map(([, at]) => at) as [number, number, number, number]
  assert.equal(b, a)
  assert.equal(c, a)
  assert.ok(d > a, `the second read is stamped after the first (${d} > ${a})`)
})
