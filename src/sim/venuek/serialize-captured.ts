import { MS_PER_DAY } from '../../core/time.js'
import { PROVENANCE_FIELDS } from '../world/capture.js'
import type { VkCapturedEvent, VkCapturedMarket } from './capture-schema.js'
import type { VkEvent, VkMarket } from './types.js'
import { topOfBook } from './book-view.js'
import { dollars, dollarsOf, fpHundredths, ONE_DOLLAR } from './format.js'
import type { VenuekState } from './market-state.js'

/**
 * REST bodies of a replayed venuek event or market: the capture's own fields, in its order, in the current wire
 * format (venuek.md §3: the capture's dollar prices become `_dollars` strings with 4 decimals, its contract
 * counts `_fp` strings with 2). A field the capture lacks stays absent: no created/open times, no result, no
 * rules, no price-level structure. Zero prices keep the venue's meaning, "no quote".
 *
 * The simulation's numbers replace the captured values of the fields it moves, and only of those the capture has:
 * the top of book once the engine has moved the market's book (until then the captured quotes are served
 * verbatim), the last price once the simulation has printed a trade, and volume and open interest as the captured
 * figures plus what has traded since the replay started.
 */
const DOLLAR_FIELDS: ReadonlySet<string> = new Set(['yes_bid', 'yes_ask', 'no_bid', 'no_ask', 'last_price'])
const COUNT_FIELDS: ReadonlySet<string> = new Set(['volume', 'volume_24h', 'open_interest'])

export function serializeCapturedEvent(
  event: VkEvent,
  capture: VkCapturedEvent,
  state: VenuekState,
  nested: boolean,
): Record<string, unknown> {
  const body: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(capture)) {
    if (PROVENANCE_FIELDS.has(key) || key === 'markets') continue
    body[key] = value
  }
  if (nested) {
    const now = state.clock.now()
    body['markets'] = event.markets.map((m) => serializeCapturedMarket(m, m.capture as VkCapturedMarket, state, now))
  }
  return body
}

export function serializeCapturedMarket(
  m: VkMarket,
  capture: VkCapturedMarket,
  state: VenuekState,
  now: number,
): Record<string, unknown> {
  const body: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(capture)) {
    if (DOLLAR_FIELDS.has(key) && typeof value === 'number') body[`${key}_dollars`] = dollarsOf(value)
    else if (COUNT_FIELDS.has(key) && typeof value === 'number')
      body[`${key}_fp`] = fpHundredths(Math.round(value * 100))
    else body[key] = value
  }
  const set = (key: string, value: string) => {
    if (key in body) body[key] = value
  }
  // The state's figures are the captured ones (the replay's base) plus live trading.
  set('volume_fp', fpHundredths(state.volume(m, now)))
  if (typeof capture.volume_24h === 'number') {
    set(
      'volume_24h_fp',
      fpHundredths(Math.round(capture.volume_24h * 100) + state.trades.volumeBetween(m.ticker, now - MS_PER_DAY, now)),
    )
  }
  set('open_interest_fp', fpHundredths(state.openInterest(m, now)))
  const last = state.trades.lastAtOrBefore(m.ticker, now)
  if (last !== undefined) set('last_price_dollars', dollarsOf(last.yesPrice))
  const book = state.book(m)
  if (book !== undefined && book.updatedAt > state.world.anchorMs) {
    const top = topOfBook(book)
    set('yes_bid_dollars', dollars(top.yesBid))
    set('yes_ask_dollars', dollars(top.yesAsk))
    set('no_bid_dollars', dollars(ONE_DOLLAR - top.yesAsk))
    set('no_ask_dollars', dollars(ONE_DOLLAR - top.yesBid))
  }
  return body
}
