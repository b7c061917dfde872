import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { healthRoutes } from '../../src/http/routes/health.js'
import { HttpClient } from '../../src/venues/http-client.js'
import type { KEvent } from '../../src/venues/venuek/wire.js'
import { assertMatchesResponseSchema } from '../helpers/contract.js'
import { startTestService, type TestService } from '../helpers/service.js'

/**
 * No silent cap: the whole service against the simulator with venuek's `maxEvents` guard below its open catalog.
 * The service still becomes ready and serves the events it kept, and says so everywhere an operator looks: `/readyz`
 * shows `truncated: true` and the guard for venuek (false and the default guard for venuep), `/metrics` has
 * `predmkt_catalog_truncated` 1 and 0, and the log has one error line naming the guard and the setting to raise.
 */
const MAX_EVENTS = 40
const DEFAULT_MAX_EVENTS = 1_000_000
let s: TestService

before(async () => {
  s = await startTestService({ questions: 120, config: { venues: { venuek: { catalog: { maxEvents: MAX_EVENTS } } } } })
})

after(async () => {
  await s?.close()
})

const readyzRoute = healthRoutes({
  venues: [],
  views: { serving: true },
  spreads: { ready: true, pairCount: 0 },
  source: { simulated: true, description: '' },
  startedAt: 0,
  now: () => 0,
}).find((r) => r.path === '/readyz')

/** Open events the simulated venuek lists (the service may keep only MAX_EVENTS of them). */
async function venuekOpenEvents(): Promise<number> {
  const rest = new HttpClient({ baseUrl: s.sim.venuek.urls.rest, timeoutMs: 10_000 })
  let n = 0
  let cursor: string | undefined
  for (;;) {
    const body = await rest.getJson<{ events?: KEvent[] | null; cursor?: string | null }>('/events', {
      limit: 200,
      status: 'open',
      cursor,
    })
    n += (body.events ?? []).length
    if (!body.cursor || (body.events ?? []).length === 0) return n
    cursor = body.cursor
  }
}

describe('a catalog cut at its maxEvents guard', () => {
  test('/readyz: 200 ready, venuek catalog truncated at its guard, venuep not', async () => {
    assert.ok((await venuekOpenEvents()) > MAX_EVENTS, 'the simulated venuek lists more open events than the guard')
    const res = await fetch(`${s.baseUrl}/readyz`)
    const body = (await res.json()) as {
      status: string
      venues: Record<string, { ready: boolean; catalog: Record<string, unknown> }>
    }
    assert.equal(res.status, 200, 'a truncated catalog does not make the service not ready')
    assertMatchesResponseSchema(readyzRoute!, 200, body)
    assert.equal(body.status, 'ready')
    const expected = (venue: 'venuep' | 'venuek', truncated: boolean, maxEvents: number) => {
      const c = s.app.venues[venue].venueStatus().catalog
      return {
        loaded: true,
        version: 1,
        events: c.events,
        markets: c.markets,
        outcomes: c.outcomes,
        synced_at: new Date(c.syncedAt!).toISOString(),
        from_file: false,
        last_error: null,
        truncated,
        max_events: maxEvents,
        loading: null,
        failures: 0,
      }
    }
    assert.deepEqual(body.venues.venuek?.catalog, expected('venuek', true, MAX_EVENTS))
    assert.deepEqual(body.venues.venuep?.catalog, expected('venuep', false, DEFAULT_MAX_EVENTS))
    const kept = s.app.venues.venuek.catalog()
    assert.ok(
      kept !== undefined && kept.events.length > 0 && kept.events.length <= MAX_EVENTS,
      `venuek serves the events it kept (${kept?.events.length})`,
    )
    assert.deepEqual(kept.truncation, { maxEvents: MAX_EVENTS, cut: 'open' })
    assert.equal(s.app.venues.venuep.catalog()?.truncation, undefined)
  })

  test('/metrics: predmkt_catalog_truncated is 1 for venuek and 0 for venuep', async () => {
    const text = await (await fetch(`${s.baseUrl}/metrics`)).text()
    const series = text.split('\n').filter((line) => line.startsWith('predmkt_catalog_truncated'))
    assert.deepEqual(series.sort(), [
      'predmkt_catalog_truncated{venue="venuek"} 1',
      'predmkt_catalog_truncated{venue="venuep"} 0',
    ])
    assert.match(text, /# TYPE predmkt_catalog_truncated gauge/)
  })

  test('the log: one error line for the venuek catalog, naming the guard, what was cut and the setting to raise', () => {
    const lines = s.logs
      .warnings()
      .filter((l) => typeof l.msg === 'string' && l.msg.startsWith('catalog truncated'))
      .map(({ time: _time, pid: _pid, ...rest }) => rest)
    assert.deepEqual(lines, [
      {
        level: 50,
        name: 'predmkt',
        venue: 'venuek',
        version: 1,
        maxEvents: MAX_EVENTS,
        cut: 'open',
        events: s.app.venues.venuek.venueStatus().catalog.events,
        msg: `catalog truncated at maxEvents=${MAX_EVENTS}: the venue listed more open events; the closed lookback was not read; serving the first ${MAX_EVENTS} events listed. The guard is meant to sit far above the real catalog: raise venues.venuek.catalog.maxEvents, or find out why the venue pages forever`,
      },
    ])
  })
})
