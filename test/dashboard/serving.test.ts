import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { BROWSER_MODULES, CSS_TYPE, JS_TYPE } from '../../src/dashboard/assets.js'
import { DASHBOARD_CSP, ENTRY_MODULE, MODULE_PREFIX } from '../../src/dashboard/page.js'
import { rawRequest } from '../helpers/raw-http.js'
import { startTestService, type TestService } from '../helpers/service.js'

/**
 * `GET /` and its assets as the service serves them (issue 22): the page under its CSP, every file the page and its
 * modules load (the import graph walked from the entry module) served from the app with its content type, nothing
 * else under `/ui/` (no path from a request reaches the disk), and no reference to another host (no CDN).
 */
let s: TestService
let port: number

before(async () => {
  s = await startTestService({ questions: 40 })
  port = s.app.port
})

after(async () => {
  await s?.close()
})

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${s.baseUrl}${path}`, { headers: { connection: 'close', ...headers } })

/** Relative and bare specifiers of static imports and re-exports, and of dynamic imports. */
function importsOf(js: string): string[] {
  const out: string[] = []
  for (const m of js.matchAll(/\b(?:import|export)\s[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g)) out.push(m[1] as string)
  for (const m of js.matchAll(/\bimport\s*['"]([^'"]+)['"]/g)) out.push(m[1] as string)
  for (const m of js.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1] as string)
  return out
}

/** Every `http://` or `https://` in `text`, with block comments left out when `ignoreComments` (uPlot's banner). */
function urlsIn(text: string, ignoreComments = false): string[] {
  const t = ignoreComments ? text.replace(/\/\*[\s\S]*?\*\//g, '') : text
  return [...t.matchAll(/https?:\/\/[^\s'"`)<>]*/g)].map((m) => m[0])
}

describe('dashboard serving', () => {
  let html: string

  test('GET / is the page: 200 text/html under the dashboard CSP, revalidated, no inline script or style', async () => {
    const res = await get('/')
    html = await res.text()
    assert.equal(res.status, 200)
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8')
    assert.equal(res.headers.get('content-security-policy'), DASHBOARD_CSP)
    assert.equal(res.headers.get('cache-control'), 'public, no-cache')
    assert.ok(res.headers.get('etag'), 'an ETag')
    assert.match(html, /^<!doctype html>/)
    assert.ok(!/<script(?![^>]*\bsrc=)/i.test(html), 'every script has a src (no inline script)')
    assert.ok(!/\sstyle=|\son[a-z]+=/i.test(html), 'no style attributes or inline event handlers')
    // This service runs on the simulator with auth on: the page says so without asking.
    assert.match(html, /<html lang="en" data-simulated="true" data-auth-required="true" data-venues="venuep,venuek">/)
    assert.match(html, /<div id="sim-banner" role="note">/)
  })

  test('every file the page and its modules load is served with its content type; exactly the allowlist', async () => {
    const res = await get('/')
    html = await res.text()
    const scripts = [...html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1] as string)
    const styles = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1] as string)
    assert.deepEqual(scripts, ['/ui/uPlot.iife.min.js', ENTRY_MODULE])
    assert.deepEqual(styles, ['/ui/uPlot.min.css', '/ui/dashboard.css'])
    for (const path of [...scripts, ...styles]) {
      const r = await get(path)
      const text = await r.text()
      assert.equal(r.status, 200, path)
      assert.equal(r.headers.get('content-type'), path.endsWith('.css') ? CSS_TYPE : JS_TYPE, path)
      assert.equal(r.headers.get('content-security-policy'), DASHBOARD_CSP, path)
      assert.ok(text.length > 100, `${path} has content`)
    }
    // The module graph from the entry, by the URLs the browser would resolve.
    const seen = new Set<string>()
    const queue = [ENTRY_MODULE]
    while (queue.length > 0) {
      const path = queue.shift() as string
      if (seen.has(path)) continue
      seen.add(path)
      const r = await get(path)
      const js = await r.text()
      assert.equal(r.status, 200, `${path} is served`)
      assert.equal(r.headers.get('content-type'), JS_TYPE, path)
      assert.ok(!js.includes('sourceMappingURL'), `${path} links no source map (none is served)`)
      for (const spec of importsOf(js)) {
        assert.ok(
          spec.startsWith('./') || spec.startsWith('../'),
          `${path} imports ${spec}: a browser cannot resolve it`,
        )
        queue.push(new URL(spec, `http://x${path}`).pathname)
      }
    }
    assert.ok(seen.has(`${MODULE_PREFIX}/stream-client/stream-client.js`), 'the page runs the stream client')
    assert.deepEqual([...seen].sort(), BROWSER_MODULES.map((m) => `${MODULE_PREFIX}/${m}`).sort())
  })

  test('no served text names another host (no CDN): only uPlot’s licence banner has a URL', async () => {
    const paths = ['/', '/ui/uPlot.iife.min.js', '/ui/uPlot.min.css', '/ui/dashboard.css']
    paths.push(...BROWSER_MODULES.map((m) => `${MODULE_PREFIX}/${m}`))
    for (const path of paths) {
      const text = await (await get(path)).text()
      assert.deepEqual(urlsIn(text, path.startsWith('/ui/uPlot')), [], path)
    }
    const uplot = await (await get('/ui/uPlot.iife.min.js')).text()
    assert.deepEqual(urlsIn(uplot), ['https://github.com/leeoniya/uPlot'], 'the one URL is in the banner comment')
  })

  test('nothing outside the allowlist: Node-only modules, sources, maps and path tricks are the JSON 404', async () => {
    const paths = [
      `${MODULE_PREFIX}/stream-client/node-client.js`,
      `${MODULE_PREFIX}/stream-client/ws-transport.js`,
      `${MODULE_PREFIX}/stream-client/index.js`,
      `${MODULE_PREFIX}/dashboard/web/main.ts`,
      `${MODULE_PREFIX}/dashboard/web/main.js.map`,
      `${MODULE_PREFIX}/dashboard/assets.js`,
      `${MODULE_PREFIX}/config/load.js`,
      '/ui/',
      '/ui/m/',
      '/ui/../package.json',
      `${MODULE_PREFIX}/../../package.json`,
      `${MODULE_PREFIX}/%2e%2e/%2e%2e/package.json`,
      `${MODULE_PREFIX}/dashboard/web/MAIN.JS`,
    ]
    for (const target of paths) {
      // Sent as written (fetch would normalize the dots away).
      const res = await rawRequest(port, { method: 'GET', target, headers: [] })
      assert.equal(res.status, 404, target)
      assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8', target)
      assert.deepEqual(JSON.parse(res.body.toString('utf8')), { detail: 'Not Found', code: 'not_found' }, target)
    }
  })

  test('assets get the API’s caching and compression: 304 on a matching ETag, brotli when asked', async () => {
    const path = `${MODULE_PREFIX}/stream-client/stream-client.js`
    const first = await get(path)
    const body = await first.text()
    const etag = first.headers.get('etag')
    assert.ok(etag !== null)
    const again = await get(path, { 'if-none-match': etag })
    assert.equal(again.status, 304)
    const br = await rawRequest(port, { method: 'GET', target: path, headers: [['accept-encoding', 'br']] })
    assert.equal(br.status, 200)
    assert.equal(br.headers.get('content-encoding'), 'br')
    assert.ok(br.body.length < Buffer.byteLength(body), 'compressed')
  })

  test('the page and its assets stay out of the OpenAPI document', async () => {
    const doc = (await (await get('/api/v2/openapi.json')).json()) as { paths: Record<string, unknown> }
    const uiPaths = Object.keys(doc.paths).filter((p) => p === '/' || p.startsWith('/ui'))
    assert.deepEqual(uiPaths, [])
  })
})
