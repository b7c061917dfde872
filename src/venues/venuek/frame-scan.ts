import type { KDeltaMsg, KEnvelope, KLevel, KSnapshotMsg, KTickerMsg } from './wire.js'
import { JSON_INT, JSON_NUMBER, JSON_PLAIN_STRING, JSON_PLAIN_STRING_NO_BRACE, JSON_WS } from '../json-layout.js'

/**
 * Fast paths for venuek's commonest frames, `orderbook_delta`, `ticker` and `orderbook_snapshot`, in the venue's
 * documented layouts (venuek.md §6.4–6.5; the simulator sends the same), that skip `JSON.parse`. JSON.parse looks every key and
 * every short string value up in V8's string table; with tens of thousands of tickers in the process that table
 * is large, and those lookups were the biggest single cost of a venuek frame.
 *
 * `scanDataFrame(text)` returns the envelope `JSON.parse(text)` would give, with `msg` holding only the members
 * map-message.ts reads, or `undefined` when the frame is in neither layout below; the caller then takes
 * JSON.parse. Values are exactly what JSON.parse gives for them.
 *
 * The layouts, each checked in full by one anchored regular expression before anything is read:
 *   {"type":"orderbook_delta","sid":int,"seq":int,"msg":{"market_ticker":"…","market_id":"…",
 *    "price_dollars":"…","delta_fp":"…","side":"…","ts":"…","ts_ms":int, then any other members}}
 *   {"type":"ticker","sid":int,"msg":{"market_ticker":"…","market_id":"…" (either order),"price_dollars":"…",
 *    "yes_bid_dollars":"…","yes_ask_dollars":"…","volume_fp":"…","open_interest_fp":"…","dollar_volume":int,
 *    "dollar_open_interest":int,"yes_bid_size_fp":"…","yes_ask_size_fp":"…","last_trade_size_fp":"…","ts":int,
 *    "ts_ms":int,"time":"…", then any other members}}
 *   {"type":"orderbook_snapshot",("id":int,)?"sid":int,"seq":int,"msg":{"market_ticker":"…","market_id":"…"
 *    (,"yes_dollars_fp":[["…","…"],…])?(,"no_dollars_fp":[["…","…"],…])?}}
 * A snapshot is every book of a (re)subscription: at the venues' real size 164,000 of them at a start, where their
 * parse was the largest part of the feed's cost. Key order is fixed. "Any other members" (the delta's optional client_order_id and subaccount, new fields) have
 * scalar values and keys other than the ones read, so none can override them (JSON.parse would let the last one
 * win: such frames take the general path). Strings hold no escapes and no control characters. JSON whitespace is
 * allowed around the frame only. Anything else takes the general path.
 *
 * Why a regular expression, as for venuep's price_change (venuep/price-change-scan.ts): V8 runs it as native
 * code, while JS reading the text a character at a time costs several nanoseconds a character. Once a layout has
 * matched, every value sits at a fixed offset from the end of the one before, which indexOf finds.
 */
export function scanDataFrame(text: string): KEnvelope | undefined {
  // `{"type":"` then the type's first letter tells which layout to check.
  const start = text.indexOf('{')
  const first = text.charCodeAt(start + TYPE_AT)
  if (first === 111 /* o */) {
    // orderbook_delta or orderbook_snapshot.
    if (text.charCodeAt(start + BOOK_KIND_AT) === 115 /* s */) return SNAPSHOT.test(text) ? snapshot(text) : undefined
    return DELTA.test(text) ? delta(text) : undefined
  }
  if (first === 116 /* t */) return TICKER.test(text) ? ticker(text) : undefined
  return undefined
}

/** A snapshot SNAPSHOT matched. */
function snapshot(text: string): KEnvelope {
  let i = text.indexOf('{') + TO_SNAPSHOT_MEMBERS
  let id: number | undefined
  // i is at the `,` after the type: `,"id":` or `,"sid":` follows.
  if (text.charCodeAt(i + 2) === 105 /* i: "id" before "sid" */) {
    id = integerAt(text, i + TO_ID_VALUE)
    i = numberEnd
  }
  const sid = integerAt(text, i + TO_SID_VALUE)
  const seq = integerAt(text, numberEnd + TO_SEQ)
  i = numberEnd + TO_TICKER
  let end = text.indexOf('"', i)
  const msg: KSnapshotMsg = { market_ticker: text.slice(i, end) }
  // market_id is skipped; after its closing quote comes `,"yes_dollars_fp":`, `,"no_dollars_fp":` or `}`.
  i = text.indexOf('"', end + TO_MARKET_ID) + 1
  if (text.startsWith(YES_LEVELS, i)) {
    msg.yes_dollars_fp = levelsAt(text, i + YES_LEVELS.length)
    i = levelsEnd
  }
  if (text.startsWith(NO_LEVELS, i)) msg.no_dollars_fp = levelsAt(text, i + NO_LEVELS.length)
  return id === undefined
    ? { type: 'orderbook_snapshot', sid, seq, msg }
    : { type: 'orderbook_snapshot', id, sid, seq, msg }
}

