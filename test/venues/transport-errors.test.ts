import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { WebSocketServer } from 'ws'
import { SimulatedClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import {
  HttpClient,
  isRetryable,
  UpstreamHttpError,
  UpstreamNetworkError,
  UpstreamTimeoutError,
} from '../../src/venues/http-client.js'
import { describeNetworkFailure } from '../../src/venues/transport-errors.js'
import { WsConnection } from '../../src/venues/ws-connection.js'
import { waitFor } from '../helpers/wait.js'

/**
 * Going live, the first thing an operator needs from a failure is where and why: every venue HTTP and WebSocket
 * client names the request (method, scheme, host, path) and the cause. Each cause is produced for real against
 * local servers: a port with nothing listening (refused), a `.invalid` host (DNS: that TLD never resolves, no
 * internet needed), https spoken to a plain-HTTP port (TLS), a 5xx, a server that never answers (timeout), and a
 * server that resets the connection.
 */
let http: Server
let httpPort: number
let closedPort: number
let silent: TcpServer
let silentPort: number
let resetter: TcpServer
let resetPort: number
let wss: WebSocketServer
let wsPort: number

const listen = async <T extends Server | TcpServer>(server: T): Promise<number> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}

before(async () => {
  http = createServer((req, res) => {
    if (req.url?.startsWith('/json-503') === true) {
      res.writeHead(503, { 'content-type': 'application/json' })
      res.end('{"error":{"code":"service_unavailable","message":"try later"}}')
    } else if (req.url?.startsWith('/html-502') === true) {
      res.writeHead(502, { 'content-type': 'text/html' })
      res.end('<html><body><h1>502 Bad Gateway</h1></body></html>')
    } else {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('[]')
    }
  })
  httpPort = await listen(http)
  const closed = createTcpServer()
  closedPort = await listen(closed)
  await new Promise((resolve) => closed.close(resolve))
  silent = createTcpServer(() => {})
  silentPort = await listen(silent)
  resetter = createTcpServer((socket) => socket.resetAndDestroy())
  resetPort = await listen(resetter)
  wss = new WebSocketServer({
    port: 0,
    host: '127.0.0.1',
    verifyClient: (_info, done) => done(false, 401, 'Unauthorized'),
  })
  await new Promise((resolve) => wss.once('listening', resolve))
  wsPort = (wss.address() as AddressInfo).port
})

after(async () => {
  http.closeAllConnections()
  await new Promise((resolve) => http.close(resolve))
  silent.close()
  resetter.close()
  await new Promise((resolve) => wss.close(resolve))
})

async function failure(baseUrl: string, path = '/events', timeoutMs = 5_000): Promise<Error> {
  const client = new HttpClient({ baseUrl, timeoutMs })
  try {
    await client.getJson(path, { limit: 100, cursor: 'abc' })
  } catch (err) {
    assert.ok(err instanceof Error)
    return err
  }
  assert.fail(`GET ${baseUrl}${path} succeeded`)
}

describe('HTTP: the error names the request and the cause', () => {
  test('nothing listening: connection refused, with the address', async () => {
    const err = await failure(`http://127.0.0.1:${closedPort}`)
    assert.ok(err instanceof UpstreamNetworkError)
    assert.equal(
      err.message,
      `GET http://127.0.0.1:${closedPort}/events: connection refused (ECONNREFUSED 127.0.0.1:${closedPort})`,
    )
    assert.equal(err.reason, `connection refused (ECONNREFUSED 127.0.0.1:${closedPort})`)
    assert.equal(isRetryable(err), true)
  })

  test('a host that does not resolve: DNS lookup failed, with the host', async () => {
    const err = await failure('http://nonexistent.invalid/trade-api/v2')
    assert.ok(err instanceof UpstreamNetworkError)
    // ENOTFOUND from a resolver that answers; EAI_AGAIN where the machine has no resolver at all.
    assert.match(
      err.message,
      /^GET http:\/\/nonexistent\.invalid\/trade-api\/v2\/events: DNS lookup failed(: the resolver did not answer)? \((ENOTFOUND|EAI_AGAIN) nonexistent\.invalid\)$/,
    )
  })

  test('https to a port that speaks plain HTTP: TLS, with the reason', async () => {
    const err = await failure(`https://127.0.0.1:${httpPort}`)
    assert.ok(err instanceof UpstreamNetworkError)
    assert.equal(
      err.message,
      `GET https://127.0.0.1:${httpPort}/events: TLS: wrong version number; the port may not speak TLS (ERR_SSL_WRONG_VERSION_NUMBER)`,
    )
  })

  test("a 5xx: the status, and the venue's JSON error body (not an HTML page)", async () => {
    const json = await failure(`http://127.0.0.1:${httpPort}`, '/json-503')
    assert.ok(json instanceof UpstreamHttpError)
    assert.equal(
      json.message,
      `GET http://127.0.0.1:${httpPort}/json-503: HTTP 503: {"error":{"code":"service_unavailable","message":"try later"}}`,
    )
    const html = await failure(`http://127.0.0.1:${httpPort}`, '/html-502')
    assert.equal(html.message, `GET http://127.0.0.1:${httpPort}/html-502: HTTP 502`)
    assert.equal(isRetryable(html), true)
  })

  test('no answer: the timeout', async () => {
    const err = await failure(`http://127.0.0.1:${silentPort}`, '/events', 150)
    assert.ok(err instanceof UpstreamTimeoutError)
    assert.equal(err.message, `GET http://127.0.0.1:${silentPort}/events: no answer within 150 ms (timeout)`)
  })

  test('a connection reset by the server', async () => {
    const err = await failure(`http://127.0.0.1:${resetPort}`)
    assert.ok(err instanceof UpstreamNetworkError)
    assert.match(
      err.message,
      new RegExp(
        `^GET http://127\\.0\\.0\\.1:${resetPort}/events: (connection reset by the peer \\(ECONNRESET 127\\.0\\.0\\.1:${resetPort}\\)|connection closed by the peer \\(UND_ERR_SOCKET\\))$`,
      ),
    )
  })

  test("a caller's abort is not turned into a network error", async () => {
    const client = new HttpClient({ baseUrl: `http://127.0.0.1:${silentPort}`, timeoutMs: 5_000 })
    const controller = new AbortController()
    const pending = client.getJson('/events', undefined, controller.signal)
    controller.abort()
    await assert.rejects(
      pending,
      (err: unknown) => !(err instanceof UpstreamNetworkError) && (err as Error).name === 'AbortError',
    )
  })
})

