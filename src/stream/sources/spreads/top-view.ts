import { Type, type TSchema } from '@sinclair/typebox'
import {
  MIN_SPREAD,
  MIN_VOLUME,
  TOP_QUERY,
  unknownPlatform,
  type ScanFilterQuery,
  type TopQuery,
} from '../../../http/routes/spreads.js'
import { defineRoute, type AnyRoute } from '../../../http/route.js'
import { parseQuery } from '../../../http/query.js'
import { Csv } from '../../../http/schemas/common.js'
import { compileRequestValidator, type RequestValidator } from '../../../http/validation.js'
import type { Rejection } from '../../protocol.js'
import { canonicalCategory, canonicalSearch, type ViewTextFilters } from './view-text-filters.js'

/**
 * A `spreads.top` view: its key is a query string in the REST parameter names, `/api/v2/spreads/top`'s (`limit`,
 * `window`, `sort`, `executable_only`, `min_net_edge`) plus the scanner's filters `min_spread`, `min_volume` and
 * `platforms` (absent: not filtered; the scanner's own defaults are for its unbounded list, not for a top list),
 * plus two of the view's own, `category` and `search` (view-text-filters.ts: what a dashboard's filter bar asks).
 * Values are checked by the routes' own schemas with the HTTP layer's validator (same coercion, bounds and
 * messages as a 422). Unlike a REST query, a name the view does not know is an error: a typo would otherwise
 * open another view than the one meant.
 *
 * The printed key is canonical: every parameter in the order above, defaults applied, optional ones only when
 * given, `platforms` sorted and deduplicated, `category` and `search` lowercased. So `limit=20`, `` and `window=24&limit=20` are one stream
 * (`limit=20&window=24&sort=confidence&executable_only=false`), shared and numbered once.
 */
export interface TopView extends TopQuery, ScanFilterQuery, ViewTextFilters {
  readonly key: string
}

const withoutDefault = <T extends TSchema>(schema: T): T => {
  const copy = { ...schema }
  delete copy.default
  return copy
}

export const VIEW_QUERY = Type.Object({
  ...TOP_QUERY.properties,
  min_spread: Type.Optional(withoutDefault(MIN_SPREAD)),
  min_volume: Type.Optional(withoutDefault(MIN_VOLUME)),
  platforms: Type.Optional(Csv({ description: 'Platform slugs; a pair needs both of its platforms listed.' })),
  category: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: '^[A-Za-z0-9_-]+$',
      description: "The pair's event category slug (a record's `category`, as `/api/v2/events?category=`).",
    }),
  ),
  search: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      pattern: '\\S',
      description: 'Words (case-insensitive) that must all occur in the event or outcome title.',
    }),
  ),
})

const VIEW_NAMES = Object.keys(VIEW_QUERY.properties)

const viewRoute = defineRoute({
  method: 'get',
  path: '/api/v2/stream#spreads.top',
  operationId: 'streamSpreadsTopView',
  summary: 'The view of a spreads.top stream (validation only)',
  tags: [],
  query: VIEW_QUERY,
  responses: {},
  handler: () => {
    throw new Error('not a route: validates spreads.top keys')
  },
})

export class TopViews {
  readonly #validator: RequestValidator = compileRequestValidator(viewRoute as AnyRoute)
  readonly #venueIds: readonly string[]

  constructor(venueIds: readonly string[]) {
    this.#venueIds = venueIds
  }

  /** The view `key` names, or why it names none (BAD_REQUEST, with what to fix). */
  parse(key: string): TopView | Rejection {
    const raw = key.startsWith('?') ? key.slice(1) : key
    const unknown = [...parseQuery(raw).keys()].filter((name) => !VIEW_NAMES.includes(name))
    if (unknown.length > 0)
      return reject(key, `unknown parameter ${unknown.join(', ')}; a view takes ${VIEW_NAMES.join(', ')}`)
    const result = this.#validator.validate({ query: raw, params: {}, headers: {}, body: undefined })
    if (!result.ok) return reject(key, result.issues.map((i) => `${String(i.loc.at(-1))}: ${i.msg}`).join('; '))
    const q = result.input.query as unknown as Omit<TopView, 'key'>
    const bad = unknownPlatform(q.platforms, this.#venueIds)
    if (bad !== undefined) return reject(key, `platforms: ${bad} is not one of ${this.#venueIds.join(', ')}`)
    const platforms = q.platforms === undefined ? undefined : [...new Set(q.platforms)].sort()
    const view = {
      ...q,
      platforms,
      category: q.category === undefined ? undefined : canonicalCategory(q.category),
      search: q.search === undefined ? undefined : canonicalSearch(q.search),
    }
    return { ...view, key: canonicalKey(view) }
  }
}

function reject(key: string, reason: string): Rejection {
  return { key, code: 'BAD_REQUEST', reason }
}

function canonicalKey(view: Omit<TopView, 'key'>): string {
  const parts: string[] = []
  for (const name of VIEW_NAMES) {
    const value = (view as unknown as Record<string, unknown>)[name]
    if (value === undefined) continue
    const text = Array.isArray(value) ? value.join(',') : String(value)
    parts.push(`${name}=${encodeURIComponent(text).replace(/%2C/g, ',')}`)
  }
  return parts.join('&')
}
