import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import fc from 'fast-check'
import { SCALE, SEED } from '../helpers/fuzz.js'
import { rawExchange, type RawExchange, type RawResponse } from '../helpers/raw-http.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { countRows } from '../store/scan.js'

/**
 * Issue 23 item 1, the HTTP layer under the fuzz of every operation (hostile-input.property.test.ts): raw bytes on
 * raw sockets, where a client can break what `fetch` keeps well-formed. Pipelined requests are answered in order;
 * a body over the limit is a 413 as soon as the service can know (at once when its Content-Length says so); framing
 * uWS cannot parse is never answered by a route, changes nothing and disturbs no other client.
 *
 * What uWS.js (20.30, the build on npm) does with broken framing is not the service's to choose, since no hook
 * exists for it; these tests pin it, so a change shows, and docs/reliability/fuzz.md explains it:
 * - Content-Length with Transfer-Encoding, a malformed Content-Length or chunk, a method it does not know: the
 *   connection is closed at once.
 * - a request head it cannot parse (a bad request line or header line, no Host): no answer, and the connection is
 *   held until uWS's idle timeout (10 s) closes it;
 * - two differing Content-Length headers: the first is read (RFC 9112 wants a 400; a proxy that reads the last
 *   would see another request in the body, so one in front must refuse them);
 * - a head over its 4 KiB buffer that arrives in more than one read (1 MB of URL or header, or 5 KB sent in pieces):
 *   the connection is closed at once, unanswered (reset when unread bytes remain), where 431 would be right.
 */
const HEAD = 'Host: 127.0.0.1'
const SIGNUP_HEAD = `POST /api/v2/developers/signup HTTP/1.1\r\n${HEAD}\r\nContent-Type: application/json\r\n`
/** uWS's idle timeout (10 s) plus slack: when a connection it could not parse is closed. */
const IDLE_CLOSE_MS = 12_000

/** Heads uWS cannot parse: it neither answers nor closes until its idle timeout. */
const UNPARSED: Record<string, string> = {
  'no spaces in the request line': 'GARBAGE\r\n\r\n',
  'an unknown HTTP version': `GET /healthz HTTP/9.9\r\n${HEAD}\r\n\r\n`,
  'a header line without a colon': `GET /healthz HTTP/1.1\r\n${HEAD}\r\nNo-Colon\r\n\r\n`,
  'a NUL in a header value': `GET /healthz HTTP/1.1\r\n${HEAD}\r\nX-A: a\u0000b\r\n\r\n`,
  'no Host header': 'GET /healthz HTTP/1.1\r\n\r\n',
  'bare LF line ends': `GET /healthz HTTP/1.1\n${HEAD}\n\n`,
  '200 header lines': `GET /healthz HTTP/1.1\r\n${HEAD}\r\n${Array.from({ length: 200 }, (_, i) => `X-H${i}: v`).join('\r\n')}\r\n\r\n`,
}

/** Mutated requests (bytes replaced, inserted, deleted; the end cut off) sent at once, each on its own connection. */
const MUTANTS = Math.ceil(60 * SCALE)
const MUTANTS_AT_ONCE = 60
/** Bytes that mean something to an HTTP parser, and a few that mean nothing. */
const FRAMING_BYTES = [0x00, 0x0d, 0x0a, 0x20, 0x3a, 0x09, 0x2c, 0x3b, 0x2d, 0x30, 0x39, 0x7f, 0x80, 0xff, 0x61]

/** A request's bytes with one to three mutations. */
function mutated(templates: readonly Buffer[]): fc.Arbitrary<Buffer> {
  const mutation = fc.tuple(
    fc.constantFrom('replace', 'insert', 'delete', 'cut'),
    fc.nat(),
    fc.constantFrom(...FRAMING_BYTES),
  )
  return fc.tuple(fc.constantFrom(...templates), fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([t, ms]) => {
    let bytes = [...t]
    for (const [kind, at, byte] of ms) {
      const i = at % Math.max(1, bytes.length)
      if (kind === 'replace') bytes[i] = byte
      else if (kind === 'insert') bytes.splice(i, 0, byte)
      else if (kind === 'delete') bytes.splice(i, 1)
      else bytes = bytes.slice(0, i)
    }
    return Buffer.from(bytes)
  })
}

