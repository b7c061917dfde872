import { mkdtempSync, rmSync } from 'node:fs'
import assert from 'node:assert/strict'
import { createServer, type AddressInfo } from 'node:net'
import { join } from 'node:path'
import { tmpdir } from 'node:os'
import { after, test } from 'node:test'
import { startApp, type App } from '../../src/app.js'
import { loadConfig } from '../../src/config/load.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { healthRoutes } from '../../src/http/routes/health.js'
import { startSimulator } from '../../src/sim/simulator.js'
import { assertMatchesResponseSchema } from '../helpers/contract.js'
import { checkedLogger, type CheckedLogger } from '../helpers/checked-logger.js'
import { freshPGlite } from '../helpers/db.js'
import { TEST_ANCHOR_MS } from '../helpers/service.js'
import { waitFor } from '../helpers/wait.js'

/** The live services' data directories (each venue's catalog file lands in one), removed after the tests. */
const dataDir = mkdtempSync(join(tmpdir(), 'going-live-'))
after(() => rmSync(dataDir, { recursive: true, force: true }))

/**
 * `VENUES=live` as an operator meets it, with every venue URL pointed at loopback (no test talks to the internet):
 *
 * 1. nothing reachable and a venuek key file that does not exist: the service boots anyway, warns once about the
 *    key (what is wrong, what will not work), and /readyz and the log name the failing request and its cause;
 * 2. venues that answer (the simulator, which like the real venuek requires a signed WebSocket handshake) but no
 *    venuek key: venuep goes ready, the venuek catalog is served from REST, and the venuek feed's 401 says what to
 *    set; venuek never becomes ready.
 */
const readyzRoute = healthRoutes({
  venues: [],
  views: { serving: true },
  spreads: { ready: true, pairCount: 0 },
  source: { simulated: false, description: '' },
  startedAt: 0,
  now: () => 0,
}).find((r) => r.path === '/readyz')!

interface VenueBody {
  ready: boolean
  credentials: string
  catalog: Record<string, unknown> & { failures: number; events: number }
  feed: Record<string, number> | null
}
interface ReadyzBody {
  status: string
  data_source: string
  venues: { venuep: VenueBody; venuek: VenueBody }
}

async function readyz(app: App): Promise<{ status: number; body: ReadyzBody }> {
  const res = await fetch(`http://127.0.0.1:${app.port}/readyz`)
  const body = (await res.json()) as ReadyzBody
  assertMatchesResponseSchema(readyzRoute, res.status, body)
  return { status: res.status, body }
}

async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** `VENUES=live` with the venues' URLs replaced (as VENUEP_*_URL / VENUEK_*_URL do), and the key settings given. */
function liveConfig(
  urls: { gamma: string; clob: string; clobWs: string; data: string; rest: string; ws: string },
  key: Record<string, string>,
) {
  return loadConfig({
    env: {
      NODE_ENV: 'test',
      VENUES: 'live',
      // Its own data directory: a live service keeps each venue's last catalog there (src/actors/catalog-file.ts).
      DATA_DIR: mkdtempSync(join(dataDir, 'service-')),
      AUTH_REQUIRED: 'false',
      VENUEP_GAMMA_URL: urls.gamma,
      VENUEP_CLOB_URL: urls.clob,
      VENUEP_CLOB_WS_URL: urls.clobWs,
      VENUEP_DATA_URL: urls.data,
      VENUEK_REST_URL: urls.rest,
      VENUEK_WS_URL: urls.ws,
      // E-mail is configured (never used here), so the warnings these tests expect are the venues' own.
      SMTP_URL: 'smtp://127.0.0.1:1',
      ...key,
    },
  })
}

const without = (lines: readonly Readonly<Record<string, unknown>>[]) =>
  lines.map(({ time: _t, pid: _p, name: _n, ...rest }) => rest)

