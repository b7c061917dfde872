import { Type, type TSchema } from '@sinclair/typebox'
import { StringEnum } from '../../../http/schemas/common.js'
import { CENTS, Nullable } from '../../../http/schemas/records.js'

/**
 * Response bodies of venuep's proxied endpoints (spec 4.1; the spec leaves most of them open, 4.6). Shared
 * conventions: snake_case; lists are `{data, count, limit, next_cursor}` with `next_cursor: null` at the end
 * of the data; `timestamp` and `t` are Unix seconds (integers) as the venue reports them; fields ending in
 * `_at` are ISO 8601 UTC without zone suffix; money is USDC as a number, shares are numbers, book levels are
 * decimal strings (spec 2.10). Money we compute (sums, PnL) is rounded to cents; the venue's own figures are passed
 * on as it sent them. Unknown values are null, never a made-up 0.
 */
const Str = (description: string) => Type.String({ description })
const NStr = (description: string) => Nullable(Type.String({ description }))
const Num = (description: string) => Type.Number({ description })
const NNum = (description: string) => Nullable(Type.Number({ description }))
const Int = (description: string) => Type.Integer({ description })
const NInt = (description: string) => Nullable(Type.Integer({ description }))
const At = (description: string) =>
  Nullable(Type.String({ description: `${description} ISO 8601, UTC, without zone suffix.` }))
const Side = Nullable(StringEnum(['BUY', 'SELL'], { description: 'Taker side: BUY bought the token, SELL sold it.' }))
const Obj = <P extends Record<string, TSchema>>(properties: P, description: string) =>
  Type.Object(properties, { additionalProperties: false, description })
const NextCursor = Nullable(
  Type.String({
    description: 'Opaque cursor of the next page; null at the end of the data. Valid only with the same filters.',
  }),
)
const ResolvedFrom = (what: string) =>
  NStr(
    `Addition: the \`market_slug\` the request named when it was an event, group or alias slug rather than a binary market's own slug (${what}); null when it named the market itself, a condition id or a token id.`,
  )

export const BookLevelSchema = Obj(
  { price: Str('Price, decimal string.'), size: Str('Size in shares, decimal string.') },
  'One price level (spec 2.10).',
)

export const OrderBookSchema = Obj(
  {
    market_slug: Str('Slug of the binary market the token belongs to.'),
    resolved_from: ResolvedFrom('resolved to its leading market, whose slug is `market_slug`'),
    token_id: Str('CLOB token id.'),
    condition_id: Str('Addition: condition id of the binary market.'),
    outcome_index: Int('Addition: 0 for the first (YES) token, 1 for the second (NO).'),
    source: StringEnum(['live', 'venue'], {
      description:
        "Addition: `live` from our streamed book (no venue round trip), `venue` from the venue's REST book (cached ≤ 1 s).",
    }),
    book_time: At(
      "Addition: when the book was in this state: the response time for `live`, the venue's stamp for `venue`.",
    ),
    bids: Type.Array(BookLevelSchema, { description: 'Bids, best (highest) first.' }),
    asks: Type.Array(BookLevelSchema, { description: 'Asks, best (lowest) first.' }),
  },
  'Current order book of one token.',
)

export const CandlesSchema = Obj(
  {
    history: Type.Array(
      Obj(
        { t: Int('Candle open time, Unix seconds.'), p: Num('Probability at candle open, 0 to 1.') },
        'Candle point (spec 2.9).',
      ),
    ),
    market_slug: Str('Slug of the binary market.'),
    resolved_from: ResolvedFrom('resolved to its leading market, whose slug is `market_slug`'),
    condition_id: Str('Condition id of the binary market.'),
    token_id: Str('Addition: CLOB token id of the series.'),
    outcome_index: Int('Addition: outcome of the token (0 unless a token_id of outcome 1 was given).'),
    fidelity_minutes: Int('Candle width used, minutes.'),
    start_ts: NInt('Addition: start of the window as asked (Unix seconds), null for "from the first point".'),
    end_ts: NInt('Addition: end of the window as asked (Unix seconds), null for "to now".'),
  },
  'Price history series of one token.',
)

