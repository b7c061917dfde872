import { Type } from '@sinclair/typebox'
import type { AppError } from '../../../core/errors.js'
import type { VenuepLive } from '../proxy/live.js'
import { json } from '../../../http/reply.js'
import { defineRoute, type AnyRoute, type ResponseSpec } from '../../../http/route.js'
import { ErrorBody, Limit } from '../../../http/schemas/common.js'
import { invalid } from '../../../http/validation-errors.js'
import { NOT_FOUND_RESPONSE, VALIDATION_RESPONSE } from '../../../http/routes/support.js'
import {
  ActivitySchema,
  CandlesSchema,
  OrderBookSchema,
  OrdersSchema,
  PnlSchema,
  PositionsSchema,
  WalletSchema,
} from './live-schemas.js'

/**
 * venuep's live data proxied from the venue (spec 4.1): order book, trade history, wallet activity,
 * candlesticks, positions, wallet profile and realized PnL. The work is in src/venues/venuep/proxy; these
 * routes declare parameters and bodies (validation + OpenAPI). The proxies' errors are AppErrors the server renders
 * (a parameter the venue cannot use is a 422; a refused upstream call carries `Retry-After`). None is public: they
 * sit behind the API key like every data endpoint.
 *
 * Errors beyond 422: 404 unknown market, token or wallet; 502 `upstream_error` (the venue failed; carries
 * `upstream` and `upstream_status`); 503 `upstream_error` with `Retry-After` when we did not call the venue
 * because its circuit breaker is open or our request budget at the venue is used up (`reason`:
 * `circuit_open` | `upstream_rate_limit`); 503 `not_ready` while the catalog loads; 504 `upstream_timeout`.
 */
export interface VenuepLiveRouteDeps {
  readonly live: VenuepLive
}

const TAGS = ['venuep']
const WALLET_PATTERN = '^0x[0-9a-fA-F]{40}$'
const CONDITION_PATTERN = '^0x[0-9a-fA-F]{64}$'
const TOKEN_PATTERN = '^[0-9]{1,100}$'
const MAX_UNIX_SEC = 253_402_300_799

/** How an event slug names one market, in the descriptions of the endpoints about one market. */
const LEADING =
  "An event, group or alias slug (e.g. a multi-outcome `market_slug` of /venuep/markets) names the event's leading market: the child market whose YES outcome has the highest probability among its open markets (all of them when none is open), ties by the higher volume, then by the lower token id; the same rule as `leading_outcome` of /events. The response names that market in `market_slug` and the slug asked for in `resolved_from`."

const WalletAddress = Type.String({
  pattern: WALLET_PATTERN,
  description: 'Proxy wallet address: 0x and 40 hex digits (any case).',
})
const Cursor = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 2_000,
    description: 'Opaque cursor from `next_cursor` of the previous page (same filters).',
  }),
)

const UPSTREAM_RESPONSES: Readonly<Record<number, ResponseSpec>> = {
  502: {
    description:
      'The venue failed: `upstream_error` with `upstream` and `upstream_status` (null when unreachable, 200 for an unreadable body).',
    schema: ErrorBody,
  },
  503: {
    description:
      '`upstream_error` with `reason` `circuit_open` or `upstream_rate_limit` and `Retry-After` (the venue was not called), or `not_ready` while the catalog loads.',
    schema: ErrorBody,
    headers: { 'Retry-After': 'Seconds until the venue may be asked again (upstream_error only).' },
  },
  504: { description: 'The venue did not answer in time (`upstream_timeout`).', schema: ErrorBody },
}

const responses = (ok: ResponseSpec): Readonly<Record<number, ResponseSpec>> => ({
  200: ok,
  404: NOT_FOUND_RESPONSE,
  422: VALIDATION_RESPONSE,
  ...UPSTREAM_RESPONSES,
})

/** Neither identifier given: the same 422 entry as a missing required parameter. */
function missing(name: string, msg: string): AppError {
  return invalid('missing', ['query', name], msg, null)
}

