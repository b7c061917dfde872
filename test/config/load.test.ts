import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ConfigError, loadConfig } from '../../src/config/load.js'

test('defaults: simulated venues, embedded store, port 8080 on loopback', () => {
  const c = loadConfig({ env: {} })
  assert.equal(c.profile, 'default')
  assert.equal(c.venues.mode, 'sim')
  assert.equal(c.http.port, 8080)
  assert.equal(c.http.host, '127.0.0.1')
  assert.equal(c.dataDir, './data')
  assert.equal(c.databaseUrl, undefined)
  assert.equal(c.venues.venuep.feed.maxAssetsPerConnection, 450)
  assert.ok(Object.isFrozen(c) && Object.isFrozen(c.venues.venuep.feed), 'deep-frozen')
})

test('environment overrides and the live profile', () => {
  const c = loadConfig({
    env: {
      PORT: '9090',
      HOST: '0.0.0.0',
      DATA_DIR: '/tmp/x',
      DATABASE_URL: 'postgres://u@h/db',
      VENUES: 'live',
      LOG_LEVEL: 'warn',
    },
  })
  assert.equal(c.profile, 'default+live')
  assert.deepEqual(c.http, { host: '0.0.0.0', port: 9090, trustedProxies: [], corsAllowedOrigins: [] })
  assert.equal(c.dataDir, '/tmp/x')
  assert.equal(c.databaseUrl, 'postgres://u@h/db')
  assert.equal(c.logLevel, 'warn')
  assert.equal(c.venues.mode, 'live')
  assert.equal(c.venues.venuep.gammaUrl, 'https://gamma-api.polymarket.com')
  assert.equal(c.venues.venuek.wsUrl, 'wss://external-api-ws.kalshi.com/trade-api/ws/v2')
})

test('the test profile is layered on top when NODE_ENV=test', () => {
  const c = loadConfig({ env: { NODE_ENV: 'test' } })
  assert.equal(c.profile, 'default+test')
  assert.equal(c.http.port, 0)
  assert.equal(c.sim.questions, 200)
})

test('bad values fail the boot with every problem listed', () => {
  assert.throws(
    () => loadConfig({ env: { PORT: 'eighty', VENUES: 'paper', LOG_LEVEL: 'loud' } }),
    (err: unknown) => {
      assert.ok(err instanceof ConfigError)
      const text = err.problems.join('\n')
      assert.match(text, /\/http\/port/)
      assert.match(text, /\/venues\/mode/)
      assert.match(text, /\/logLevel/)
      return true
    },
  )
  assert.throws(
    () =>
      loadConfig({ env: {}, overrides: { venues: { venuep: { feed: { maxAssetsPerConnection: 900 } } } } as never }),
    /maxAssetsPerConnection|\/venues\/venuep\/feed/,
  )
  assert.throws(() => loadConfig({ env: {}, overrides: { typo: 1 } as never }), ConfigError)
})

test('ROLE and NATS_URL; an ingest or edge with keys required needs the shared Postgres', () => {
  assert.equal(loadConfig({ env: {} }).role, 'all')
  const edge = loadConfig({ env: { ROLE: 'edge', NATS_URL: 'nats://broker:4222', DATABASE_URL: 'postgres://db/x' } })
  assert.deepEqual([edge.role, edge.nats.url], ['edge', 'nats://broker:4222'])
  assert.equal(edge.nats.holdMaxBytes, 32 * 1024 * 1024)
  assert.equal(loadConfig({ env: { NATS_HOLD_MAX_BYTES: '1000' } }).nats.holdMaxBytes, 1000)
  assert.throws(() => loadConfig({ env: { NATS_HOLD_MAX_BYTES: 'lots' } }), /\/nats\/holdMaxBytes/)
  for (const role of ['ingest', 'edge'])
    assert.throws(
      () => loadConfig({ env: { ROLE: role } }),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError)
        assert.deepEqual(err.problems, [
          `/role: ROLE=${role} shares accounts, keys and history with the deployment's other processes through Postgres: set DATABASE_URL (or AUTH_REQUIRED=false for a keyless test deployment)`,
        ])
        return true
      },
    )
  assert.equal(loadConfig({ env: { ROLE: 'edge', AUTH_REQUIRED: 'false' } }).role, 'edge')
  assert.throws(() => loadConfig({ env: { ROLE: 'replica' } }), /\/role/)
})

