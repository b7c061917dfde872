import assert from 'node:assert/strict'
import { connect } from 'node:net'
import { after, before, test } from 'node:test'
import { renderHeaderLines } from '../../src/http/reply.js'
import { startTestService, type TestService } from '../helpers/service.js'

/**
 * The writer sends the content type, nosniff and a guard's rate-limit headers in one uWS call (rendered lines): on
 * the wire they must still be separate, well-formed header lines, once each, on successes and errors alike.
 */
let s: TestService
before(async () => {
  s = await startTestService({ questions: 20 })
})
after(() => s.close())

/** The response head as raw lines, read straight off the socket. */
function rawHead(path: string, headers: Record<string, string>): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const sock = connect(s.app.port, '127.0.0.1')
    let data = ''
    sock.on('data', (d) => {
      data += d.toString('latin1')
      const end = data.indexOf('\r\n\r\n')
      if (end >= 0) {
        sock.destroy()
        resolve(data.slice(0, end).split('\r\n'))
      }
    })
    sock.on('error', reject)
    const extra = Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')
    sock.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n${extra}\r\n`)
  })
}

test('a keyed read: content type, nosniff and both rate-limit headers, each its own line, once', async () => {
  const lines = await rawHead('/api/v2/venuek/markets?limit=1', s.authHeaders)
  assert.equal(lines[0], 'HTTP/1.1 200 OK')
  const names = lines.slice(1).map((l) => l.slice(0, l.indexOf(':')).toLowerCase())
  assert.deepEqual(
    names.filter((n) =>
      ['content-type', 'x-content-type-options', 'x-ratelimit-limit', 'x-ratelimit-remaining'].includes(n),
    ),
    ['content-type', 'x-content-type-options', 'x-ratelimit-limit', 'x-ratelimit-remaining'],
  )
  assert.ok(lines.includes('content-type: application/json; charset=utf-8'), lines.join('\n'))
  assert.ok(lines.includes('x-content-type-options: nosniff'))
  assert.ok(lines.some((l) => /^x-ratelimit-remaining: \d+$/.test(l)))
  for (const l of lines.slice(1)) assert.match(l, /^[a-z0-9-]+: [^\r\n]*$/i)
})

test('an error the route throws (404) carries the rate-limit headers too', async () => {
  const lines = await rawHead('/api/v2/venuek/market-price?market_ticker=NOPE-1', s.authHeaders)
  assert.equal(lines[0], 'HTTP/1.1 404 Not Found')
  assert.ok(
    lines.some((l) => /^x-ratelimit-limit: \d+$/.test(l)),
    lines.join('\n'),
  )
  assert.ok(lines.includes('x-content-type-options: nosniff'))
})

test('renderHeaderLines refuses a line break in a name or value (it would split the response)', () => {
  assert.equal(
    renderHeaderLines([
      ['a', '1'],
      ['b', 'two'],
    ]),
    '\r\na: 1\r\nb: two',
  )
  assert.throws(() => renderHeaderLines([['a', '1\r\nset-cookie: x=1']]), /line break/)
  assert.throws(() => renderHeaderLines([['a\n', '1']]), /line break/)
})
