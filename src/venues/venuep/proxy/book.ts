import { isoNoZone } from '../../../core/time.js'
import { UpstreamProtocolError } from '../../http-client.js'
import { directory, notFound, oneMarketOfSlug, tokenOrNotFound, upstreamCall, type ProxyContext } from './context.js'
import { decimalOfMicros } from './format.js'
import type { TokenRef } from './markets.js'
import { TTL } from './ttl.js'
import { parseBook, type BookWire } from './wire.js'

/**
 * `GET /orderbook-history`: the current book of one CLOB token. From the venuep actor's memory when we stream
 * that token and its book is synced and not stale (no venue round trip: the answer is current as of the
 * response, `source: "live"`); otherwise from the venue's `/book` through the cache (`source: "venue"`, book
 * time as the venue stamped it). Bids descending, asks ascending, decimal strings (spec 2.10); the venue's
 * own order is the opposite (best last, venuep.md §2.2) and is re-sorted here. An event or group slug names its
 * leading market (context.ts `oneMarketOfSlug`); `resolved_from` echoes the slug then.
 */
export interface BookQuery {
  readonly market_slug?: string | undefined
  readonly token_id?: string | undefined
  readonly outcome_index: number
}

export interface BookLevel {
  readonly price: string
  readonly size: string
}

export interface BookRecord {
  readonly market_slug: string
  readonly resolved_from: string | null
  readonly token_id: string
  readonly condition_id: string
  readonly outcome_index: 0 | 1
  readonly source: 'live' | 'venue'
  readonly book_time: string | null
  readonly bids: BookLevel[]
  readonly asks: BookLevel[]
}

const level = ([price, size]: readonly [number, number]): BookLevel => ({
  price: decimalOfMicros(price),
  size: decimalOfMicros(size),
})

export function orderBook(ctx: ProxyContext, q: BookQuery): BookRecord | Promise<BookRecord> {
  const dir = directory(ctx)
  let ref: TokenRef
  let resolvedFrom: string | null = null
  if (q.token_id !== undefined) {
    ref = tokenOrNotFound(dir, q.token_id)
  } else {
    const resolved = oneMarketOfSlug(ctx, dir, q.market_slug as string)
    ref = { market: resolved.market, index: q.outcome_index === 1 ? 1 : 0 }
    resolvedFrom = resolved.resolvedFrom
  }
  const tokenId = ref.market.tokens[ref.index]
  const head = {
    market_slug: ref.market.slug,
    resolved_from: resolvedFrom,
    token_id: tokenId,
    condition_id: ref.market.conditionId,
    outcome_index: ref.index,
  }
  const reader = ctx.venue.book(tokenId)
  if (reader !== undefined && reader.hasSnapshot && ctx.venue.quote(tokenId)?.stale !== true) {
    return {
      ...head,
      source: 'live',
      book_time: isoNoZone(ctx.clock.now()),
      bids: reader.levels('bid').map(level),
      asks: reader.levels('ask').map(level),
    }
  }
  return upstreamCall(
    'clob',
    ctx.upstreams.clob.get<BookWire | null>({
      path: '/book',
      query: { token_id: tokenId },
      parse: (body, url) => {
        const book = parseBook(body, url)
        if (book.tokenId !== tokenId)
          throw new UpstreamProtocolError(url, `book for ${book.tokenId}, asked for ${tokenId}`)
        return book
      },
      notFound: () => null,
      ttlMs: () => TTL.bookMs,
    }),
  ).then((book) => {
    if (book === null) throw notFound(`the venue has no order book for token ${tokenId} (the market may be closed)`)
    return {
      ...head,
      source: 'venue',
      book_time: book.timestampMs === undefined ? null : isoNoZone(book.timestampMs),
      bids: [...book.bids].sort((a, b) => b[0] - a[0]).map(level),
      asks: [...book.asks].sort((a, b) => a[0] - b[0]).map(level),
    }
  })
}
