import type { LevelChange } from '../world/book-model.js'
import type { VkTrade } from './trade-store.js'
import type { VkMarket } from './types.js'
import { noAtYesPrice, topOfBook, type BidsOnlyBook, type Level } from './book-view.js'
import { dollars, dollarsOf, fpHundredths, fpMicros, hundredthsOf, ONE_DOLLAR, rfc3339, unixSeconds } from './format.js'
import type { VenuekState } from './market-state.js'

/**
 * venuek WS v2 message bodies (venuek.md §6.4–6.6), current shape, built as strings. The engine can emit
 * thousands of book changes a second and each goes to every subscriber, so a change's `msg` is serialized once
 * and wrapped per subscription with only `sid`/`seq` differing.
 */
const marketHeads = new WeakMap<VkMarket, string>()

/** `"market_ticker":…,"market_id":…`, escaped once per market. */
function marketHead(m: VkMarket): string {
  let head = marketHeads.get(m)
  if (head === undefined) {
    head = `"market_ticker":${JSON.stringify(m.ticker)},"market_id":${JSON.stringify(m.marketId)}`
    marketHeads.set(m, head)
  }
  return head
}

function levels(list: readonly Level[]): string {
  let out = '['
  for (let i = 0; i < list.length; i++) {
    const [p, s] = list[i] as Level
    out += `${i === 0 ? '' : ','}["${dollars(p)}","${fpMicros(s)}"]`
  }
  return out + ']'
}

/** `orderbook_snapshot` msg: ascending levels; a side's key is absent when it has no levels. */
export function snapshotMsg(m: VkMarket, book: BidsOnlyBook, useYesPrice: boolean): string {
  let out = `{${marketHead(m)}`
  if (book.yes.length > 0) out += `,"yes_dollars_fp":${levels(book.yes)}`
  const no = useYesPrice ? noAtYesPrice(book.no) : book.no
  if (no.length > 0) out += `,"no_dollars_fp":${levels(no)}`
  return out + '}'
}

/**
 * `orderbook_delta` msgs for one engine book event, one per level change. A YES-ask change at `a` is a NO bid
 * change at `1 − a` (or at `a` itself with `use_yes_price`); `delta_fp` is the signed size change.
 */
export function deltaMsgs(m: VkMarket, changes: readonly LevelChange[], ts: number, useYesPrice: boolean): string[] {
  const head = marketHead(m)
  const tail = `"ts":"${new Date(ts).toISOString()}","ts_ms":${ts}}`
  const out: string[] = new Array(changes.length)
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i] as LevelChange
    const yes = c.side === 'bid'
    const price = yes || useYesPrice ? c.price : ONE_DOLLAR - c.price
    const delta = fpMicros(c.size - c.prevSize)
    out[i] = `{${head},"price_dollars":"${dollars(price)}","delta_fp":"${delta}","side":"${yes ? 'yes' : 'no'}",${tail}`
  }
  return out
}

/**
 * The `ticker` msg fields that describe the market's state (everything but the timestamps): a frame is due
 * whenever this string changes. `price_dollars` is `""` for a market that never traded (as captured on the
 * venue). The whole-dollar `dollar_volume` / `dollar_open_interest` value every contract at half a dollar, the
 * ratio of the venue's own example; the simulator does not know the notional of a listing's base volume.
 */
export function tickerState(state: VenuekState, m: VkMarket, now: number): string {
  const top = topOfBook(state.book(m))
  const last = state.trades.lastAtOrBefore(m.ticker, now)
  const volume = state.volume(m, now)
  const oi = state.openInterest(m, now)
  return (
    `${marketHead(m)},"price_dollars":"${last === undefined ? '' : dollarsOf(last.yesPrice)}"` +
    `,"yes_bid_dollars":"${dollars(top.yesBid)}","yes_ask_dollars":"${dollars(top.yesAsk)}"` +
    `,"volume_fp":"${fpHundredths(volume)}","open_interest_fp":"${fpHundredths(oi)}"` +
    `,"dollar_volume":${Math.floor(volume / 200)},"dollar_open_interest":${Math.floor(oi / 200)}` +
    `,"yes_bid_size_fp":"${fpMicros(top.yesBidSize)}","yes_ask_size_fp":"${fpMicros(top.yesAskSize)}"` +
    `,"last_trade_size_fp":"${last === undefined ? '0.00' : fpHundredths(hundredthsOf(last.count))}"`
  )
}

/** `ticker` msg: the state plus `ts` (s), `ts_ms` and the deprecated `time`. */
export function tickerMsg(stateFields: string, ts: number): string {
  return `{${stateFields},"ts":${unixSeconds(ts)},"ts_ms":${ts},"time":"${rfc3339(ts)}"}`
}

/** `trade` msg (venuek.md §6.6). */
export function tradeMsg(t: VkTrade): string {
  const yes = Math.round(t.yesPrice * ONE_DOLLAR)
  return (
    `{"trade_id":"${t.tradeId}","market_ticker":${JSON.stringify(t.market.ticker)},"yes_price_dollars":"${dollars(yes)}"` +
    `,"no_price_dollars":"${dollars(ONE_DOLLAR - yes)}","count_fp":"${fpHundredths(hundredthsOf(t.count))}"` +
    `,"taker_side":"${t.takerOutcomeSide}","taker_outcome_side":"${t.takerOutcomeSide}","taker_book_side":"${t.takerBookSide}"` +
    `,"is_block_trade":false,"ts":${unixSeconds(t.ts)},"ts_ms":${t.ts}}`
  )
}

/** The data envelope `{"type","sid","seq"?,"msg"}`; a snapshot answering `get_snapshot` also carries the command id. */
export function dataFrame(type: string, sid: number, seq: number | undefined, msg: string, id?: number): string {
  const idPart = id === undefined ? '' : `"id":${id},`
  const seqPart = seq === undefined ? '' : `,"seq":${seq}`
  return `{"type":"${type}",${idPart}"sid":${sid}${seqPart},"msg":${msg}}`
}
