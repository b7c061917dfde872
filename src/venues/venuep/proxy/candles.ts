import { UpstreamHttpError } from '../../http-client.js'
import { upstreamAppError } from '../../upstream/errors.js'
import {
  conditionOrNotFound,
  directory,
  oneMarketOfSlug,
  ParamError,
  tokenOrNotFound,
  type ProxyContext,
} from './context.js'
import type { TokenRef } from './markets.js'
import { TTL } from './ttl.js'
import { parseHistory, type HistoryPointWire } from './wire.js'

/**
 * `GET /candlesticks`: a token's price series from CLOB `/prices-history` (venuep.md §2.4), one point per
 * candle of `fidelity` minutes, `t` the candle's open time (Unix seconds) and `p` the probability then.
 *
 * Identifiers: `token_id` > `condition_id` > `market_slug` (spec 4.1); a condition id or slug selects the
 * market's outcome-0 (YES / first) token; an event or group slug names its leading market (context.ts
 * `oneMarketOfSlug`), echoed in `resolved_from`. Window: `start_ts`/`end_ts` inclusive, each optional; without
 * `start_ts` the series starts where the venue's history does, without `end_ts` it runs to now.
 *
 * A cache hit is answered synchronously with pre-rendered UTF-8 bytes (serialized and encoded once per cached
 * answer: handing uWS a string would re-encode ~5 kB per response), which is what keeps a cached read close to
 * the bare server's speed. Closed windows are
 * cached for a day, windows reaching now for 30 s (ttl.ts).
 */
export interface CandleQuery {
  readonly market_slug?: string | undefined
  readonly condition_id?: string | undefined
  readonly token_id?: string | undefined
  readonly fidelity: number
  readonly start_ts?: number | undefined
  readonly end_ts?: number | undefined
}

const PATH = '/prices-history'
/**
 * The rendered bodies of each cached answer. An answer is cached under a key naming the token, fidelity and
 * window, and everything else in the body derives from those except `resolved_from` (the slug a request named
 * when it was resolved to this token), so an answer has one body per `resolved_from` ('' for none).
 */
const bodies = new WeakMap<readonly HistoryPointWire[], Map<string, Uint8Array>>()

/** A rendered answer and the expiry of the venue answer it was rendered from. */
export interface RenderedCandles {
  readonly body: Uint8Array
  readonly expiresAt: number
  /**
   * False when the series was picked by price (an event slug's leading market): the same query may name another
   * market after the next price change, so the body must not be kept by query string.
   */
  readonly reusable: boolean
}

/** The JSON body, synchronously when the venue's answer is cached. */
export function candlesticks(ctx: ProxyContext, q: CandleQuery): RenderedCandles | Promise<RenderedCandles> {
  const dir = directory(ctx)
  let ref: TokenRef
  let resolvedFrom: string | null = null
  let reusable = true
  if (q.token_id !== undefined) ref = tokenOrNotFound(dir, q.token_id)
  else if (q.condition_id !== undefined) ref = { market: conditionOrNotFound(dir, q.condition_id), index: 0 }
  else {
    const resolved = oneMarketOfSlug(ctx, dir, q.market_slug as string)
    ref = { market: resolved.market, index: 0 }
    resolvedFrom = resolved.resolvedFrom
    reusable = !resolved.byPrice
  }
  if (q.start_ts !== undefined && q.end_ts !== undefined && q.start_ts > q.end_ts) {
    throw new ParamError(['query', 'start_ts'], 'start_ts must not be after end_ts', q.start_ts)
  }
  const tokenId = ref.market.tokens[ref.index]
  // An explicit key: cheaper than the URL on the hit path, and it names everything the body depends on.
  const key = `clob:ph:${tokenId}:${q.fidelity}:${q.start_ts ?? ''}:${q.end_ts ?? ''}`
  const clob = ctx.upstreams.clob
  const meta = (): string =>
    JSON.stringify({
      market_slug: ref.market.slug,
      resolved_from: resolvedFrom,
      condition_id: ref.market.conditionId,
      token_id: tokenId,
      outcome_index: ref.index,
      fidelity_minutes: q.fidelity,
      start_ts: q.start_ts ?? null,
      end_ts: q.end_ts ?? null,
    })
  const cached = clob.peekEntry<readonly HistoryPointWire[]>({ path: PATH, key })
  if (cached !== undefined)
    return { body: render(cached.value, resolvedFrom, meta), expiresAt: cached.expiresAt, reusable }
  const query =
    q.start_ts === undefined && q.end_ts === undefined
      ? { market: tokenId, interval: 'max', fidelity: q.fidelity }
      : { market: tokenId, startTs: q.start_ts, endTs: q.end_ts, fidelity: q.fidelity }
  const nowSec = Math.floor(ctx.clock.now() / 1000)
  const closed = q.end_ts !== undefined && q.end_ts <= nowSec - TTL.historySettledAfterSec
  return clob
    .get({
      path: PATH,
      query,
      key,
      parse: parseHistory,
      ttlMs: () => (closed ? TTL.historyClosedMs : TTL.historyOpenMs),
      sizeOf: (h) => 64 + h.length * 32,
    })
    .then(
      // Rendered from this answer even if the cache already let it go; then it expires at once.
      (history) => ({
        body: render(history, resolvedFrom, meta),
        expiresAt: clob.expiresAt({ path: PATH, key }) ?? 0,
        reusable,
      }),
      (err: unknown) => {
        // The venue rejects some windows itself (too many candles for the fidelity): the client's parameters.
        if (err instanceof UpstreamHttpError && err.status === 400) {
          throw new ParamError(['query', 'fidelity'], `the venue rejected the window: ${venueMessage(err)}`, q.fidelity)
        }
        throw upstreamAppError(err, 'clob')
      },
    )
}

function render(history: readonly HistoryPointWire[], resolvedFrom: string | null, meta: () => string): Uint8Array {
  let variants = bodies.get(history)
  if (variants === undefined) bodies.set(history, (variants = new Map()))
  let body = variants.get(resolvedFrom ?? '')
  if (body === undefined) {
    body = Buffer.from(`{"history":${JSON.stringify(history)},${meta().slice(1)}`, 'utf8')
    variants.set(resolvedFrom ?? '', body)
  }
  return body
}

function venueMessage(err: UpstreamHttpError): string {
  try {
    const body = JSON.parse(err.bodySnippet) as { error?: unknown }
    if (typeof body.error === 'string') return body.error
  } catch {
    // not JSON
  }
  return `HTTP ${err.status}`
}
