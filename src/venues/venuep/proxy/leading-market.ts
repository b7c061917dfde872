import { leadingIndex } from '../../../views/leading.js'
import { outcomePrice } from '../../../views/outcome-price.js'
import type { Quote } from '../../../model/types.js'
import type { BinaryMarket } from './markets.js'

/**
 * The leading market of a venuep event, for endpoints about one market (order book, candlesticks) asked with an
 * event or group slug: the child market whose YES outcome leads by the rule of the collapsed rows' `leading_outcome`
 * (src/views/leading.ts: highest probability among the open markets, ties by volume, then by token id), priced as
 * the market lists show it (live quote, else the catalog's). So `/events/{slug}`'s leading outcome, when it is a
 * venuep one, is the market these endpoints answer for. It needs only the live venue's quotes (context.ts's
 * LiveVenue passes as it is; naming that type here would make the two modules import each other).
 */
export function leadingMarket(
  venue: { quote(instrumentId: string): Quote | undefined },
  markets: readonly BinaryMarket[],
): BinaryMarket {
  const i = leadingIndex(
    markets.map((m) => ({
      open: m.status === 'active',
      probability: outcomePrice(m.yes, venue.quote(m.tokens[0])).probability,
      volume: m.yes.volume,
      id: m.tokens[0],
    })),
  )
  return markets[Math.max(0, i)] as BinaryMarket
}
