import type { CatalogSnapshot } from '../../../actors/catalog-snapshot.js'
import type { BookReader } from '../../../book/order-book.js'
import type { Clock } from '../../../core/clock.js'
import { AppError } from '../../../core/errors.js'
import type { Quote } from '../../../model/types.js'
import { upstreamAppError, type UpstreamName } from '../../upstream/errors.js'
import { leadingMarket } from './leading-market.js'
import { MarketDirectory, type BinaryMarket, type TokenRef } from './markets.js'
import type { VenuepUpstreams } from './upstreams.js'

/**
 * What every proxy needs: the venue's hosts (with cache, breaker, limits), the clock, and read access to the
 * venuep actor's memory (catalog snapshot, live books, quotes). Narrow on purpose so tests can fake it.
 */
export interface LiveVenue {
  catalog(): CatalogSnapshot | undefined
  book(instrumentId: string): BookReader | undefined
  quote(instrumentId: string): Quote | undefined
}

export interface ProxyContext {
  readonly upstreams: VenuepUpstreams
  readonly clock: Clock
  readonly venue: LiveVenue
  /** The venuep event id behind a service event slug or alias (cross-venue links), if any. */
  readonly eventOfSlug?: (slug: string) => string | undefined
}

/**
 * A request parameter that passed schema validation but cannot be used (a cursor issued for other filters, a
 * window the venue rejects): a 422 with the same body as schema validation errors, one entry at `loc`.
 */
export class ParamError extends AppError {
  constructor(loc: readonly string[], message: string, input: unknown, type = 'value_error') {
    super(422, 'validation_error', message, { issues: [{ type, loc, msg: message, input }] })
  }
}

export function directory(ctx: ProxyContext): MarketDirectory {
  const snapshot = ctx.venue.catalog()
  if (snapshot === undefined) throw new AppError(503, 'not_ready', 'the venuep catalog is still loading')
  return MarketDirectory.of(snapshot)
}

export function notFound(detail: string): AppError {
  return new AppError(404, 'not_found', detail)
}

export function tokenOrNotFound(dir: MarketDirectory, tokenId: string): TokenRef {
  const ref = dir.token(tokenId)
  if (ref === undefined) throw notFound(`unknown token_id ${tokenId}`)
  return ref
}

export function conditionOrNotFound(dir: MarketDirectory, conditionId: string): BinaryMarket {
  const m = dir.condition(conditionId)
  if (m === undefined) throw notFound(`unknown condition_id ${conditionId}`)
  return m
}

/** The binary markets a market or event slug names (one for a market slug, the children for a group/event). */
export function marketsOfSlug(ctx: ProxyContext, dir: MarketDirectory, slug: string): readonly BinaryMarket[] {
  const found = dir.slug(slug) ?? lookupAlias(ctx, dir, slug)
  if (found === undefined || found.length === 0) throw notFound(`unknown market_slug ${slug}`)
  return found
}

function lookupAlias(ctx: ProxyContext, dir: MarketDirectory, slug: string): readonly BinaryMarket[] | undefined {
  const eventId = ctx.eventOfSlug?.(slug)
  return eventId === undefined ? undefined : dir.slug(eventId)
}

/** A slug resolved to the one binary market an endpoint answers for. */
export interface ResolvedMarket {
  readonly market: BinaryMarket
  /** The slug asked for when it was not the binary market's own (an event, group or alias slug); else null. */
  readonly resolvedFrom: string | null
  /** Chosen by price among several markets: the answer for the same slug can change as prices move. */
  readonly byPrice: boolean
}

/**
 * One binary market for a market or event slug (spec: `market_slug` is "market or event slug"): the market itself,
 * the only market of an event, or an event's (group's) leading market (leading-market.ts).
 */
export function oneMarketOfSlug(ctx: ProxyContext, dir: MarketDirectory, slug: string): ResolvedMarket {
  const markets = marketsOfSlug(ctx, dir, slug)
  if (markets.length === 1) {
    const market = markets[0] as BinaryMarket
    return { market, resolvedFrom: market.slug === slug ? null : slug, byPrice: false }
  }
  return { market: leadingMarket(ctx.venue, markets), resolvedFrom: slug, byPrice: true }
}

/** Runs an upstream call and maps its failure to the API's error contract. */
export async function upstreamCall<T>(name: UpstreamName, p: Promise<T>): Promise<T> {
  try {
    return await p
  } catch (err) {
    throw upstreamAppError(err, name)
  }
}
