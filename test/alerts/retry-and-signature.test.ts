import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { describe, test } from 'node:test'
import { retryDelayMs, shouldRetry } from '../../src/alerts/retry-policy.js'
import { signWebhook, verifyWebhookSignature } from '../../src/alerts/webhook-signature.js'
import { newSigningSecret } from '../../src/store/alert-rules-repo.js'

describe('retry policy', () => {
  const policy = { baseMs: 30_000, maxMs: 3_600_000, maxAttempts: 8 }

  test('delays double from the base, with equal jitter: between half the step and the step', () => {
    for (let attempt = 1; attempt <= 12; attempt++) {
      const step = Math.min(policy.maxMs, policy.baseMs * 2 ** (attempt - 1))
      assert.equal(
        retryDelayMs(attempt, policy, () => 0),
        step / 2,
        `attempt ${attempt}: lowest`,
      )
      assert.equal(
        retryDelayMs(attempt, policy, () => 0.999_999_9),
        Math.round(step / 2 + 0.999_999_9 * (step / 2)),
        `attempt ${attempt}: highest`,
      )
    }
    assert.equal(
      retryDelayMs(1, policy, () => 0.5),
      22_500,
    )
    assert.equal(
      retryDelayMs(100, policy, () => 1),
      3_600_000,
      'capped',
    )
  })

  test('jitter spreads deliveries that failed together', () => {
    const delays = new Set(Array.from({ length: 50 }, () => retryDelayMs(3, policy)))
    assert.ok(delays.size > 40)
    for (const d of delays) assert.ok(d >= 60_000 && d <= 120_000)
  })

  test('attempts 1 … maxAttempts − 1 are retried; the last one is not', () => {
    assert.deepEqual(
      Array.from({ length: 9 }, (_, i) => shouldRetry(i + 1, policy)),
      [true, true, true, true, true, true, true, false, false],
    )
  })
})

describe('webhook signatures', () => {
  const secret = newSigningSecret()
  const body = '{"id":"d1","event":"alert.fired"}'

  test('secrets are whsec_ and 64 hex digits, all different', () => {
    assert.match(secret, /^whsec_[0-9a-f]{64}$/)
    assert.notEqual(newSigningSecret(), secret)
  })

  test('HMAC-SHA256 over "<timestamp>.<body>" with the secret string as key, hex, prefixed sha256=', () => {
    const expected = createHmac('sha256', secret).update(`1795000000.${body}`).digest('hex')
    assert.equal(signWebhook(secret, 1_795_000_000, body), `sha256=${expected}`)
  })

  test('verification: valid; tampered body, wrong secret, stale timestamp and malformed headers are refused', () => {
    const ts = 1_795_000_000
    const sig = signWebhook(secret, ts, body)
    assert.equal(verifyWebhookSignature(secret, String(ts), sig, body, ts + 10), 'valid')
    assert.equal(verifyWebhookSignature(secret, String(ts), sig, body.replace('d1', 'd2'), ts), 'bad_signature')
    assert.equal(verifyWebhookSignature(newSigningSecret(), String(ts), sig, body, ts), 'bad_signature')
    assert.equal(
      verifyWebhookSignature(secret, String(ts + 1), sig, body, ts),
      'bad_signature',
      'the timestamp is signed too',
    )
    assert.equal(verifyWebhookSignature(secret, String(ts), sig, body, ts + 301), 'stale_timestamp')
    assert.equal(verifyWebhookSignature(secret, undefined, sig, body, ts), 'malformed')
    assert.equal(verifyWebhookSignature(secret, 'soon', sig, body, ts), 'malformed')
    assert.equal(verifyWebhookSignature(secret, String(ts), sig.slice('sha256='.length), body, ts), 'malformed')
  })
})
