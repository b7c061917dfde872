import type { SpreadRecord } from '../../../spreads/engine/spread-engine.js'
import { isStale, spreadJson } from '../../../spreads/engine/spread-json.js'

/**
 * A spread record as the stream's payload: the object `/api/v2/spreads` shows (spreadJson, so the two cannot drift),
 * with `is_stale` judged at publish time against the scanner's default cutoff, as alert payloads do.
 *
 * The sequencer serializes a frame's payload itself (once per frame), so the record's JSON is parsed back into an
 * object; the parse is cached per record version and staleness, so a record listed by several open views, or
 * unchanged since the last frame, costs one parse.
 */
export const STREAM_STALE_CUTOFF_MS = 45 * 60_000

export interface SpreadPayload {
  /** The record's JSON (what frames carry, and what is compared to tell whether a record changed for clients). */
  readonly json: string
  readonly object: Readonly<Record<string, unknown>>
  readonly stale: boolean
}

const cache = new WeakMap<SpreadRecord, { readonly version: number; readonly payload: SpreadPayload }>()

export function spreadPayload(r: SpreadRecord, now: number): SpreadPayload {
  const stale = isStale(r, now, STREAM_STALE_CUTOFF_MS)
  const held = cache.get(r)
  if (held !== undefined && held.version === r.version && held.payload.stale === stale) return held.payload
  const json = spreadJson(r, stale)
  const payload: SpreadPayload = { json, object: JSON.parse(json) as Record<string, unknown>, stale }
  cache.set(r, { version: r.version, payload })
  return payload
}

/** When `r` turns stale by age alone (Infinity when it already is, or a feed is down: only a change ends that). */
export function staleAt(r: SpreadRecord, now: number): number {
  if (isStale(r, now, STREAM_STALE_CUTOFF_MS)) return Number.POSITIVE_INFINITY
  return r.olderQuoteAt + STREAM_STALE_CUTOFF_MS + 1
}
