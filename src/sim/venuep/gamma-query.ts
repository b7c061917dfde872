import { listParam } from '../http-router.js'
import { WireError } from './wire-error.js'

/**
 * Gamma query-string parsing (venuep.md §1.3–1.4, §1.8): snake_case parameters, list parameters as repeated
 * keys or CSV, and `422 {"type":"validation error","error":"<param> is invalid"}` for values that do not
 * parse. Pagination is offset-based; see DEFAULT_LIMIT and MAX_LIMIT for the choices the docs leave open.
 */

/** Page size when `limit` is absent (the real default is undocumented, venuep.md §8). */
export const DEFAULT_LIMIT = 20
/** Largest page served; a larger `limit` is clamped (reported maxima are 500 or 1000, §1.2). */
export const MAX_LIMIT = 500

/** Gamma's 422 body for a parameter or path id that does not parse. */
export function invalid(name: string): WireError {
  return new WireError(422, { type: 'validation error', error: `${name} is invalid` })
}

/** Gamma's 404 body: `id not found`, `slug not found` or `profile not found`. */
export function notFound(what: 'id' | 'slug' | 'profile'): WireError {
  return new WireError(404, { type: 'not found error', error: `${what} not found` })
}

/** A non-negative integer parameter (limit, offset, tag_id). */
export function intParam(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name)
  if (v === null || v === '') return undefined
  if (!/^\d+$/.test(v)) throw invalid(name)
  return Number(v)
}

/** `true`/`false` in any case. */
export function boolParam(q: URLSearchParams, name: string): boolean | undefined {
  const v = q.get(name)
  if (v === null || v === '') return undefined
  const lower = v.toLowerCase()
  if (lower === 'true') return true
  if (lower === 'false') return false
  throw invalid(name)
}

/** A decimal parameter (the `*_min`/`*_max` range bounds). */
export function numParam(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name)
  if (v === null || v === '') return undefined
  const n = Number(v)
  if (!Number.isFinite(n)) throw invalid(name)
  return n
}

/** RFC 3339 dates such as `2026-08-01T00:00:00Z` (a bare date is accepted as midnight UTC). */
export function dateParam(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name)
  if (v === null || v === '') return undefined
  const ms = Date.parse(v)
  if (Number.isNaN(ms)) throw invalid(name)
  return ms
}

/** Numeric ids of a list parameter; one non-numeric id rejects the request like `/markets/{id}` does. */
export function idList(q: URLSearchParams, name: string): Set<string> | undefined {
  const ids = listParam(q, name)
  if (ids.length === 0) return undefined
  for (const id of ids) if (!/^\d+$/.test(id)) throw invalid(name)
  return new Set(ids.map((id) => String(Number(id))))
}

/** A string list parameter (repeated keys or CSV); `lower` for hex ids compared case-insensitively. */
export function stringList(q: URLSearchParams, name: string, lower = false): Set<string> | undefined {
  const values = listParam(q, name)
  if (values.length === 0) return undefined
  return new Set(lower ? values.map((v) => v.toLowerCase()) : values)
}

/** A numeric range filter from `<base>_min`/`<base>_max`. */
export function inRange(
  q: URLSearchParams,
  base: string,
  parse: typeof numParam = numParam,
): ((v: number) => boolean) | undefined {
  const min = parse(q, `${base}_min`)
  const max = parse(q, `${base}_max`)
  if (min === undefined && max === undefined) return undefined
  return (v) => (min === undefined || v >= min) && (max === undefined || v <= max)
}

/**
 * Sorts by the CSV `order` fields (ties broken by the next field, then by numeric id so pages are stable).
 * Without `order` the list stays in id order and `ascending` is ignored, as the docs describe it.
 */
export function sortByOrder<T>(
  items: T[],
  q: URLSearchParams,
  keys: Readonly<Record<string, (item: T) => number>>,
  id: (item: T) => number,
): T[] {
  const fields = listParam(q, 'order')
  const ascending = boolParam(q, 'ascending') ?? true
  for (const f of fields) if (!Object.hasOwn(keys, f)) throw invalid('order')
  const getters = fields.map((f) => keys[f] as (item: T) => number)
  const dir = ascending ? 1 : -1
  return items.sort((a, b) => {
    for (const g of getters) {
      const d = g(a) - g(b)
      if (d !== 0) return d * dir
    }
    return (id(a) - id(b)) * (getters.length > 0 ? dir : 1)
  })
}

/** Offset pagination: `limit` (default DEFAULT_LIMIT, at most MAX_LIMIT) items from `offset`. */
export function paginate<T>(items: readonly T[], q: URLSearchParams): T[] {
  const limit = Math.min(MAX_LIMIT, intParam(q, 'limit') ?? DEFAULT_LIMIT)
  const offset = intParam(q, 'offset') ?? 0
  return items.slice(offset, offset + limit)
}
