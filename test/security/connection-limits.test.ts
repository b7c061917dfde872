import assert from 'node:assert/strict'
import net from 'node:net'
import { after, before, test } from 'node:test'
import { startTestService, type TestService } from '../helpers/service.js'

/**
 * Connections that hold a socket without finishing a request (slowloris) or sit idle after one are closed by the
 * server (uWS: ~10 s of no progress, checked every 4 s), so they cannot pile up until file descriptors run out:
 * a request line with no headers after it, headers trickled one byte every 2 s (progress that never completes a
 * request), and a keep-alive connection left idle after its response. Each is measured from its last byte; all
 * three run at once (this test costs ~12 s of wall time, the server's own limit).
 */
let s: TestService

before(async () => {
  s = await startTestService({ questions: 20 })
})
after(() => s.close())

const LIMIT_MS = 16_000

/** Opens a raw connection, runs `talk` on it, and resolves with how long after the start the server closed it. */
function closedAfter(port: number, talk: (socket: net.Socket) => void): Promise<{ ms: number; answered: string }> {
  return new Promise((resolve, reject) => {
    const start = Date.now()
    let answered = ''
    const socket = net.connect(port, '127.0.0.1', () => talk(socket))
    socket.on('data', (chunk: Buffer) => (answered += chunk.toString('latin1')))
    socket.on('error', () => undefined)
    socket.on('close', () => resolve({ ms: Date.now() - start, answered }))
    setTimeout(() => {
      socket.destroy()
      reject(new Error(`still open after ${LIMIT_MS} ms`))
    }, LIMIT_MS).unref()
  })
}

test('slow headers, trickled headers and idle keep-alive connections are closed by the server', async () => {
  const port = Number(new URL(s.baseUrl).port)
  let trickle: NodeJS.Timeout | undefined
  const [partial, trickled, idle] = await Promise.all([
    closedAfter(port, (socket) => socket.write('GET /healthz HTTP/1.1\r\n')),
    closedAfter(port, (socket) => {
      socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ')
      trickle = setInterval(() => {
        if (!socket.destroyed) socket.write('a')
      }, 2_000)
    }),
    closedAfter(port, (socket) => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n')),
  ])
  clearInterval(trickle)
  for (const [what, r] of [
    ['request line only', partial],
    ['headers trickled', trickled],
  ] as const) {
    assert.ok(r.ms >= 8_000 && r.ms < LIMIT_MS, `${what}: closed after ${r.ms} ms`)
    assert.equal(r.answered, '', `${what}: nothing is answered to an unfinished request`)
  }
  assert.match(idle.answered, /^HTTP\/1\.1 200 OK\r\n/, 'the keep-alive request was answered')
  assert.ok(idle.ms >= 8_000 && idle.ms < LIMIT_MS, `idle keep-alive: closed after ${idle.ms} ms`)
  // The service is still answering.
  assert.equal((await fetch(`${s.baseUrl}/healthz`)).status, 200)
})

/**
 * uWS buffers at most ~64 KB of a request head that arrives in one read (measured: 64 KB answered, 128 KB closed;
 * this build ignores UWS_HTTP_MAX_HEADERS_SIZE), 4 KiB of one that arrives in several (test/http/hostile-framing):
 * past it the connection is closed without an answer, so a client cannot make the server hold more than that.
 */
test('a request whose headers exceed the server limit gets 431 or a close, never a 5xx; the service goes on', async () => {
  const port = Number(new URL(s.baseUrl).port)
  for (const size of [256 * 1024, 1024 * 1024]) {
    const r = await closedAfter(port, (socket) => {
      socket.write(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(size)}\r\n\r\n`)
    })
    assert.ok(
      r.answered === '' || /^HTTP\/1\.1 431 /.test(r.answered),
      `${size} B of headers: ${r.answered.slice(0, 80)}`,
    )
    assert.ok(r.ms < 5_000, `${size} B of headers: closed after ${r.ms} ms`)
  }
  assert.equal((await fetch(`${s.baseUrl}/healthz`)).status, 200)
})
