/**
 * venuek wire types, current (fixed-point) shapes only (docs/venues/venuek.md): prices are `_dollars`
 * strings, counts `_fp` strings. Every field is optional; mappers parse leniently.
 */
export interface KSeries {
  ticker?: string
  title?: string
  category?: string
  fee_type?: string
  fee_multiplier?: number
}

export interface KMarket {
  ticker?: string
  event_ticker?: string
  title?: string
  subtitle?: string
  yes_sub_title?: string
  no_sub_title?: string
  status?: string
  result?: string
  created_time?: string
  updated_time?: string
  open_time?: string
  close_time?: string
  yes_bid_dollars?: string
  yes_ask_dollars?: string
  last_price_dollars?: string
  volume_fp?: string
  volume_24h_fp?: string
  open_interest_fp?: string
  strike_type?: string
  floor_strike?: number
  cap_strike?: number
  expected_expiration_time?: string
  rules_primary?: string
}

export interface KEvent {
  event_ticker?: string
  series_ticker?: string
  title?: string
  sub_title?: string
  category?: string
  mutually_exclusive?: boolean
  strike_date?: string | null
  strike_period?: string | null
  last_updated_ts?: string
  markets?: KMarket[]
}

/** `[price_dollars, count_fp]` */
export type KLevel = [string, string]

export interface KEnvelope {
  type?: string
  id?: number
  sid?: number
  seq?: number
  msg?: unknown
}

export interface KSnapshotMsg {
  market_ticker?: string
  yes_dollars_fp?: KLevel[]
  no_dollars_fp?: KLevel[]
}

export interface KDeltaMsg {
  market_ticker?: string
  price_dollars?: string
  delta_fp?: string
  side?: 'yes' | 'no'
  ts_ms?: number
}

export interface KTradeMsg {
  market_ticker?: string
  yes_price_dollars?: string
  count_fp?: string
  ts_ms?: number
  ts?: number
}

export interface KTickerMsg {
  market_ticker?: string
  volume_fp?: string
  open_interest_fp?: string
  ts_ms?: number
}
