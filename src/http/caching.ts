import { renderHeaderLines } from './reply.js'

/**
 * How clients and caches may reuse a GET route's 200 responses: its `Cache-Control`, and whether it carries an
 * `ETag` and answers a matching `If-None-Match` with 304 (no body). Declared per route (`RouteSpec.caching`) by
 * the kind of data it serves:
 *
 * - `live` (`private, no-cache`): anything priced from live quotes (markets, prices, events, spreads, books, the
 *   venue proxies) and per-account data (keys, usage, alerts). Quotes change every second, so a client must ask
 *   every time; the ETag makes asking cheap (a 304 when nothing changed). Private: the route needs a key, and the
 *   answer must not sit in a shared cache for clients without one. The default of every GET route.
 * - `history` (`private, max-age=60`): spread history, which gains at most one point per pair per minute.
 * - `publicCatalog` (`public, max-age=60`): the sitemap list, public and changed only by a catalog refresh (every
 *   60 s by default).
 * - `publicDocs` (`public, no-cache`): the OpenAPI document and /docs; revalidated, so a deploy shows at once.
 * - `none` (`no-store`, no ETag): health, readiness and metrics, which must show the present state.
 *
 * Every other response says `Cache-Control: no-store`: errors (never cached), and the answers to writes.
 */
export interface Caching {
  readonly cacheControl: string
  /** Send an ETag and answer a matching If-None-Match with 304. */
  readonly revalidate: boolean
  /** `\r\ncache-control: …`, rendered once. */
  readonly line: string
}

function caching(cacheControl: string, revalidate: boolean): Caching {
  return { cacheControl, revalidate, line: renderHeaderLines([['cache-control', cacheControl]]) }
}

export const CACHING = {
  live: caching('private, no-cache', true),
  history: caching('private, max-age=60', true),
  publicCatalog: caching('public, max-age=60', true),
  publicDocs: caching('public, no-cache', true),
  none: caching('no-store', false),
} as const

/** On every response that is not a GET's (or HEAD's) 200. */
export const NO_STORE_LINE = CACHING.none.line

/**
 * A route's policy: its own, else `live` (GET routes); writes have none (their answers say no-store). Takes the
 * two fields of a route (route.ts's `AnyRoute`) structurally, since route.ts imports `Caching` from here.
 */
export function cachingOf(route: {
  readonly method: string
  readonly caching?: Caching | undefined
}): Caching | undefined {
  if (route.method !== 'get') return undefined
  return route.caching ?? CACHING.live
}
