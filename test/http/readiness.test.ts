import assert from 'node:assert/strict'
import { test } from 'node:test'
import { startApp } from '../../src/app.js'
import { healthRoutes, type ServedSpreads } from '../../src/http/routes/health.js'
import { loadConfig } from '../../src/config/load.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { startSimulator } from '../../src/sim/simulator.js'
import { checkedLogger } from '../helpers/checked-logger.js'
import { freshPGlite } from '../helpers/db.js'
import { signUp, TEST_ANCHOR_MS } from '../helpers/service.js'

/**
 * /readyz is a promise to a client: at its first 200, every read it covers answers. The read models behind the
 * list endpoints are built in event-loop slices after the catalogs load, so a readiness that looked only at the
 * venues said "ready" while the lists still answered 503 `not_ready`. Likewise the cross-venue matching: a
 * readiness that did not wait for the first pairs to be priced said "ready" while /spreads and /spreads/top
 * answered 200 with no rows (or some of them), which a scanner cannot tell from "no gaps".
 */
const LIST_READS = [
  '/api/v2/venuep/markets',
  '/api/v2/venuep/events',
  '/api/v2/venuep/prices',
  '/api/v2/venuek/markets',
  '/api/v2/venuek/events',
  '/api/v2/venuek/prices',
  '/api/v2/events',
  '/api/v2/sitemap/events',
  '/api/v2/spreads',
  '/api/v2/spreads/top',
]

test('at the first 200 of /readyz, polled from boot, every list endpoint answers 200', async () => {
  const clock = new SimulatedClock(TEST_ANCHOR_MS)
  const config = loadConfig({ env: { NODE_ENV: 'test' } })
  // Enough questions that the read-model build takes several event-loop slices after the venues are ready.
  const sim = await startSimulator({
    config: { ...config.sim, questions: 1_500, wallets: 5, venuekAuth: true },
    clock,
    anchorMs: TEST_ANCHOR_MS,
    startEngine: false,
  })
  const db = await freshPGlite()
  const logs = checkedLogger()
  const app = await startApp({ config, log: logs.log, clock, simulator: sim, db })
  try {
    const base = `http://127.0.0.1:${app.port}`
    const key = await signUp(base, 'readiness@example.com')
    const headers = { 'x-api-key': key }
    const seen: number[] = []
    const deadline = Date.now() + 60_000
    for (;;) {
      assert.ok(Date.now() < deadline, `/readyz never answered 200 (statuses seen: ${[...new Set(seen)].join(', ')})`)
      const res = await fetch(`${base}/readyz`)
      const body = (await res.json()) as {
        status: string
        read_models: { ready: boolean }
        spreads: { ready: boolean }
      }
      seen.push(res.status)
      if (res.status === 200) {
        assert.equal(body.status, 'ready')
        assert.equal(body.read_models.ready, true)
        assert.equal(body.spreads.ready, true)
        break
      }
      assert.equal(res.status, 503)
      assert.equal(body.status, 'not_ready')
    }
    // No await between the 200 and these requests being sent: they all leave in the same turn.
    const answers = await Promise.all(
      LIST_READS.map(async (path) => ({ path, res: await fetch(`${base}${path}`, { headers }) })),
    )
    const statuses = await Promise.all(
      answers.map(async ({ path, res }) => `${path} ${res.status}${res.status === 200 ? '' : ` ${await res.text()}`}`),
    )
    assert.deepEqual(
      statuses,
      LIST_READS.map((path) => `${path} 200`),
    )
    assert.ok(seen.includes(503), 'the poll started before the service was ready')
  } finally {
    await app.close()
    await sim.close()
    await db.close()
  }
  assert.deepEqual(logs.problems(), [])
})

/** The spread reads compared at the first 200 of /readyz and a second later: every pair, every row. */
const SPREAD_READS = ['/api/v2/spreads?min_spread=0&min_volume=0', '/api/v2/spreads/top?limit=200&window=720']

type SpreadList = { data: unknown[]; count: number }