async function withApp(
  config: ReturnType<typeof loadConfig>,
  run: (app: App, logs: CheckedLogger) => Promise<void>,
): Promise<void> {
  const db = await freshPGlite()
  const logs = checkedLogger()
  const app = await startApp({ config, log: logs.log, clock: new SimulatedClock(TEST_ANCHOR_MS), db })
  try {
    await run(app, logs)
  } finally {
    await app.close()
    await db.close()
  }
  assert.deepEqual(logs.problems(), [])
}

test('live, nothing reachable, the key file missing: boots, warns about the key, and names each failed request and its cause', async () => {
  const port = await closedPort()
  const base = `127.0.0.1:${port}`
  const keyPath = join(tmpdir(), `no-such-venuek-key-${process.pid}.pem`)
  const config = liveConfig(
    {
      gamma: `http://${base}`,
      clob: `http://${base}`,
      clobWs: `ws://${base}/ws/market`,
      data: `http://${base}`,
      rest: `http://${base}/trade-api/v2`,
      ws: `ws://${base}/trade-api/ws/v2`,
    },
    { VENUEK_API_KEY_ID: 'a952bcbe-ec3b-4b5b-b8f9-11dae589608c', VENUEK_PRIVATE_KEY_PATH: keyPath },
  )
  await withApp(config, async (app, logs) => {
    // Each venue's first sync tries 4 times (with backoff) before it reports a failure.
    await waitFor(
      () =>
        app.venues.venuep.venueStatus().catalog.failures > 0 && app.venues.venuek.venueStatus().catalog.failures > 0,
      20_000,
      'both first syncs failed',
    )
    const { status, body } = await readyz(app)
    assert.equal(status, 503)
    assert.equal(body.data_source, 'live')
    const refused = `connection refused (ECONNREFUSED ${base})`
    const catalog = (lastError: string) => ({
      loaded: false,
      version: 0,
      events: 0,
      markets: 0,
      outcomes: 0,
      synced_at: null,
      from_file: false,
      last_error: lastError,
      truncated: false,
      max_events: 1_000_000,
      loading: null,
      failures: 1,
    })
    assert.deepEqual(body.venues.venuep.catalog, catalog(`GET http://${base}/events: ${refused}`))
    assert.deepEqual(body.venues.venuek.catalog, catalog(`GET http://${base}/trade-api/v2/series: ${refused}`))
    assert.deepEqual([body.venues.venuep.credentials, body.venues.venuek.credentials], ['not_required', 'unreadable'])
    const metrics = (await (await fetch(`http://127.0.0.1:${app.port}/metrics`)).text())
      .split('\n')
      .filter((l) => l.startsWith('predmkt_catalog_sync_'))
    assert.deepEqual(metrics.sort(), [
      'predmkt_catalog_sync_failures{venue="venuek"} 1',
      'predmkt_catalog_sync_failures{venue="venuep"} 1',
      'predmkt_catalog_sync_listed_events{venue="venuek"} 0',
      'predmkt_catalog_sync_listed_events{venue="venuep"} 0',
    ])

    const [boot, ...failures] = without(logs.warnings())
    assert.deepEqual(boot, {
      level: 40,
      venue: 'venuek',
      credentials: 'unreadable',
      msg: `venuek credentials unreadable: cannot read VENUEK_PRIVATE_KEY_PATH=${keyPath}: no such file (ENOENT). The venuek WebSocket (ws://${base}/trade-api/ws/v2) requires a signed handshake, so without them: no venuek live quotes, books or trades (the feed is refused with HTTP 401 and keeps retrying), venuek never becomes ready (/readyz stays 503), and no cross-venue spreads (they need venuek's live quotes). Still working: the venuek catalog over public REST, so venuek events and markets are listed, priced from the last catalog sync instead of live quotes. Set VENUEK_API_KEY_ID and VENUEK_PRIVATE_KEY_PATH (README, "Going live")`,
    })
    // The two venues fail in either order.
    assert.deepEqual(
      failures.sort((a, b) => String(a.venue).localeCompare(String(b.venue))),
      [
        {
          level: 40,
          venue: 'venuek',
          error: `GET http://${base}/trade-api/v2/series: ${refused}`,
          failures: 1,
          retryInMs: 2_000,
          msg: 'catalog sync failed',
        },
        {
          level: 40,
          venue: 'venuep',
          error: `GET http://${base}/events: ${refused}`,
          failures: 1,
          retryInMs: 2_000,
          msg: 'catalog sync failed',
        },
      ],
    )
  })
})

