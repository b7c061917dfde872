import assert from 'node:assert/strict'
import { connect, type Socket } from 'node:net'
import { test } from 'node:test'
import { silentLogger } from '../../src/core/logger.js'
import { json } from '../../src/http/reply.js'
import { HttpServer } from '../../src/http/server.js'

/**
 * Shutdown of the HTTP server (SIGTERM, src/app.ts teardown): close() stops accepting, a request already running
 * is answered and drain() waits for it, a request that arrives on a kept-alive connection afterwards is answered
 * 503 `shutting_down` without running its route, and every answer from then on closes its connection, so no
 * client reuses one the exiting process would reset.
 */
class Conn {
  readonly socket: Socket
  #buf = ''
  closed = false
  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1')
    this.socket.on('data', (d: Buffer) => (this.#buf += d.toString('latin1')))
    this.socket.on('close', () => (this.closed = true))
  }
  send(path: string, method = 'GET'): void {
    this.socket.write(`${method} ${path} HTTP/1.1\r\nHost: x\r\n\r\n`)
  }
  /** The next whole response (head and its Content-Length body). */
  async response(): Promise<{ status: number; head: string; body: string }> {
    for (let i = 0; i < 500; i++) {
      const end = this.#buf.indexOf('\r\n\r\n')
      if (end >= 0) {
        const head = this.#buf.slice(0, end)
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0)
        if (this.#buf.length >= end + 4 + length) {
          const body = this.#buf.slice(end + 4, end + 4 + length)
          this.#buf = this.#buf.slice(end + 4 + length)
          return { status: Number(head.split(' ')[1]), head, body }
        }
      }
      await new Promise((r) => setTimeout(r, 10))
    }
    throw new Error(`no response; got ${JSON.stringify(this.#buf)}`)
  }
}

test('close(): the running request is answered and drained, later ones get 503 shutting_down, connections close', async () => {
  const server = new HttpServer({ log: silentLogger })
  let release!: () => void
  const gate = new Promise<void>((r) => (release = r))
  let ran = 0
  server.route({
    method: 'get',
    path: '/slow',
    handler: async () => {
      ran++
      await gate
      return json(200, { ok: true })
    },
  })
  server.route({ method: 'get', path: '/fast', handler: () => (ran++, json(200, { ok: true })) })
  server.notFound()
  const port = await server.listen('127.0.0.1', 0)
  const slow = new Conn(port)
  const idle = new Conn(port)
  idle.send('/fast')
  assert.equal((await idle.response()).status, 200)
  slow.send('/slow')
  await new Promise((r) => setTimeout(r, 50))
  assert.equal(server.inFlight, 1)

  server.close()
  let drained: number | undefined
  const draining = server.drain(5_000).then((n) => (drained = n))
  // A request on a connection kept alive from before: refused cleanly, its route never runs.
  idle.send('/fast')
  const refused = await idle.response()
  assert.equal(refused.status, 503)
  assert.deepEqual(JSON.parse(refused.body), {
    detail: 'The service is shutting down; retry shortly.',
    code: 'shutting_down',
  })
  assert.match(refused.head, /^retry-after: 1$/im)
  assert.match(refused.head, /^connection: close$/im)
  assert.equal(ran, 2)
  assert.equal(drained, undefined, 'drain waits for the running request')

  release()
  const answered = await slow.response()
  assert.equal(answered.status, 200)
  assert.match(answered.head, /^connection: close$/im)
  await draining
  assert.equal(drained, 0)
  for (const c of [slow, idle]) {
    for (let i = 0; i < 100 && !c.closed; i++) await new Promise((r) => setTimeout(r, 10))
    assert.ok(c.closed, 'the server closed the connection after its answer')
  }
  // Not listening any more.
  await assert.rejects(fetch(`http://127.0.0.1:${port}/fast`))
})

test('drain() gives up after its bound and says how many requests are still running', async () => {
  const server = new HttpServer({ log: silentLogger })
  server.route({ method: 'get', path: '/never', handler: () => new Promise(() => undefined) })
  const port = await server.listen('127.0.0.1', 0)
  const c = new Conn(port)
  c.send('/never')
  await new Promise((r) => setTimeout(r, 50))
  server.close()
  const startedAt = Date.now()
  assert.equal(await server.drain(200), 1)
  assert.ok(Date.now() - startedAt >= 190)
  c.socket.destroy()
})
