import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { buildOpenApi } from '../../src/http/openapi.js'
import { venuepLiveRoutes } from '../../src/venues/venuep/routes/live.js'
import type { VenuepLive } from '../../src/venues/venuep/proxy/live.js'

/** The proxied endpoints as published: the spec's paths, every failure status with a body, keys required. */
describe('venuep live routes in OpenAPI', () => {
  const routes = venuepLiveRoutes({ live: {} as VenuepLive })
  const doc = buildOpenApi(routes, { title: 't', description: 'd' }) as unknown as {
    paths: Record<string, Record<string, { responses: Record<string, { content?: unknown }>; security?: unknown }>>
  }

  test("the spec's seven paths, none public", () => {
    assert.deepEqual(Object.keys(doc.paths).sort(), [
      '/api/v2/venuep/activity',
      '/api/v2/venuep/candlesticks',
      '/api/v2/venuep/orderbook-history',
      '/api/v2/venuep/orders',
      '/api/v2/venuep/positions/wallet/{wallet_address}',
      '/api/v2/venuep/wallet/{wallet_address}',
      '/api/v2/venuep/wallet/{wallet_address}/pnl',
    ])
    assert.ok(routes.every((r) => r.public !== true))
  })

  test('every operation documents 200, 404, 422, 502, 503 and 504 with a JSON body', () => {
    for (const [path, ops] of Object.entries(doc.paths)) {
      const op = ops.get!
      for (const status of ['200', '404', '422', '502', '503', '504'])
        assert.ok(op.responses[status]?.content !== undefined, `${path} ${status}`)
    }
    assert.doesNotThrow(() => JSON.stringify(doc))
  })
})
