import { MICROS_PER_UNIT } from '../../core/numbers.js'
import { PROVENANCE_FIELDS } from '../world/capture.js'
import type { VpCapturedEvent, VpCapturedMarket } from './capture-schema.js'
import type { VpEvent, VpMarket } from './types.js'
import { lastTrade, tokenTop } from './book-view.js'
import { fmtNum, jsonListString, num } from './format.js'
import type { World } from '../world/world.js'
import { venuepOf } from './state.js'

/** What the captured shapes need of a Gamma request's view (gamma-shapes.ts `GammaView`, without importing it back). */
export interface CapturedView {
  readonly world: World
  parentEvent(e: VpEvent): Record<string, unknown>
}

/**
 * Gamma bodies of a replayed market or event: the capture's own fields, in its order, with Gamma's encoding of
 * `outcomes`, `outcomePrices` and `clobTokenIds` as JSON strings. A field the capture lacks stays absent; nothing
 * is added to make a body look complete.
 *
 * The simulation's numbers replace the captured values of the fields it moves, and only of those the capture has:
 * top of book, spread and `outcomePrices` once the engine has moved the market's book (until then the captured
 * values are served verbatim), the last trade once the simulation has printed one, the tick size of the live book,
 * and volumes as the captured figure plus the notional traded since the replay started.
 */
const ENCODED_LISTS: ReadonlySet<string> = new Set(['outcomes', 'outcomePrices', 'clobTokenIds'])

export function capturedMarketJson(
  view: CapturedView,
  m: VpMarket,
  capture: VpCapturedMarket,
  includeTag: boolean,
  withParent = true,
): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(capture))
    out[key] = ENCODED_LISTS.has(key) && Array.isArray(value) ? jsonListString(value.map(String)) : value
  overlayLive(view, m, out)
  // Gamma's /markets rows carry their parent event (abbreviated); rows nested in an event do not repeat it.
  if (withParent) out.events = [view.parentEvent(m.event)]
  if (includeTag && m.event.capture?.tags !== undefined) out.tags = m.event.capture.tags
  return out
}

/** `full` nests the markets (the `/events` form); otherwise the abbreviated parent inside a market row. */
export function capturedEventJson(
  view: CapturedView,
  e: VpEvent,
  capture: VpCapturedEvent,
  full: boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(capture)) {
    if (PROVENANCE_FIELDS.has(key) || key === 'markets' || (key === 'tags' && !full)) continue
    out[key] = value
  }
  let live = 0
  for (const m of e.markets) live += venuepOf(view.world).activity.liveNotional.get(m.conditionId) ?? 0
  // Untouched until the simulation trades, so the captured figures are served to the last digit.
  if (live > 0 && typeof out.volume === 'number') out.volume = num(out.volume + live)
  if (live > 0 && typeof out.volume24hr === 'number') out.volume24hr = num(out.volume24hr + live)
  if (full) out.markets = e.markets.map((m) => capturedMarketJson(view, m, m.capture as VpCapturedMarket, false, false))
  return out
}

function overlayLive(view: CapturedView, m: VpMarket, out: Record<string, unknown>): void {
  const { world } = view
  const live = venuepOf(world).activity.liveNotional.get(m.conditionId) ?? 0
  if (live > 0 && typeof out.volumeNum === 'number') out.volumeNum = num(out.volumeNum + live, 6)
  if (live > 0 && typeof out.volume24hr === 'number') out.volume24hr = num(out.volume24hr + live, 6)
  const last = lastTrade(world, m, 0)
  if (last !== undefined && 'lastTradePrice' in out) out.lastTradePrice = num(last.price)
  const book = venuepOf(world).books.get(m.conditionId)
  if (book === undefined) return
  if ('orderPriceMinTickSize' in out) out.orderPriceMinTickSize = book.tickMicros / MICROS_PER_UNIT
  if (book.updatedAt <= world.anchorMs) return // not moved since it was seeded from the capture
  const top = tokenTop(book, 0)
  replaceOrDrop(out, 'bestBid', top.bid === undefined ? undefined : top.bid / MICROS_PER_UNIT)
  replaceOrDrop(out, 'bestAsk', top.ask === undefined ? undefined : top.ask / MICROS_PER_UNIT)
  const bothSides = top.bid !== undefined && top.ask !== undefined
  replaceOrDrop(
    out,
    'spread',
    bothSides ? num(((top.ask as number) - (top.bid as number)) / MICROS_PER_UNIT) : undefined,
  )
  if ('outcomePrices' in out && bothSides) {
    const mid = ((top.bid as number) + (top.ask as number)) / 2 / MICROS_PER_UNIT
    out.outcomePrices = jsonListString([fmtNum(mid, 4), fmtNum(1 - mid, 4)])
  }
}

/** A field the capture has takes the live value; when the live book no longer knows it, it is dropped. */
function replaceOrDrop(out: Record<string, unknown>, key: string, value: number | undefined): void {
  if (!(key in out)) return
  if (value === undefined) delete out[key]
  else out[key] = value
}
