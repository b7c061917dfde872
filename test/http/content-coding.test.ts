import assert from 'node:assert/strict'
import { test } from 'node:test'
import { negotiateCoding } from '../../src/http/content-coding.js'

/** Accept-Encoding as clients send it → the coding the response is sent in (RFC 9110 §12.5.3). */
test('Accept-Encoding: the higher weight wins, brotli on a tie; q=0 refuses; identity when nothing we produce is acceptable', () => {
  const cases: [string | undefined, string][] = [
    [undefined, 'identity'],
    ['', 'identity'],
    ['identity', 'identity'],
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br', 'br'],
    ['BR', 'br'],
    ['x-gzip', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=1.0, gzip;q=0.999', 'br'],
    ['gzip;q=0.8, br;q=0.8', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['gzip;q=0', 'identity'],
    ['*', 'br'],
    ['*;q=0', 'identity'],
    ['br;q=0, *', 'gzip'],
    ['gzip;q=0.5, *;q=0.1', 'gzip'],
    ['deflate', 'identity'],
    ['identity;q=0', 'identity'],
    ['identity;q=0, *;q=0', 'identity'],
    [' gzip ; q=0.5 , br ; q=0.4 ', 'gzip'],
    // An unreadable weight ignores its entry (here: br), it does not make the coding preferred.
    ['br;q=2, gzip', 'gzip'],
    ['br;q=abc, gzip;q=0.1', 'gzip'],
    ['br;level=5', 'br'],
  ]
  for (const [header, expected] of cases) assert.equal(negotiateCoding(header), expected, JSON.stringify(header))
})
