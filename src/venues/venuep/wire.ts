/**
 * venuep wire types (docs/venues/venuep.md). Every field is optional: Gamma omits unknown values, and
 * numbers arrive as strings in some places and numbers in others, so mappers parse leniently.
 */

/** Gamma market (§1.5). */
export interface GammaMarket {
  id?: string
  question?: string
  /** The resolution text (omitted by some captures). */
  description?: string
  slug?: string
  conditionId?: string
  /** JSON array encoded as a string: "[\"Yes\", \"No\"]". */
  outcomes?: string
  outcomePrices?: string
  clobTokenIds?: string
  volume?: string | number
  volumeNum?: number
  volume24hr?: number
  liquidity?: string | number
  liquidityNum?: number
  bestBid?: number
  bestAsk?: number
  spread?: number
  lastTradePrice?: number
  active?: boolean
  closed?: boolean
  archived?: boolean
  endDate?: string
  startDate?: string
  createdAt?: string
  updatedAt?: string
  closedTime?: string
  umaResolutionStatus?: string
  groupItemTitle?: string
  groupItemThreshold?: string
  negRisk?: boolean
  orderPriceMinTickSize?: number
  takerBaseFee?: number
  feesEnabled?: boolean
  feeSchedule?: { exponent?: number; rate?: number; takerOnly?: boolean; rebateRate?: number }
  category?: string
  events?: GammaEvent[]
}

export interface GammaTag {
  id?: string
  label?: string
  slug?: string
}

/** Gamma event (§1.6). */
export interface GammaEvent {
  id?: string
  slug?: string
  ticker?: string
  title?: string
  subtitle?: string
  description?: string
  active?: boolean
  closed?: boolean
  archived?: boolean
  startDate?: string
  endDate?: string
  createdAt?: string
  updatedAt?: string
  creationDate?: string
  closedTime?: string
  negRisk?: boolean
  enableNegRisk?: boolean
  /** Numbers per the docs; one capture shows strings. */
  volume?: number | string
  volume24hr?: number | string
  liquidity?: number | string
  openInterest?: number | string
  category?: string
  tags?: GammaTag[]
  markets?: GammaMarket[]
}

export interface WireLevel {
  price?: string
  size?: string
}

/** CLOB market channel messages (§3.3). Numbers are strings; timestamps are epoch-ms strings. */
export interface WsBook {
  event_type: 'book'
  asset_id?: string
  market?: string
  bids?: WireLevel[] | null
  asks?: WireLevel[] | null
  timestamp?: string
  hash?: string
}

export interface WsPriceChangeEntry {
  asset_id?: string
  price?: string
  size?: string
  side?: 'BUY' | 'SELL'
  hash?: string
  best_bid?: string
  best_ask?: string
}

export interface WsPriceChange {
  event_type: 'price_change'
  market?: string
  price_changes?: WsPriceChangeEntry[]
  timestamp?: string
}

export interface WsLastTradePrice {
  event_type: 'last_trade_price'
  asset_id?: string
  market?: string
  price?: string
  size?: string
  side?: 'BUY' | 'SELL'
  timestamp?: string
}

export interface WsTickSizeChange {
  event_type: 'tick_size_change'
  asset_id?: string
  old_tick_size?: string
  new_tick_size?: string
  timestamp?: string
}

export type WsMessage = WsBook | WsPriceChange | WsLastTradePrice | WsTickSizeChange | { event_type?: string }