test('live against venues that answer, without a venuek key: venuep ready; venuek listed from REST, its feed refused with a hint, never ready', async () => {
  const clock = new SimulatedClock(TEST_ANCHOR_MS)
  const base = loadConfig({ env: { NODE_ENV: 'test' } })
  const sim = await startSimulator({
    config: { ...base.sim, questions: 120, wallets: 5, venuekAuth: true },
    clock,
    anchorMs: TEST_ANCHOR_MS,
    startEngine: false,
  })
  try {
    const p = sim.venuep.urls
    const k = sim.venuek.urls
    const config = liveConfig(
      { gamma: p.gamma, clob: p.clob, clobWs: p.clobWs, data: p.data, rest: k.rest, ws: k.ws },
      {},
    )
    const db = await freshPGlite()
    const logs = checkedLogger()
    const app = await startApp({ config, log: logs.log, clock, db })
    try {
      await waitFor(
        () => app.venues.venuep.ready && app.venues.venuek.catalog() !== undefined,
        20_000,
        'venuep ready, venuek catalog in',
      )
      await waitFor(
        () => logs.warnings().some((l) => l.msg === 'websocket handshake rejected'),
        5_000,
        'the venuek handshake refused',
      )
      const wsUrl = new URL(k.ws)
      assert.deepEqual(without(logs.warnings()), [
        {
          level: 40,
          venue: 'venuek',
          credentials: 'missing',
          msg: `venuek credentials missing: VENUEK_API_KEY_ID and VENUEK_PRIVATE_KEY_PATH are not set. The venuek WebSocket (${k.ws}) requires a signed handshake, so without them: no venuek live quotes, books or trades (the feed is refused with HTTP 401 and keeps retrying), venuek never becomes ready (/readyz stays 503), and no cross-venue spreads (they need venuek's live quotes). Still working: the venuek catalog over public REST, so venuek events and markets are listed, priced from the last catalog sync instead of live quotes. Set VENUEK_API_KEY_ID and VENUEK_PRIVATE_KEY_PATH (README, "Going live")`,
        },
        {
          level: 40,
          venue: 'venuek',
          feed: 'venuek-ws',
          status: 401,
          reason: `ws://${wsUrl.host}${wsUrl.pathname}: handshake rejected with HTTP 401; the handshake was unsigned: set VENUEK_API_KEY_ID and VENUEK_PRIVATE_KEY_PATH`,
          msg: 'websocket handshake rejected',
        },
      ])
      const { status, body } = await readyz(app)
      assert.equal(status, 503, 'venuek never becomes ready without its feed')
      assert.deepEqual([body.venues.venuep.ready, body.venues.venuep.credentials], [true, 'not_required'])
      assert.deepEqual(
        [body.venues.venuek.ready, body.venues.venuek.credentials, body.venues.venuek.feed?.open_connections],
        [false, 'missing', 0],
      )
      assert.ok(body.venues.venuek.catalog.events > 0)
      await waitFor(() => app.models.serving, 10_000, 'read models built')
      const res = await fetch(`http://127.0.0.1:${app.port}/api/v2/venuek/markets?limit=1`)
      const markets = (await res.json()) as { markets?: unknown[] }
      assert.equal(res.status, 200, 'venuek markets are listed from the catalog')
      assert.equal(markets.markets?.length, 1)
    } finally {
      await app.close()
      await db.close()
    }
    assert.deepEqual(logs.problems(), [])
  } finally {
    await sim.close()
  }
})
