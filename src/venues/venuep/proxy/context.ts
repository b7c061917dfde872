import type { CatalogSnapshot } from '../../../actors/catalog-snapshot.js'
import type { BookReader } from '../../../book/order-book.js'
import type { Clock } from '../../../core/clock.js'
import { AppError } from '../../../core/errors.js'
import type { Quote } from '../../../model/types.js'
import { upstreamAppError, type UpstreamName } from '../../upstream/errors.js'
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
 * A request parameter that passed schema validation but cannot be used (an ambiguous slug, a cursor issued
 * for other filters). Rendered as a 422 with the same body as schema validation errors.
 */
export class ParamError extends Error {
  constructor(
    readonly loc: readonly string[],
    message: string,
    readonly input: unknown,
    readonly type = 'value_error',
  ) {
    super(message)
    this.name = 'ParamError'
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

/** Exactly one binary market for a slug; a group of several is a 422 that names the choices. */
export function singleMarketOfSlug(ctx: ProxyContext, dir: MarketDirectory, slug: string): BinaryMarket {
  const markets = marketsOfSlug(ctx, dir, slug)
  if (markets.length === 1) return markets[0] as BinaryMarket
  const names = markets.slice(0, 5).map((m) => m.slug).join(', ') + (markets.length > 5 ? ', …' : '')
  const msg = `market_slug ${slug} names ${markets.length} markets; give one of their slugs (${names}), a condition_id or a token_id`
  throw new ParamError(['query', 'market_slug'], msg, slug)
}

/** Runs an upstream call and maps its failure to the API's error contract. */
export async function upstreamCall<T>(name: UpstreamName, p: Promise<T>): Promise<T> {
  try {
    return await p
  } catch (err) {
    throw upstreamAppError(err, name)
  }
}