export const OrderRowSchema = Obj(
  {
    transaction_hash: NStr('Transaction hash of the trade.'),
    timestamp: Int('Trade time, Unix seconds.'),
    side: Side,
    price: Num('Price paid per share, 0 to 1.'),
    size: Num('Shares traded.'),
    usdc_size: Num('Notional in USDC (size × price).'),
    token_id: Str('CLOB token id traded.'),
    outcome: NStr('Outcome label of the token.'),
    outcome_index: NInt('Outcome index of the token.'),
    condition_id: Str('Condition id of the binary market.'),
    market_slug: NStr('Slug of the binary market.'),
    title: NStr('Market question.'),
    wallet_address: NStr('Proxy wallet of the taker.'),
    pseudonym: NStr("Taker's venue pseudonym."),
    name: NStr("Taker's venue display name."),
  },
  'One trade (taker print).',
)

export const OrdersSchema = Obj(
  {
    market_slug: Str('The market (a group slug when the trades of several binary markets are listed).'),
    resolved_from: ResolvedFrom('every market of it is listed, see `condition_ids`'),
    condition_ids: Type.Array(Type.String(), { description: 'Condition ids whose trades are listed.' }),
    data: Type.Array(OrderRowSchema, { description: 'Trades, newest first.' }),
    count: Int(
      'Rows in `data` (a page may hold fewer than `limit` rows before the end; only `next_cursor: null` ends the data).',
    ),
    limit: Int('Page size asked for.'),
    next_cursor: NextCursor,
  },
  "A page of a market's trade history.",
)

export const ActivityRowSchema = Obj(
  {
    type: Str('TRADE, SPLIT, MERGE, REDEEM, or another type the venue reports (REWARD, CONVERSION, …).'),
    timestamp: Int('Time, Unix seconds.'),
    transaction_hash: NStr('Transaction hash.'),
    condition_id: Str('Condition id of the binary market.'),
    market_slug: NStr('Slug of the binary market.'),
    event_slug: NStr('Event slug.'),
    title: NStr('Market question.'),
    token_id: NStr('Token traded (TRADE only).'),
    outcome: NStr('Outcome label (TRADE only).'),
    outcome_index: NInt('Outcome index (TRADE only).'),
    side: Side,
    price: NNum('Price per share (TRADE only).'),
    size: Num('Shares (TRADE), shares of each token (SPLIT, MERGE), shares redeemed (REDEEM).'),
    usdc_size: Num('USDC moved.'),
  },
  'One activity row of a wallet.',
)

export const ActivitySchema = Obj(
  {
    wallet_address: Str('Proxy wallet, lower case.'),
    market: NStr('Condition id filter, if given.'),
    data: Type.Array(ActivityRowSchema, { description: 'Activity, newest first.' }),
    count: Int('Rows in `data`.'),
    limit: Int('Page size asked for.'),
    next_cursor: NextCursor,
  },
  "A page of a wallet's activity.",
)

export const PositionRowSchema = Obj(
  {
    token_id: Str('CLOB token id held.'),
    condition_id: Str('Condition id.'),
    market_slug: NStr('Slug of the binary market.'),
    event_slug: NStr('Event slug.'),
    title: NStr('Market question.'),
    outcome: NStr('Outcome label of the token.'),
    outcome_index: NInt('Outcome index of the token.'),
    opposite_outcome: NStr('Label of the other token.'),
    opposite_token_id: NStr('The other token.'),
    size: Num('Shares held.'),
    avg_price: NNum('Average cost per share.'),
    initial_value: NNum('Cost basis, USDC.'),
    current_value: NNum('Shares × current price, USDC.'),
    cash_pnl: NNum('Unrealized PnL, USDC.'),
    percent_pnl: NNum('Unrealized PnL, percent of cost.'),
    total_bought: NNum('Shares ever bought.'),
    realized_pnl: NNum('Realized PnL on this token so far (venue figure).'),
    cur_price: NNum('Current price.'),
    redeemable: Type.Boolean({ description: 'The market resolved: the position can be redeemed.' }),
    mergeable: Type.Boolean({ description: 'The wallet also holds the other token.' }),
    negative_risk: Nullable(Type.Boolean({ description: 'Neg-risk market.' })),
    end_date: NStr('Market end date (YYYY-MM-DD).'),
  },
  'One open position.',
)