/** Where the last levelsAt stopped (after the list's `]`). */
let levelsEnd = 0

/** The `[["price","size"],…]` list at `a` (SNAPSHOT checked its syntax); sets levelsEnd. */
function levelsAt(text: string, a: number): KLevel[] {
  const out: KLevel[] = []
  let i = a + 1
  while (text.charCodeAt(i) === 91 /* [ */) {
    const price = i + 2
    const priceEnd = text.indexOf('"', price)
    const size = priceEnd + 3
    const sizeEnd = text.indexOf('"', size)
    out.push([text.slice(price, priceEnd), text.slice(size, sizeEnd)])
    i = sizeEnd + 2
    if (text.charCodeAt(i) === 44 /* , */) i++
  }
  levelsEnd = i + 1
  return out
}

/** A delta DELTA matched. */
function delta(text: string): KEnvelope {
  let i = text.indexOf('{') + TO_SID
  const sid = integerAt(text, i)
  i = numberEnd + TO_SEQ
  const seq = integerAt(text, i)
  i = numberEnd + TO_TICKER
  let end = text.indexOf('"', i)
  const ticker = text.slice(i, end)
  // market_id is skipped.
  end = text.indexOf('"', end + TO_MARKET_ID)
  i = end + TO_PRICE
  end = text.indexOf('"', i)
  const price = text.slice(i, end)
  i = end + TO_DELTA
  end = text.indexOf('"', i)
  const delta = text.slice(i, end)
  i = end + TO_SIDE
  end = text.indexOf('"', i)
  const side = text.slice(i, end)
  // ts (the deprecated RFC3339 string) is skipped.
  end = text.indexOf('"', end + TO_TS)
  const tsMs = integerAt(text, end + TO_TS_MS)
  const msg: KDeltaMsg = {
    market_ticker: ticker,
    price_dollars: price,
    delta_fp: delta,
    side: side as KDeltaMsg['side'],
    ts_ms: tsMs,
  }
  return { type: 'orderbook_delta', sid, seq, msg }
}

/** A ticker TICKER matched. */
function ticker(text: string): KEnvelope {
  const sid = integerAt(text, text.indexOf('{') + TO_TICKER_SID)
  let i = numberEnd + TO_FIRST_KEY
  let ticker: string
  let end: number
  if (text.charCodeAt(i + MARKET_TICKER_T) === 116 /* t: market_ticker first, as the simulator sends */) {
    i += TO_TICKER_VALUE
    end = text.indexOf('"', i)
    ticker = text.slice(i, end)
    end = text.indexOf('"', end + TO_MARKET_ID)
  } else {
    // market_id first, as in the venue's example.
    end = text.indexOf('"', i + TO_MARKET_ID_VALUE)
    i = end + TO_MARKET_TICKER
    end = text.indexOf('"', i)
    ticker = text.slice(i, end)
  }
  // price_dollars, yes_bid_dollars and yes_ask_dollars are skipped.
  end = text.indexOf('"', end + TO_PRICE)
  end = text.indexOf('"', end + TO_YES_BID)
  end = text.indexOf('"', end + TO_YES_ASK)
  i = end + TO_VOLUME
  end = text.indexOf('"', i)
  const volume = text.slice(i, end)
  i = end + TO_OPEN_INTEREST
  end = text.indexOf('"', i)
  const openInterest = text.slice(i, end)
  // dollar_volume, dollar_open_interest and the three sizes are skipped.
  integerAt(text, end + TO_DOLLAR_VOLUME)
  integerAt(text, numberEnd + TO_DOLLAR_OI)
  end = text.indexOf('"', numberEnd + TO_YES_BID_SIZE)
  end = text.indexOf('"', end + TO_YES_ASK_SIZE)
  end = text.indexOf('"', end + TO_LAST_SIZE)
  integerAt(text, end + TO_TS_SECONDS)
  const tsMs = integerAt(text, numberEnd + TO_TICKER_TS_MS)
  const msg: KTickerMsg = { market_ticker: ticker, volume_fp: volume, open_interest_fp: openInterest, ts_ms: tsMs }
  return { type: 'ticker', sid, msg }
}

const ZERO = 48

