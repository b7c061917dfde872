/**
 * The part of a spread record (`/api/v2/spreads`, the `spread` and `spreads.top` channels) the dashboard reads. The
 * server's schema is in src/http/routes/spreads.ts; fields it adds later are carried along untouched.
 */
export interface SpreadRow {
  readonly id: string
  readonly event_slug: string
  readonly event_title: string
  readonly outcome_title: string
  readonly outcome_key: string
  readonly platform_a: string
  readonly platform_b: string
  readonly price_a: number
  readonly price_b: number
  readonly spread: number
  readonly spread_bps: number
  readonly confidence: number
  readonly is_stale: boolean
  /** ISO 8601, UTC, without a zone suffix. */
  readonly updated_at: string
  /** The event's category slug (a field the records are getting; absent before). */
  readonly category?: string
  readonly match_quality?: string
  readonly match: MatchInfo
  readonly executable: Executable | null
}

/** `match`: why the two outcomes were paired; `<venue>_outcome_id` and `<venue>_text` per leg. */
export interface MatchInfo {
  readonly quality: string
  readonly weight: number
  readonly manual: boolean
  readonly evidence: MatchEvidence | null
  readonly [venueKey: string]: unknown
}

export interface MatchEvidence {
  readonly kind: string
  readonly compared: readonly string[]
  readonly shared_words: readonly string[]
  readonly implicit_words: readonly string[]
  readonly period: string
  readonly strike: string | null
}

export interface Executable {
  readonly buy_platform: string
  readonly buy_price: number
  readonly sell_platform: string
  readonly sell_price: number
  readonly edge: number
  readonly net_edge: number
  readonly size: number
  readonly cost_dollars: number
  readonly profit_dollars: number
}

/** The `spread` channel's key of a pair: `<event_slug>|<outcome_key>` (the key its frames carry). */
export function spreadKey(r: Pick<SpreadRow, 'event_slug' | 'outcome_key'>): string {
  return `${r.event_slug}|${r.outcome_key}`
}
