import type { Quote, VenueId } from '../model/types.js'

/**
 * A quote as the venue actor publishes it, made by a constructor rather than an object literal. V8 pretenures a
 * literal's allocation site once most of its objects survive, which the first quote of every book does (tens of
 * thousands at start-up, each kept until its book moves); from then on every quote would be allocated in old space
 * and die there, leaving the major collections to clean up after each top-of-book change. Constructed objects have
 * no allocation site, so a quote replaced within seconds dies young.
 */
export class PublishedQuote implements Quote {
  constructor(
    readonly venue: VenueId,
    readonly instrumentId: string,
    readonly bestBid: number | undefined,
    readonly bestBidSize: number | undefined,
    readonly bestAsk: number | undefined,
    readonly bestAskSize: number | undefined,
    readonly lastTradePrice: number | undefined,
    readonly probability: number | undefined,
    readonly venueTs: number,
    readonly receivedAt: number,
    readonly stale: boolean,
    readonly seq: number,
    readonly instrumentSlot: number,
  ) {}
}