export const PositionsSchema = Obj(
  {
    wallet_address: Str('Proxy wallet, lower case.'),
    size_threshold: Num('Minimum size applied, shares.'),
    data: Type.Array(PositionRowSchema, { description: 'Open positions, largest current value first.' }),
    count: Int('Rows in `data`.'),
    total_value: Num(`Sum of \`current_value\`, USDC. ${CENTS}`),
    truncated: Type.Boolean({
      description: 'True when the wallet holds more positions than the venue pages out (10,000).',
    }),
  },
  'Open positions of a wallet.',
)

export const WalletSchema = Obj(
  {
    wallet_address: Str('Proxy wallet, lower case.'),
    name: NStr('Display name.'),
    pseudonym: NStr('Venue pseudonym.'),
    bio: NStr('Profile text.'),
    profile_image: NStr('Profile image URL.'),
    x_username: NStr('X (Twitter) handle.'),
    verified_badge: Nullable(Type.Boolean({ description: 'Verified by the venue.' })),
    created_at: At('Profile creation.'),
    portfolio_value: NNum('Current value of open positions, USDC (venue figure).'),
    volume: Num(`Traded notional, USDC (sum of TRADE rows). ${CENTS}`),
    trades: Int('TRADE rows.'),
    markets_traded: Int('Distinct markets (condition ids) traded.'),
    activity_count: Int('TRADE, SPLIT, MERGE and REDEEM rows.'),
    first_activity_at: At('First activity.'),
    last_activity_at: At('Last activity.'),
    complete: Type.Boolean({
      description:
        'False while the figures cover only part of the history: a long history is read in walks of at most 10 s (ask again to continue), and at most 100,000 rows.',
    }),
    as_of: Str('When the activity figures were read from the venue (ISO 8601, UTC, no zone; at most 10 s old).'),
  },
  "A wallet's profile with value and activity metrics.",
)

export const PnlSchema = Obj(
  {
    wallet_address: Str('Proxy wallet, lower case.'),
    method: StringEnum(['average_cost'], { description: 'Accounting method (see the endpoint description).' }),
    currency: StringEnum(['USDC'], { description: 'Currency of the figures.' }),
    realized_pnl: Num(`Total realized PnL. ${CENTS}`),
    markets: Type.Array(
      Obj(
        {
          condition_id: Str('Condition id.'),
          market_slug: NStr('Slug of the binary market.'),
          event_slug: NStr('Event slug.'),
          title: NStr('Market question.'),
          realized_pnl: Num(`Realized PnL in this market. ${CENTS}`),
          trades: Int('TRADE rows in this market.'),
          volume: Num(`Traded notional in this market, USDC. ${CENTS}`),
          last_activity_at: At('Last activity in this market.'),
        },
        'Realized PnL of one market.',
      ),
      { description: 'Per market, highest realized PnL first.' },
    ),
    series: Type.Array(
      Obj(
        { t: Int('Unix seconds.'), realized_pnl: Num(`Cumulative realized PnL after this second. ${CENTS}`) },
        'One point.',
      ),
      {
        description: 'Cumulative realized PnL, one point per second in which it changed.',
      },
    ),
    activity_count: Int('Activity rows accounted.'),
    skipped_rows: Int('TRADE rows that could not be tied to an outcome (not accounted).'),
    complete: Type.Boolean({
      description:
        'False while the figures cover only part of the history: a long history is read in walks of at most 10 s (ask again to continue), and at most 100,000 rows.',
    }),
    as_of: Str('When the activity was read from the venue (ISO 8601, UTC, no zone; at most 10 s old).'),
  },
  'Realized profit and loss of a wallet.',
)
