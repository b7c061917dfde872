import { listParam } from '../http-router.js'
import type { VpMarket } from './types.js'
import { WireError } from './wire-error.js'

/**
 * Data API query parsing (venuep.md §4): camelCase parameters, `{"error": "<message>"}` with 400 for a bad
 * address, a value out of range or an unknown enum. Range limits are the documented ones and are enforced
 * rather than clamped, so a client that pages too deep learns it the way it would on the real host.
 */
/** The Data API's error body. */
export function bad(message: string): WireError {
  return new WireError(400, { error: message })
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

/** A proxy-wallet address, lower-cased for lookups; malformed → 400. */
export function addressParam(q: URLSearchParams, name: string, required: true): string
export function addressParam(q: URLSearchParams, name: string, required: false): string | undefined
export function addressParam(q: URLSearchParams, name: string, required: boolean): string | undefined {
  const v = q.get(name)
  if (v === null || v === '') {
    if (required) throw bad(`'${name}' is required`)
    return undefined
  }
  if (!ADDRESS.test(v)) throw bad(`'${name}' is not a valid address`)
  return v.toLowerCase()
}

/** An integer in [min, max]; outside the range is a 400, not a silent clamp. */
export function intInRange(q: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const v = q.get(name)
  if (v === null || v === '') return fallback
  if (!/^-?\d+$/.test(v)) throw bad(`'${name}' must be an integer`)
  const n = Number(v)
  if (n < min || n > max) throw bad(`'${name}' must be between ${min} and ${max}`)
  return n
}

/** A non-negative decimal such as `sizeThreshold` or `filterAmount`. */
export function numParam(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name)
  if (v === null || v === '') return undefined
  const n = Number(v)
  if (!Number.isFinite(n) || n < 0) throw bad(`'${name}' must be a non-negative number`)
  return n
}

/** Exactly `true` or `false`. */
export function boolParam(q: URLSearchParams, name: string, fallback: boolean): boolean {
  const v = q.get(name)
  if (v === null || v === '') return fallback
  if (v === 'true') return true
  if (v === 'false') return false
  throw bad(`'${name}' must be true or false`)
}

/** One of `allowed` (compared upper-cased, as the venue's enums are). */
export function enumParam<T extends string>(q: URLSearchParams, name: string, allowed: readonly T[], fallback: T): T
export function enumParam<T extends string>(
  q: URLSearchParams,
  name: string,
  allowed: readonly T[],
  fallback: undefined,
): T | undefined
export function enumParam<T extends string>(
  q: URLSearchParams,
  name: string,
  allowed: readonly T[],
  fallback: T | undefined,
): T | undefined {
  const v = q.get(name)
  if (v === null || v === '') return fallback
  const upper = v.toUpperCase() as T
  if (!allowed.includes(upper)) throw bad(`'${name}' must be one of ${allowed.join(', ')}`)
  return upper
}

/** Unix seconds → ms bounds for `start`/`end` (inclusive). */
export function timeWindow(q: URLSearchParams): (tsMs: number) => boolean {
  const start = intInRange(q, 'start', 0, 0, Number.MAX_SAFE_INTEGER)
  const end = intInRange(q, 'end', Number.MAX_SAFE_INTEGER, 0, Number.MAX_SAFE_INTEGER)
  return (ts) => Math.floor(ts / 1000) >= start && Math.floor(ts / 1000) <= end
}

/**
 * The market scope: `market` (CSV condition ids) or `eventId` (CSV ints), mutually exclusive. Returns a
 * predicate, or undefined when neither is given.
 */
export function marketScope(q: URLSearchParams): ((m: VpMarket) => boolean) | undefined {
  const markets = listParam(q, 'market').map((v) => v.toLowerCase())
  const events = listParam(q, 'eventId')
  if (markets.length > 0 && events.length > 0) throw bad("'market' and 'eventId' are mutually exclusive")
  for (const cid of markets)
    if (!/^0x[0-9a-f]{64}$/.test(cid)) throw bad(`'market' has an invalid condition id: ${cid}`)
  for (const id of events) if (!/^\d+$/.test(id)) throw bad(`'eventId' must be a list of integers`)
  if (markets.length > 0) {
    const set = new Set(markets)
    return (m) => set.has(m.conditionId.toLowerCase())
  }
  if (events.length > 0) {
    const set = new Set(events.map((id) => String(Number(id))))
    return (m) => set.has(m.event.id)
  }
  return undefined
}

/** Sorts with a numeric or string key, breaking ties by a stable secondary key. */
export function sortRows<T>(
  rows: T[],
  key: (r: T) => number | string,
  descending: boolean,
  tie: (r: T) => string,
): T[] {
  const dir = descending ? -1 : 1
  return rows.sort((a, b) => {
    const ka = key(a)
    const kb = key(b)
    if (ka !== kb) return (ka < kb ? -1 : 1) * dir
    const ta = tie(a)
    const tb = tie(b)
    return ta === tb ? 0 : ta < tb ? -1 : 1
  })
}