test('SIM_CATALOG selects a replay of captured catalogs (sim.catalog); unset, the simulator generates its world', () => {
  assert.equal(loadConfig({ env: {} }).sim.catalog, undefined)
  assert.equal(loadConfig({ env: { SIM_CATALOG: '' } }).sim.catalog, undefined)
  assert.equal(
    loadConfig({ env: { SIM_CATALOG: 'test/fixtures/real-venues' } }).sim.catalog,
    'test/fixtures/real-venues',
  )
})

test('SIM_PORT_BASE: four consecutive ports from the base; 0 picks a free port for each (not the fixed ports 1 to 3)', () => {
  assert.deepEqual(loadConfig({ env: { SIM_PORT_BASE: '9100' } }).sim.ports, {
    gamma: 9100,
    clob: 9101,
    data: 9102,
    venuek: 9103,
  })
  assert.deepEqual(loadConfig({ env: { SIM_PORT_BASE: '0' } }).sim.ports, { gamma: 0, clob: 0, data: 0, venuek: 0 })
})

test('CATALOG_FILE_EVERY_MS: how often each venue’s catalog file is written; 0 turns it off; negative is refused', () => {
  assert.equal(loadConfig({ env: {} }).actors.catalogFileEveryMs, 300_000)
  const off = loadConfig({ env: { CATALOG_FILE_EVERY_MS: '0' } }).actors
  assert.deepEqual(off, { ...loadConfig({ env: {} }).actors, catalogFileEveryMs: 0 }, 'the other actor settings kept')
  assert.throws(
    () => loadConfig({ env: { CATALOG_FILE_EVERY_MS: '-1' } }),
    /\/actors\/catalogFileEveryMs: Expected integer to be greater or equal to 0/,
  )
})

test('VENUEK_FULL_LISTING_EVERY_MS with CATALOG_REFRESH_MS: both land in venuek’s catalog section, the rest kept', () => {
  const base = loadConfig({ env: {} }).venues
  assert.equal(base.venuek.catalog.fullListingEveryMs, 600_000)
  const both = loadConfig({ env: { VENUEK_FULL_LISTING_EVERY_MS: '0', CATALOG_REFRESH_MS: '5000' } }).venues
  assert.deepEqual(both.venuek.catalog, { ...base.venuek.catalog, fullListingEveryMs: 0, refreshMs: 5_000 })
  assert.deepEqual(both.venuep.catalog, { ...base.venuep.catalog, refreshMs: 5_000 })
  assert.throws(
    () => loadConfig({ env: { VENUEK_FULL_LISTING_EVERY_MS: 'often' } }),
    /\/venues\/venuek\/catalog\/fullListingEveryMs/,
  )
})

test('VENUEP_FULL_LISTING_EVERY_MS lands in venuep’s catalog section only; not a number is refused', () => {
  const base = loadConfig({ env: {} }).venues
  assert.equal(base.venuep.catalog.fullListingEveryMs, 600_000)
  const set = loadConfig({ env: { VENUEP_FULL_LISTING_EVERY_MS: '0' } }).venues
  assert.deepEqual(set.venuep.catalog, { ...base.venuep.catalog, fullListingEveryMs: 0 })
  assert.deepEqual(set.venuek.catalog, base.venuek.catalog)
  assert.throws(
    () => loadConfig({ env: { VENUEP_FULL_LISTING_EVERY_MS: 'often' } }),
    /\/venues\/venuep\/catalog\/fullListingEveryMs/,
  )
})
