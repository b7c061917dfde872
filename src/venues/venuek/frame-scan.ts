import type { KDeltaMsg, KEnvelope } from './wire.js'
import { JSON_INT, JSON_NUMBER, JSON_PLAIN_STRING, JSON_PLAIN_STRING_NO_BRACE, JSON_WS } from '../json-layout.js'

/**
 * Fast path for venuek's commonest frame, an `orderbook_delta` in the venue's documented layout (venuek.md
 * §6.4, a verbatim capture; the simulator sends the same), that skips `JSON.parse`. JSON.parse looks every key
 * and every short string value up in V8's string table; with tens of thousands of tickers in the process that
 * table is large, and those lookups were the biggest single cost of a venuek frame.
 *
 * `scanDeltaFrame(text)` returns the envelope `JSON.parse(text)` would give, with `msg` holding only the members
 * map-message.ts reads (market_ticker, price_dollars, delta_fp, side, ts_ms), or `undefined` when the frame is
 * not in the layout below; the caller then takes JSON.parse. Values are exactly what JSON.parse gives for them.
 *
 * The layout, checked in full by one anchored regular expression (FRAME) before anything is read:
 *   {"type":"orderbook_delta","sid":int,"seq":int,"msg":{"market_ticker":"…","market_id":"…",
 *    "price_dollars":"…","delta_fp":"…","side":"…","ts":"…","ts_ms":int, then any other members}}
 * Key order is fixed. "Any other members" (the venue's optional client_order_id and subaccount, new fields) have
 * scalar values and keys other than the five read here, so none can override them (JSON.parse would let the
 * last one win: such frames take the general path). Strings hold no escapes and no control characters. JSON
 * whitespace is allowed around the frame only. Anything else takes the general path.
 *
 * Why a regular expression, as for venuep's price_change (venuep/price-change-scan.ts): V8 runs it as native
 * code, while JS reading the text a character at a time costs several nanoseconds a character. Once FRAME has
 * matched, every value sits at a fixed offset from the end of the one before, which indexOf finds.
 */
export function scanDeltaFrame(text: string): KEnvelope | undefined {
  if (!FRAME.test(text)) return undefined
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
  const msg: KDeltaMsg = { market_ticker: ticker, price_dollars: price, delta_fp: delta, side: side as KDeltaMsg['side'], ts_ms: tsMs }
  return { type: 'orderbook_delta', sid, seq, msg }
}

const ZERO = 48

// Fixed parts of the layout, by length.
const TO_SID = '{"type":"orderbook_delta","sid":'.length
const TO_SEQ = ',"seq":'.length
const TO_TICKER = ',"msg":{"market_ticker":"'.length
const TO_MARKET_ID = '","market_id":"'.length
const TO_PRICE = '","price_dollars":"'.length
const TO_DELTA = '","delta_fp":"'.length
const TO_SIDE = '","side":"'.length
const TO_TS = '","ts":"'.length
const TO_TS_MS = '","ts_ms":'.length

/** Where the last integerAt stopped (the `,` or `}` after the number). */
let numberEnd = 0

/** The JSON integer at `a` (FRAME checked its syntax) as JSON.parse reads it; sets numberEnd. */
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
const OTHER = `,"(?!(?:market_ticker|price_dollars|delta_fp|side|ts_ms)")${SX}":(?:"${SX}"|${NUMBER}|true|false|null)`
const MSG = `\\{"market_ticker":"${S}","market_id":"${S}","price_dollars":"${S}","delta_fp":"${S}","side":"${S}","ts":"${S}","ts_ms":${INT}(?:${OTHER})*\\}`
const WS = JSON_WS
const FRAME = new RegExp(`^${WS}\\{"type":"orderbook_delta","sid":${INT},"seq":${INT},"msg":${MSG}\\}${WS}$`)
