import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { DASHBOARD_CSS } from './page-css.js'
import { MODULE_PREFIX, PAGE_CSS, UPLOT_CSS, UPLOT_JS } from './page.js'

/**
 * The files the dashboard page loads, read once at startup and kept as bytes (so their ETags and compressed forms
 * are computed once, representation.ts): the browser modules compiled into dist/src (served under `/ui/m/`, in
 * dist/src's layout, so their relative imports resolve as they do on disk), the page's stylesheet, and uPlot's
 * script and stylesheet from its npm package.
 *
 * Only the modules listed here are served, never a path taken from a request: the dashboard's own modules and the
 * Node-free modules they import (the stream client without node-client.js and ws-transport.js, which import `ws`;
 * src/stream-client/index.ts says which are Node-free). test/dashboard/serving.test.ts walks the import graph from
 * the entry module and fails when an import is missing here.
 */
export const BROWSER_MODULES: readonly string[] = [
  'dashboard/web/main.js',
  'dashboard/web/api.js',
  'dashboard/web/auth.js',
  'dashboard/web/book-keys.js',
  'dashboard/web/book-table.js',
  'dashboard/web/browser-transport.js',
  'dashboard/web/chart.js',
  'dashboard/web/dom.js',
  'dashboard/web/evidence.js',
  'dashboard/web/format.js',
  'dashboard/web/history.js',
  'dashboard/web/pair-panel.js',
  'dashboard/web/spread-row.js',
  'dashboard/web/subscription-slot.js',
  'dashboard/web/top-rows.js',
  'dashboard/web/top-table.js',
  'dashboard/web/venue-health.js',
  'dashboard/web/venue-strip.js',
  'dashboard/web/view-key.js',
  'stream-client/book-assembler.js',
  'stream-client/client-types.js',
  'stream-client/crc32.js',
  'stream-client/pending-commands.js',
  'stream-client/reconnect-policy.js',
  'stream-client/stream-client.js',
  'stream-client/stream-tracker.js',
  'stream-client/top-list-assembler.js',
  'stream-client/typed-events.js',
  'stream-client/wire.js',
  'core/backoff.js',
  'core/clock.js',
  'stream/protocol.js',
]

export interface DashboardAsset {
  /** The URL path it is served at. */
  readonly path: string
  readonly contentType: string
  readonly bytes: Uint8Array
}

export const JS_TYPE = 'text/javascript; charset=utf-8'
export const CSS_TYPE = 'text/css; charset=utf-8'

/** dist/src, where this module is compiled to (dist/src/dashboard/assets.js). */
const DIST_SRC = fileURLToPath(new URL('../', import.meta.url))

/**
 * Reads every asset. A missing compiled module fails the start with what to run: the browser modules are compiled
 * by their own tsconfig (`npm run build` runs both), and a page without them would only show an empty shell.
 */
export function loadDashboardAssets(distSrc: string = DIST_SRC): DashboardAsset[] {
  const require = createRequire(import.meta.url)
  const modules = BROWSER_MODULES.map((path) => ({
    path: `${MODULE_PREFIX}/${path}`,
    contentType: JS_TYPE,
    bytes: Buffer.from(withoutSourceMapLink(read(`${distSrc}${path}`)), 'utf8'),
  }))
  return [
    ...modules,
    { path: PAGE_CSS, contentType: CSS_TYPE, bytes: Buffer.from(DASHBOARD_CSS, 'utf8') },
    { path: UPLOT_JS, contentType: JS_TYPE, bytes: Buffer.from(read(require.resolve('uplot/dist/uPlot.iife.min.js'))) },
    { path: UPLOT_CSS, contentType: CSS_TYPE, bytes: Buffer.from(read(require.resolve('uplot/dist/uPlot.min.css'))) },
  ]
}

function read(file: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch (err) {
    throw new Error(
      `dashboard asset ${file} cannot be read (${(err as Error).message}): run \`npm run build\`, which compiles the browser modules (src/dashboard/web/tsconfig.json)`,
      { cause: err },
    )
  }
}

/** The source maps are not served (nor the TypeScript they point to): drop the link so no browser asks for one. */
function withoutSourceMapLink(js: string): string {
  return js.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n')
}