export function venuepLiveRoutes(deps: VenuepLiveRouteDeps): AnyRoute[] {
  const { live } = deps

  const orderbook = defineRoute({
    method: 'get',
    path: '/api/v2/venuep/orderbook-history',
    operationId: 'getVenuepOrderbook',
    summary: 'Current order book of a venuep token',
    description:
      'The live book from our stream of the venue when we hold it synced (`source: "live"`, no venue round trip), else the venue\'s REST book (`source: "venue"`, cached up to 1 s). `token_id` overrides `market_slug`; with `market_slug`, `outcome_index` picks the token (0 = first/YES, 1 = second/NO). ' +
      LEADING +
      ' Bids are sorted descending, asks ascending, as decimal strings.',
    tags: TAGS,
    query: Type.Object({
      market_slug: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 300,
          description:
            "Market or event slug, used to look up the token: a binary market's slug, or an event, group or alias slug (its only market, or its leading market; echoed in `resolved_from`).",
        }),
      ),
      token_id: Type.Optional(
        Type.String({ pattern: TOKEN_PATTERN, description: 'CLOB token id (decimal integer); overrides market_slug.' }),
      ),
      outcome_index: Type.Integer({
        minimum: 0,
        maximum: 1,
        default: 0,
        description: '0 = first/YES token, 1 = second/NO token.',
      }),
    }),
    responses: responses({ description: 'The order book.', schema: OrderBookSchema }),
    handler: ({ query: q }) => {
      if (q.token_id === undefined && q.market_slug === undefined)
        throw missing('market_slug', 'Field required: give market_slug or token_id')
      const r = live.orderBook(q)
      return r instanceof Promise ? r.then((b) => json(200, b)) : json(200, r)
    },
  })

  const orders = defineRoute({
    method: 'get',
    path: '/api/v2/venuep/orders',
    operationId: 'listVenuepOrders',
    summary: 'Trade history of a venuep market',
    description:
      "Trades (taker prints) from the venue's Data API, newest first. `condition_id` overrides `market_slug`; an event, group or alias slug lists the trades of all its markets merged by time (one venue call per page; `condition_ids` names them, `resolved_from` echoes the slug). Paging: pass `next_cursor` back as `cursor` with the same filters (another filter with a cursor is a 422); `next_cursor: null` is the end. Pages are anchored on time, so trades arriving while a client pages do not shift or repeat rows (new trades appear at the head). The newest page is cached 2 s.",
    tags: TAGS,
    query: Type.Object({
      market_slug: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 300,
          description:
            "Market or event slug: a binary market's slug lists its trades; an event, group or alias slug lists the trades of all its markets.",
        }),
      ),
      condition_id: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 100,
          description: 'Condition id (or a token id of the market); overrides market_slug.',
        }),
      ),
      limit: Limit(50, 500),
      cursor: Cursor,
    }),
    responses: responses({ description: 'A page of trades.', schema: OrdersSchema }),
    handler: ({ query: q }) => {
      if (q.condition_id === undefined && q.market_slug === undefined)
        throw missing('market_slug', 'Field required: give market_slug or condition_id')
      return live.orders(q).then((b) => json(200, b))
    },
  })

  const activity = defineRoute({
    method: 'get',
    path: '/api/v2/venuep/activity',
    operationId: 'listVenuepActivity',
    summary: 'Activity of a venuep wallet',
    description:
      "Trades, splits, merges, redeems (and other venue activity types) of a proxy wallet, newest first, from the venue's Data API; `market` restricts to one condition id. Cursors as for /orders. A wallet the venue knows nothing about is a 404.",
    tags: TAGS,
    query: Type.Object({
      wallet_address: WalletAddress,
      market: Type.Optional(
        Type.String({ pattern: CONDITION_PATTERN, description: 'Condition id filter: 0x and 64 hex digits.' }),
      ),
      limit: Limit(100, 500),
      cursor: Cursor,
    }),
    responses: responses({ description: 'A page of activity.', schema: ActivitySchema }),
    handler: ({ query: q }) => live.activity(q).then((b) => json(200, b)),
  })

  const candles = defineRoute({
    method: 'get',
    path: '/api/v2/venuep/candlesticks',
    operationId: 'getVenuepCandlesticks',
    summary: 'Price history (candlesticks) of a venuep market',
    description:
      "The venue's price history, one point per candle of `fidelity` minutes (`t` = candle open, Unix seconds; `p` = probability). Precedence: `token_id` > `condition_id` > `market_slug`; a condition id or slug gives the first (YES) token. " +
      LEADING +
      ' `start_ts`/`end_ts` are inclusive and optional (from the first point / to now). Windows that ended 5 min ago or more are cached 24 h, windows reaching now 30 s.',
    tags: TAGS,
    query: Type.Object({
      market_slug: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 300,
          description:
            "Market or event slug: a binary market's slug, or an event, group or alias slug (its only market, or its leading market; echoed in `resolved_from`). Needed unless condition_id or token_id is given.",
        }),
      ),
      condition_id: Type.Optional(
        Type.String({ minLength: 1, maxLength: 100, description: 'Condition id; overrides market_slug.' }),
      ),
      token_id: Type.Optional(
        Type.String({
          pattern: TOKEN_PATTERN,
          description: 'CLOB token id (decimal integer); overrides market_slug and condition_id.',
        }),
      ),
      fidelity: Type.Integer({
        minimum: 1,
        maximum: 43_200,
        default: 60,
        description: 'Candle width in minutes (1, 5, 60, 1440 are common).',
      }),
      start_ts: Type.Optional(
        Type.Integer({ minimum: 0, maximum: MAX_UNIX_SEC, description: 'Unix seconds, inclusive.' }),
      ),
      end_ts: Type.Optional(
        Type.Integer({ minimum: 0, maximum: MAX_UNIX_SEC, description: 'Unix seconds, inclusive.' }),
      ),
    }),
    responses: responses({ description: 'The series.', schema: CandlesSchema }),
    handler: ({ query: q }, ctx) => {
      if (q.token_id === undefined && q.condition_id === undefined && q.market_slug === undefined) {
        throw missing('market_slug', 'Field required: give market_slug, condition_id or token_id')
      }
      const body = live.candlesticks(q, ctx.query)
      return body instanceof Promise ? body.then((b) => ({ status: 200, body: b })) : { status: 200, body }
    },
  })

  const positions = defineRoute({
    method: 'get',
    path: '/api/v2/venuep/positions/wallet/:wallet_address',
    operationId: 'getVenuepWalletPositions',
    summary: 'Open positions of a venuep wallet',
    description:
      "Open positions from the venue's Data API at or above `size_threshold` shares, largest current value first (cached 5 s). `cash_pnl` is unrealized.",
    tags: TAGS,
    params: Type.Object({ wallet_address: WalletAddress }),
    query: Type.Object({
      size_threshold: Type.Number({ minimum: 0, default: 0.01, description: 'Minimum position size in shares.' }),
    }),
    responses: responses({ description: 'Open positions.', schema: PositionsSchema }),
    handler: ({ params, query }) =>
      live.positions(params.wallet_address, query.size_threshold).then((b) => json(200, b)),
  })

  const wallet = defineRoute({
    method: 'get',
    path: '/api/v2/venuep/wallet/:wallet_address',
    operationId: 'getVenuepWallet',
    summary: 'Profile of a venuep wallet',
    description:
      "The venue's public profile and portfolio value, with figures computed from the wallet's complete TRADE/SPLIT/MERGE/REDEEM activity: traded volume (USDC), trades, markets traded, first and last activity. Activity is at most 10 s old (`as_of`).",
    tags: TAGS,
    params: Type.Object({ wallet_address: WalletAddress }),
    responses: responses({ description: 'The wallet.', schema: WalletSchema }),
    handler: ({ params }) => live.wallet(params.wallet_address).then((b) => json(200, b)),
  })

  const pnl = defineRoute({
    method: 'get',
    path: '/api/v2/venuep/wallet/:wallet_address/pnl',
    operationId: 'getVenuepWalletPnl',
    summary: 'Realized profit and loss of a venuep wallet',
    description: [
      "Realized PnL in USDC computed from the wallet's complete activity, oldest first, at average cost per token:",
      'a BUY adds shares at its price; a SELL realizes (price − average cost) × size;',
      'a SPLIT of x creates x shares of each token at 0.5; a MERGE of x sells x shares of each token at 0.5;',
      'a REDEEM realizes its payout minus the remaining cost of both tokens and closes them.',
      'Fees, rewards and rebates are not included. Total, per market, and a cumulative series (one point per second in which it changed).',
      'Activity is at most 10 s old (`as_of`).',
    ].join(' '),
    tags: TAGS,
    params: Type.Object({ wallet_address: WalletAddress }),
    responses: responses({ description: 'Realized PnL.', schema: PnlSchema }),
    handler: ({ params }) => live.pnl(params.wallet_address).then((b) => json(200, b)),
  })

  return [orderbook, orders, activity, candles, positions, wallet, pnl]
}