describe('HTTP framing', () => {
  let s: TestService
  /** The unparsable heads, sent at start: their connections end (at uWS's idle timeout) while the tests run. */
  let unparsed: [string, Promise<RawExchange>][]
  /** The mutants, sent at start too: answered at once, or closed by uWS at the latest at its idle timeout. */
  let mutants: [Buffer, Promise<RawExchange>][]

  before(async () => {
    s = await startTestService({
      questions: 20,
      config: { auth: { rateLimit: { burst: 1_000_000 }, signupRateLimit: { burst: 1_000_000 } } },
    })
    unparsed = Object.entries(UNPARSED).map(([name, bytes]) => [
      name,
      rawExchange(s.app.port, [bytes], { timeoutMs: IDLE_CLOSE_MS + 3_000 }),
    ])
    const key = s.apiKey as string
    const body = '{"email":"mutant@example.com","company":"a","use_case":"b"}'
    const templates = [
      `GET /api/v2/spreads?limit=2&min_spread=0.01 HTTP/1.1\r\n${HEAD}\r\nX-API-Key: ${key}\r\nConnection: close\r\n\r\n`,
      `${SIGNUP_HEAD}Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      `${SIGNUP_HEAD}Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
      `GET /healthz HTTP/1.1\r\n${HEAD}\r\n\r\nGET /readyz HTTP/1.1\r\n${HEAD}\r\nConnection: close\r\n\r\n`,
    ].map((t) => Buffer.from(t, 'latin1'))
    // In waves of MUTANTS_AT_ONCE (a longer run has more waves, not more at once, so the other tests' timings hold).
    let wave: Promise<unknown> = Promise.resolve()
    mutants = []
    const all = fc.sample(mutated(templates), { seed: SEED, numRuns: MUTANTS })
    for (let i = 0; i < all.length; i += MUTANTS_AT_ONCE) {
      const previous = wave
      const batch = all.slice(i, i + MUTANTS_AT_ONCE).map((bytes) => {
        const exchange = previous.then(() => rawExchange(s.app.port, [bytes], { timeoutMs: IDLE_CLOSE_MS + 3_000 }))
        mutants.push([bytes, exchange])
        return exchange
      })
      wave = Promise.all(batch)
    }
  })
  after(() => s.close())

  const keyed = (line: string): string => `${line}\r\n${HEAD}\r\nX-API-Key: ${s.apiKey as string}\r\n\r\n`

  test('pipelined requests on one connection: each answered, in order, whatever each one gets', async () => {
    const requests = [
      keyed('GET /api/v2/events?limit=1 HTTP/1.1'),
      `${SIGNUP_HEAD}Content-Length: 2\r\n\r\n{}`,
      keyed('HEAD /api/v2/spreads/top HTTP/1.1'),
      keyed('GET /api/v2/nowhere HTTP/1.1'),
      `GET /api/v2/events HTTP/1.1\r\n${HEAD}\r\n\r\n`,
      keyed('GET /api/v2/spreads?limit=0 HTTP/1.1'),
      `POST /api/v2/developers/signup HTTP/1.1\r\n${HEAD}\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
      `GET /healthz HTTP/1.1\r\n${HEAD}\r\n\r\n`,
    ]
    const expected = [200, 422, 200, 404, 401, 422, 415, 200]
    // All in one write, then byte by byte in small pieces: request boundaries need not fall on reads.
    const joined = requests.join('')
    const pieces = Array.from({ length: Math.ceil(joined.length / 7) }, (_, i) => joined.slice(i * 7, i * 7 + 7))
    for (const chunks of [[joined], pieces]) {
      const r = await rawExchange(s.app.port, chunks, { expect: expected.length, timeoutMs: 5_000, heads: [2] })
      assert.deepEqual(
        r.responses.map((res) => res.status),
        expected,
      )
      assert.equal(r.ending, 'open', 'the connection stays open for more')
      assert.ok(r.elapsedMs < 1_000, `${r.elapsedMs} ms`)
      for (const res of r.responses) if (res.status >= 400) assertJsonError(res)
      // The answers are the ones asked for, not shifted: the first lists events, the last is the health check.
      assert.ok(JSON.parse(r.responses[0]?.body.toString() ?? '{}').events !== undefined)
      assert.deepEqual(JSON.parse(r.responses[7]?.body.toString() ?? '{}'), { status: 'ok' })
    }
  })

  test('a body over the limit: 413 at once when its Content-Length says so, when crossed if streamed; the connection goes on', async () => {
    const accounts = await countRows(s.db, 'accounts')
    const tooBig = 10_000_000
    // Announced and not sent (before the fix: no answer until 64 KiB arrived, here until uWS's idle timeout), and
    // with `Expect: 100-continue`, where a client waits for the answer before sending anything.
    for (const expect of ['', 'Expect: 100-continue\r\n']) {
      const r = await rawExchange(s.app.port, [`${SIGNUP_HEAD}${expect}Content-Length: ${tooBig}\r\n\r\n`], {
        expect: expect === '' ? 1 : 2,
      })
      const answer = r.responses.at(-1) as RawResponse
      assert.equal(answer.status, 413, JSON.stringify(r))
      assertJsonError(answer, 'payload_too_large')
      assert.ok(r.elapsedMs < 1_000, `${r.elapsedMs} ms`)
    }
    // Announced and sent: the rest of the body is read and dropped, and the next request on the socket answered.
    const sent = await rawExchange(
      s.app.port,
      [`${SIGNUP_HEAD}Content-Length: 100000\r\n\r\n`, 'x'.repeat(100_000), `GET /healthz HTTP/1.1\r\n${HEAD}\r\n\r\n`],
      { expect: 2 },
    )
    assert.deepEqual(
      sent.responses.map((r) => r.status),
      [413, 200],
    )
    // Streamed (chunked, no length announced): 413 once 64 KiB have come, while the client is still sending.
    const chunk = `4000\r\n${'x'.repeat(0x4000)}\r\n`
    const streamed = await rawExchange(
      s.app.port,
      [`${SIGNUP_HEAD}Transfer-Encoding: chunked\r\n\r\n`, ...Array.from({ length: 64 }, () => chunk), '0\r\n\r\n'],
      { expect: 1, gapMs: 1 },
    )
    assert.equal(streamed.responses[0]?.status, 413)
    assertJsonError(streamed.responses[0] as RawResponse, 'payload_too_large')
    assert.notEqual(streamed.ending, 'reset')
    assert.ok(streamed.elapsedMs < 1_000, `${streamed.elapsedMs} ms`)
    assert.equal(await countRows(s.db, 'accounts'), accounts)
  })

  test('Content-Length with Transfer-Encoding, a malformed length or chunk: closed at once, unanswered, nothing stored', async () => {
    const accounts = await countRows(s.db, 'accounts')
    const body = '{"email":"smuggled@example.com","company":"a","use_case":"b"}'
    const hex = body.length.toString(16)
    const cases = [
      `${SIGNUP_HEAD}Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n${hex}\r\n${body}\r\n0\r\n\r\n`,
      `${SIGNUP_HEAD}Transfer-Encoding: chunked\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      `${SIGNUP_HEAD}Content-Length: abc\r\n\r\n${body}`,
      `${SIGNUP_HEAD}Content-Length: -1\r\n\r\n${body}`,
      `${SIGNUP_HEAD}Transfer-Encoding: chunked\r\n\r\nzz\r\n${body}\r\n0\r\n\r\n`,
    ]
    for (const bytes of cases) {
      const r = await rawExchange(s.app.port, [bytes])
      assert.deepEqual(r.responses, [], bytes)
      assert.equal(r.ending, 'closed', bytes)
      assert.ok(r.elapsedMs < 1_000, `${bytes}: ${r.elapsedMs} ms`)
    }
    assert.equal(await countRows(s.db, 'accounts'), accounts)
  })

  test('two differing Content-Length headers: uWS reads the first (pinned: a proxy in front must refuse them)', async () => {
    const accounts = await countRows(s.db, 'accounts')
    const r = await rawExchange(
      s.app.port,
      [`${SIGNUP_HEAD}Content-Length: 2\r\nContent-Length: 40\r\n\r\n{}GET /healthz HTTP/1.1\r\n${HEAD}\r\n\r\n`],
      { expect: 2 },
    )
    assert.deepEqual(
      r.responses.map((res) => res.status),
      [422, 200],
    )
    assert.equal(await countRows(s.db, 'accounts'), accounts)
  })

  test('a method uWS does not know (FOO, lowercase get, PRI): closed at once, unanswered', async () => {
    for (const method of ['FOO', 'get', 'PRI', 'G-E_T', 'M'.repeat(300)]) {
      const r = await rawExchange(s.app.port, [keyed(`${method} /api/v2/events HTTP/1.1`)])
      assert.deepEqual(r.responses, [], method)
      assert.equal(r.ending, 'closed', method)
      assert.ok(r.elapsedMs < 1_000, `${method}: ${r.elapsedMs} ms`)
    }
  })

  test('a request head over 4 KiB in several reads, a 1 MB URL or header: dropped at once, unanswered', async () => {
    const pad = (n: number): string => `GET /healthz HTTP/1.1\r\n${HEAD}\r\nX-Pad: ${'y'.repeat(n)}\r\n\r\n`
    // 60 KB in one read is parsed (and answered); the same in 1,000-byte pieces is not (4 KiB buffer).
    const whole = await rawExchange(s.app.port, [pad(60_000)], { expect: 1 })
    assert.equal(whole.responses[0]?.status, 200)
    const head = pad(5_000)
    const pieces = Array.from({ length: Math.ceil(head.length / 1_000) }, (_, i) =>
      head.slice(i * 1_000, i * 1_000 + 1_000),
    )
    const mega = 'x'.repeat(1 << 20)
    for (const chunks of [
      pieces,
      [keyed(`GET /api/v2/events?search=${mega} HTTP/1.1`)],
      [`GET /healthz HTTP/1.1\r\n${HEAD}\r\nX-Big: ${mega}\r\n\r\n`],
    ]) {
      const r = await rawExchange(s.app.port, chunks, { gapMs: chunks.length > 1 ? 2 : undefined })
      assert.deepEqual(r.responses, [])
      assert.notEqual(r.ending, 'open')
      assert.ok(r.elapsedMs < 1_000, `${r.elapsedMs} ms`)
    }
  })

  test('heads uWS cannot parse, mutated requests: clean answers or none, no reset, and no other client waits meanwhile', async (t) => {
    // While they hang, the service answers everyone else at once.
    for (let i = 0; i < 5; i++) {
      const started = performance.now()
      const ready = await fetch(`${s.baseUrl}/readyz`)
      await ready.arrayBuffer()
      assert.equal(ready.status, 200)
      assert.ok(performance.now() - started < 1_000)
    }
    for (const [name, exchange] of unparsed) {
      const r = await exchange
      assert.deepEqual(r.responses, [], name)
      assert.equal(r.leftover, 0, `${name}: nothing at all is written`)
      assert.equal(r.ending, 'closed', `${name}: closed by the server (${r.elapsedMs.toFixed(0)} ms)`)
      assert.ok(r.elapsedMs < IDLE_CLOSE_MS, `${name}: closed after ${r.elapsedMs.toFixed(0)} ms`)
    }
    // Mutated requests: whatever comes back is a clean answer; the connection is never reset, and ends in time.
    const endings = new Map<string, number>()
    for (const [bytes, exchange] of mutants) {
      const r = await exchange
      const where = `${JSON.stringify(bytes.toString('latin1'))} → ${r.ending} ${r.responses.map((res) => res.status).join(',')}`
      for (const res of r.responses) {
        assert.ok(res.status >= 100 && res.status < 500, where)
        if (res.status >= 400) assertJsonError(res)
      }
      assert.notEqual(r.ending, 'reset', where)
      const answered = r.responses.some((res) => res.status >= 200)
      const kind = `${answered ? 'answered' : 'unanswered'}, ${r.ending}`
      endings.set(kind, (endings.get(kind) ?? 0) + 1)
    }
    t.diagnostic(`${MUTANTS} mutated requests: ${[...endings].map(([k, n]) => `${n} ${k}`).join('; ')}`)
    assert.deepEqual(
      s.logs.warnings().filter((l) => (l.level as number) >= 50),
      [],
      'nothing logged as an error',
    )
  })
})

function assertJsonError(res: RawResponse, code?: string): void {
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/)
  if (res.status === 422) return
  const body = JSON.parse(res.body.toString('utf8')) as { detail?: unknown; code?: unknown }
  assert.equal(typeof body.detail, 'string')
  if (code !== undefined) assert.equal(body.code, code)
  else assert.equal(typeof body.code, 'string')
}