// Fixed parts of the layouts, by length.
const TYPE_AT = '{"type":"'.length
/** Offset of the letter after `orderbook_`: `d`elta or `s`napshot. */
const BOOK_KIND_AT = '{"type":"orderbook_'.length
const TO_SNAPSHOT_MEMBERS = '{"type":"orderbook_snapshot"'.length
const TO_ID_VALUE = ',"id":'.length
const TO_SID_VALUE = ',"sid":'.length
const YES_LEVELS = ',"yes_dollars_fp":'
const NO_LEVELS = ',"no_dollars_fp":'
const TO_SID = '{"type":"orderbook_delta","sid":'.length
const TO_SEQ = ',"seq":'.length
const TO_TICKER = ',"msg":{"market_ticker":"'.length
const TO_MARKET_ID = '","market_id":"'.length
const TO_PRICE = '","price_dollars":"'.length
const TO_DELTA = '","delta_fp":"'.length
const TO_SIDE = '","side":"'.length
const TO_TS = '","ts":"'.length
const TO_TS_MS = '","ts_ms":'.length
const TO_TICKER_SID = '{"type":"ticker","sid":'.length
const TO_FIRST_KEY = ',"msg":{"'.length
/** Offset in `market_ticker` / `market_id` of the letter that tells them apart. */
const MARKET_TICKER_T = 'market_'.length
const TO_TICKER_VALUE = 'market_ticker":"'.length
const TO_MARKET_ID_VALUE = 'market_id":"'.length
const TO_MARKET_TICKER = '","market_ticker":"'.length
const TO_YES_BID = '","yes_bid_dollars":"'.length
const TO_YES_ASK = '","yes_ask_dollars":"'.length
const TO_VOLUME = '","volume_fp":"'.length
const TO_OPEN_INTEREST = '","open_interest_fp":"'.length
const TO_DOLLAR_VOLUME = '","dollar_volume":'.length
const TO_DOLLAR_OI = ',"dollar_open_interest":'.length
const TO_YES_BID_SIZE = ',"yes_bid_size_fp":"'.length
const TO_YES_ASK_SIZE = '","yes_ask_size_fp":"'.length
const TO_LAST_SIZE = '","last_trade_size_fp":"'.length
const TO_TS_SECONDS = '","ts":'.length
const TO_TICKER_TS_MS = ',"ts_ms":'.length

/** Where the last integerAt stopped (the `,` or `}` after the number). */
let numberEnd = 0

/** The JSON integer at `a` (the layout's regex checked its syntax) as JSON.parse reads it; sets numberEnd. */
function integerAt(s: string, a: number): number {
  let j = a
  let n = 0
  let c = s.charCodeAt(j)
  const negative = c === 45 /* - */
  if (negative) c = s.charCodeAt(++j)
  for (; c >= ZERO && c <= ZERO + 9; c = s.charCodeAt(++j)) n = n * 10 + (c - ZERO)
  numberEnd = j
  // Up to 15 digits the sum is exact; longer integers are read as JSON.parse reads them.
  if (j - a > 15) return Number(s.slice(a, j))
  return negative ? -n : n
}

const S = JSON_PLAIN_STRING
const SX = JSON_PLAIN_STRING_NO_BRACE
const INT = JSON_INT
const NUMBER = JSON_NUMBER
/** Members after the known ones: scalar values, keys other than `read`. */
const other = (read: string) => `,"(?!(?:${read})")${SX}":(?:"${SX}"|${NUMBER}|true|false|null)`
const DELTA_MSG =
  `\\{"market_ticker":"${S}","market_id":"${S}","price_dollars":"${S}","delta_fp":"${S}","side":"${S}","ts":"${S}","ts_ms":${INT}` +
  `(?:${other('market_ticker|price_dollars|delta_fp|side|ts_ms')})*\\}`
const TICKER_MSG =
  `\\{(?:"market_ticker":"${S}","market_id":"${S}"|"market_id":"${S}","market_ticker":"${S}"),"price_dollars":"${S}"` +
  `,"yes_bid_dollars":"${S}","yes_ask_dollars":"${S}","volume_fp":"${S}","open_interest_fp":"${S}","dollar_volume":${INT}` +
  `,"dollar_open_interest":${INT},"yes_bid_size_fp":"${S}","yes_ask_size_fp":"${S}","last_trade_size_fp":"${S}","ts":${INT}` +
  `,"ts_ms":${INT},"time":"${S}"(?:${other('market_ticker|volume_fp|open_interest_fp|ts_ms')})*\\}`
const LEVEL = `\\["${S}","${S}"\\]`
const LEVELS = `\\[(?:${LEVEL}(?:,${LEVEL})*)?\\]`
const SNAPSHOT_MSG = `\\{"market_ticker":"${S}","market_id":"${S}"(?:,"yes_dollars_fp":${LEVELS})?(?:,"no_dollars_fp":${LEVELS})?\\}`
const WS = JSON_WS
const DELTA = new RegExp(`^${WS}\\{"type":"orderbook_delta","sid":${INT},"seq":${INT},"msg":${DELTA_MSG}\\}${WS}$`)
const TICKER = new RegExp(`^${WS}\\{"type":"ticker","sid":${INT},"msg":${TICKER_MSG}\\}${WS}$`)
const SNAPSHOT = new RegExp(
  `^${WS}\\{"type":"orderbook_snapshot",(?:"id":${INT},)?"sid":${INT},"seq":${INT},"msg":${SNAPSHOT_MSG}\\}${WS}$`,
)