describe('describeNetworkFailure on errors that are hard to produce locally', () => {
  test('certificate errors, an AggregateError of both address families, an unknown code', () => {
    assert.equal(
      describeNetworkFailure(
        new TypeError('fetch failed', {
          cause: Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' }),
        }),
      ),
      'TLS: certificate has expired (CERT_HAS_EXPIRED)',
    )
    assert.equal(
      describeNetworkFailure(
        Object.assign(
          new Error(
            "Hostname/IP does not match certificate's altnames: Host: a.example. is not in the cert's altnames: DNS:b.example",
          ),
          { code: 'ERR_TLS_CERT_ALTNAME_INVALID' },
        ),
      ),
      "TLS: Hostname/IP does not match certificate's altnames: Host: a.example. is not in the cert's altnames: DNS:b.example (ERR_TLS_CERT_ALTNAME_INVALID)",
    )
    const refused = (address: string) =>
      Object.assign(new Error(`connect ECONNREFUSED ${address}:443`), { code: 'ECONNREFUSED', address, port: 443 })
    assert.equal(
      describeNetworkFailure(
        new TypeError('fetch failed', { cause: new AggregateError([refused('::1'), refused('127.0.0.1')]) }),
      ),
      'connection refused (ECONNREFUSED [::1]:443)',
    )
    assert.equal(
      describeNetworkFailure(
        new TypeError('fetch failed', {
          cause: Object.assign(new Error('connect ETIMEDOUT 10.0.0.1:443'), {
            code: 'ETIMEDOUT',
            address: '10.0.0.1',
            port: 443,
          }),
        }),
      ),
      'connect timeout (ETIMEDOUT 10.0.0.1:443)',
    )
    assert.equal(
      describeNetworkFailure(Object.assign(new Error('something odd'), { code: 'EODD' })),
      'something odd (EODD)',
    )
  })
})

describe('WebSocket: why the connection went down names the URL and the cause', () => {
  async function downReason(url: string, authHint?: string): Promise<string> {
    const reasons: string[] = []
    const conn = new WsConnection({
      name: 'test-ws',
      url,
      clock: new SimulatedClock(0),
      log: silentLogger,
      reconnectBaseMs: 1_000,
      reconnectMaxMs: 1_000,
      staleAfterMs: 10_000,
      connectTimeoutMs: 5_000,
      onOpen: () => {},
      onMessage: () => {},
      onDown: (reason) => reasons.push(reason),
      authHint,
    })
    conn.start()
    try {
      await waitFor(() => reasons.length > 0, 5_000, `${url} down`)
    } finally {
      conn.close()
    }
    return reasons[0] as string
  }

  test('refused, DNS, TLS, and a handshake rejected with 401 (with the hint the feed gives)', async () => {
    assert.equal(
      await downReason(`ws://127.0.0.1:${closedPort}/ws`),
      `ws://127.0.0.1:${closedPort}/ws: connection refused (ECONNREFUSED 127.0.0.1:${closedPort})`,
    )
    assert.match(
      await downReason('wss://nonexistent.invalid/trade-api/ws/v2'),
      /^wss:\/\/nonexistent\.invalid\/trade-api\/ws\/v2: DNS lookup failed(: the resolver did not answer)? \((ENOTFOUND|EAI_AGAIN) nonexistent\.invalid\)$/,
    )
    assert.equal(
      await downReason(`wss://127.0.0.1:${httpPort}/ws`),
      `wss://127.0.0.1:${httpPort}/ws: TLS: wrong version number; the port may not speak TLS (EPROTO)`,
    )
    assert.equal(
      await downReason(`ws://127.0.0.1:${wsPort}/trade-api/ws/v2`, 'set THE_KEY'),
      `ws://127.0.0.1:${wsPort}/trade-api/ws/v2: handshake rejected with HTTP 401; set THE_KEY`,
    )
  })
})
