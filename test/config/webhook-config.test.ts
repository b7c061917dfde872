import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ConfigError, loadConfig } from '../../src/config/load.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import { startApp } from '../../src/app.js'

/** Where webhooks may go: public addresses only unless the operator says otherwise (config or environment). */
test('by default webhooks go only to public addresses; the test profile does not change that', () => {
  for (const env of [{}, { NODE_ENV: 'test' }]) {
    assert.deepEqual(loadConfig({ env }).alerts.webhook, {
      allowPrivateTargets: false,
      allowedCidrs: [],
      resolveTimeoutMs: 5_000,
    })
  }
})

test('ALERTS_WEBHOOK_ALLOW_PRIVATE_TARGETS and ALERTS_WEBHOOK_ALLOWED_CIDRS (comma-separated) override it', () => {
  const c = loadConfig({
    env: { ALERTS_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', ALERTS_WEBHOOK_ALLOWED_CIDRS: '10.20.0.0/16, ::1,,' },
  })
  assert.deepEqual(c.alerts.webhook, {
    allowPrivateTargets: true,
    allowedCidrs: ['10.20.0.0/16', '::1'],
    resolveTimeoutMs: 5_000,
  })
  assert.throws(
    () => loadConfig({ env: { ALERTS_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'sometimes' } }),
    (e: unknown) => e instanceof ConfigError && /alerts\/webhook\/allowPrivateTargets/.test(e.message),
  )
})

test('a malformed allowedCidrs entry fails the boot before anything starts', async () => {
  const config = loadConfig({ env: { NODE_ENV: 'test', ALERTS_WEBHOOK_ALLOWED_CIDRS: '10.0.0.0/8,intranet' } })
  await assert.rejects(
    startApp({ config, log: silentLogger, clock: new SimulatedClock(0) }),
    (e: unknown) =>
      e instanceof ConfigError &&
      e.problems.join() === '/alerts/webhook/allowedCidrs/1: "intranet" is not an IP address or CIDR block',
  )
})
