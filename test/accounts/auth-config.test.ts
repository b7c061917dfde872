import assert from 'node:assert/strict'
import { test } from 'node:test'
import { startApp } from '../../src/app.js'
import { ConfigError, loadConfig } from '../../src/config/load.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'

/** Auth settings: safe defaults (auth on), documented environment overrides, bad values fail the boot. */
test('auth is on by default with the pmk_live_ prefix and a 20/s, burst-40 bucket per key', () => {
  const c = loadConfig({ env: {} })
  assert.equal(c.auth.required, true)
  assert.equal(c.auth.keyPrefix, 'pmk_live_')
  assert.deepEqual(c.auth.rateLimit, { perSecond: 20, burst: 40 })
  assert.equal(c.auth.revocationPollMs, 1_000)
})

test('AUTH_REQUIRED, API_KEY_PREFIX, RATE_LIMIT_PER_SEC, RATE_LIMIT_BURST, DATABASE_POOL_MAX override it', () => {
  const c = loadConfig({
    env: {
      AUTH_REQUIRED: 'false',
      API_KEY_PREFIX: 'acme_',
      RATE_LIMIT_PER_SEC: '2.5',
      RATE_LIMIT_BURST: '7',
      DATABASE_POOL_MAX: '3',
    },
  })
  assert.equal(c.auth.required, false)
  assert.equal(c.auth.keyPrefix, 'acme_')
  assert.deepEqual(c.auth.rateLimit, { perSecond: 2.5, burst: 7 })
  assert.equal(c.database.poolMax, 3)
  assert.equal(loadConfig({ env: { AUTH_REQUIRED: '1' } }).auth.required, true)
})

test('signup is limited per client address: 5 per minute, bursts of 10; SIGNUP_RATE_LIMIT_*, TRUSTED_PROXIES override it', () => {
  const d = loadConfig({ env: {} })
  assert.deepEqual(d.auth.signupRateLimit, { perMinute: 5, burst: 10, maxClients: 10_000 })
  assert.deepEqual(d.http.trustedProxies, [])
  const c = loadConfig({
    env: { SIGNUP_RATE_LIMIT_PER_MIN: '0.5', SIGNUP_RATE_LIMIT_BURST: '3', TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1' },
  })
  assert.deepEqual(c.auth.signupRateLimit, { perMinute: 0.5, burst: 3, maxClients: 10_000 })
  assert.deepEqual(c.http.trustedProxies, ['10.0.0.0/8', '127.0.0.1'])
  assert.throws(
    () => loadConfig({ env: { SIGNUP_RATE_LIMIT_BURST: '0' } }),
    (e: unknown) => e instanceof ConfigError && /auth\/signupRateLimit\/burst/.test(e.message),
  )
})

test('unusable values fail the boot with the key named', () => {
  assert.throws(
    () => loadConfig({ env: { AUTH_REQUIRED: 'maybe' } }),
    (e: unknown) => e instanceof ConfigError && /auth\/required/.test(e.message),
  )
  assert.throws(() => loadConfig({ env: { RATE_LIMIT_BURST: '0' } }), ConfigError)
  assert.throws(() => loadConfig({ env: { API_KEY_PREFIX: 'Bad Prefix' } }), ConfigError)
})

test('a trusted proxy that is not an address or block fails the boot before anything starts', async () => {
  const config = loadConfig({ env: { NODE_ENV: 'test', TRUSTED_PROXIES: 'proxy.internal' } })
  await assert.rejects(
    startApp({ config, log: silentLogger, clock: new SimulatedClock(0) }),
    (e: unknown) =>
      e instanceof ConfigError &&
      e.problems.join() === '/http/trustedProxies/0: "proxy.internal" is not an IP address or CIDR block',
  )
})