test('at the first 200 of /readyz, /spreads and /spreads/top give the rows they give a second later', async () => {
  const clock = new SimulatedClock(TEST_ANCHOR_MS)
  const config = loadConfig({ env: { NODE_ENV: 'test' } })
  const sim = await startSimulator({
    config: { ...config.sim, questions: 300, wallets: 5, venuekAuth: true },
    clock,
    anchorMs: TEST_ANCHOR_MS,
    startEngine: false,
  })
  const db = await freshPGlite()
  const logs = checkedLogger()
  const app = await startApp({ config, log: logs.log, clock, simulator: sim, db })
  // At real catalog sizes the matching takes seconds longer than the read models; in a world this small the two
  // finish within ~100 ms of each other, either first (measured). The first pairs' install is held back a second
  // and a half, so the order is the one production sees and a readiness that forgot the spreads fails every time
  // (it turned 200 with /spreads answering 200 and no rows).
  const install = app.spreads.setPairsInSlices.bind(app.spreads)
  let held = false
  app.spreads.setPairsInSlices = async (specs) => {
    if (!held) {
      held = true
      await new Promise((resolve) => setTimeout(resolve, 1_500))
    }
    return install(specs)
  }
  try {
    const base = `http://127.0.0.1:${app.port}`
    const headers = { 'x-api-key': await signUp(base, 'readiness-spreads@example.com') }
    const read = (path: string) =>
      fetch(`${base}${path}`, { headers }).then(async (res) => ({
        status: res.status,
        body: (await res.json()) as SpreadList,
      }))
    const deadline = Date.now() + 60_000
    let notReadyAnswers = 0
    let body: { status: string; read_models: { ready: boolean }; spreads: { ready: boolean; pairs: number } }
    for (;;) {
      assert.ok(Date.now() < deadline, '/readyz never answered 200')
      const res = await fetch(`${base}/readyz`)
      body = (await res.json()) as typeof body
      if (res.status === 200) break
      // Before the pairs are priced the spread routes say so, rather than answering with an empty list.
      if (body.read_models.ready && !app.spreads.ready) {
        const early = await read(SPREAD_READS[0] as string)
        if (!app.spreads.ready) {
          assert.deepEqual(early, {
            status: 503,
            body: { detail: 'cross-venue pairs are still being matched', code: 'not_ready' },
          })
          notReadyAnswers++
        }
      }
    }
    // No await between the 200 and these requests being sent: they leave in the same turn.
    const first = await Promise.all(SPREAD_READS.map(read))
    assert.ok(held && notReadyAnswers > 0, 'the poll saw the read models ready before the spreads')
    assert.deepEqual(body.spreads, { ready: true, pairs: app.spreads.pairCount, matches_from_file: false })
    // The simulator's engine is not running and the clock does not move: nothing changes after the first 200.
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    const later = await Promise.all(SPREAD_READS.map(read))
    for (const [i, path] of SPREAD_READS.entries()) {
      assert.equal(first[i]?.status, 200)
      assert.ok(
        (first[i]?.body.count ?? 0) > 20,
        `${path}: at the first 200, the simulated world's pairs are priced (${first[i]?.body.count} rows)`,
      )
      assert.deepEqual(first[i], later[i], `${path}: at the first 200 as a second later`)
    }
  } finally {
    await app.close()
    await sim.close()
    await db.close()
  }
  assert.deepEqual(logs.problems(), [])
})

test('/readyz waits for the spreads: 503 with `spreads.ready` false while everything else is ready, 200 once priced, with no pairs too', () => {
  const spreads: { -readonly [K in keyof ServedSpreads]: ServedSpreads[K] } = { ready: false, pairCount: 0 }
  const route = healthRoutes({
    venues: [],
    views: { serving: true },
    spreads,
    source: { simulated: true, description: 'sim' },
    startedAt: 0,
    now: () => 0,
  }).find((r) => r.path === '/readyz')!
  const answer = () => {
    const reply = route.handler({} as never, {} as never) as { status: number; body: string }
    return { status: reply.status, body: JSON.parse(reply.body) as Record<string, unknown> }
  }
  const common = {
    data_source: 'simulated',
    simulated: true,
    description: 'sim',
    uptime_seconds: 0,
    venues: {},
    degraded_venues: [],
    read_models: { ready: true },
  }
  assert.deepEqual(answer(), {
    status: 503,
    body: {
      detail: 'venue catalogs and feeds are still loading',
      code: 'not_ready',
      status: 'not_ready',
      ...common,
      spreads: { ready: false, pairs: 0, matches_from_file: false },
    },
  })
  // A world with no overlap: the first plan is empty, and that is ready ("matched nothing", not "not matched").
  spreads.ready = true
  assert.deepEqual(answer(), {
    status: 200,
    body: { status: 'ready', ...common, spreads: { ready: true, pairs: 0, matches_from_file: false } },
  })
  spreads.pairCount = 12
  assert.deepEqual(answer().body.spreads, { ready: true, pairs: 12, matches_from_file: false })
})
