/**
 * How long each upstream answer may be served from the cache. History that can no longer change is kept
 * long; anything that reflects the live market is kept only as long as a client would accept a slightly old
 * answer instead of paying a venue round trip.
 *
 * | resource (venue call)                                   | TTL     | why                                                     |
 * |---------------------------------------------------------|---------|---------------------------------------------------------|
 * | CLOB `/book` (fallback when we hold no live book)        | 1 s     | the book moves every second; the live path is preferred |
 * | CLOB `/prices-history`, window ended ≥ 5 min ago         | 24 h    | closed candles do not change                            |
 * | CLOB `/prices-history`, window reaching now              | 30 s    | only the newest candle moves                            |
 * | Data `/trades`, newest page (no anchor)                  | 2 s     | new trades arrive all the time                          |
 * | Data `/activity`, newest page (no anchor)                | 3 s     | a wallet acts far less often than a market trades       |
 * | Data `/trades`, `/activity` page anchored ≥ 60 s ago     | 5 min   | settled history; 5 min bounds late indexing at the venue |
 * | Data `/trades`, `/activity` page anchored in the last 60 s | 2 s   | the anchor second may still gain rows                   |
 * | Data `/positions`                                        | 5 s     | sizes change with every fill; values with every quote   |
 * | Data `/value`                                            | 10 s    | a derived total; clients poll it                        |
 * | Gamma `/public-profile` (found)                          | 5 min   | names and images change rarely                          |
 * | Gamma `/public-profile` (404)                            | 1 min   | negative answer; a new wallet appears soon enough       |
 * | a wallet's complete activity (PnL, metrics)              | 10 s    | refreshed incrementally: only the tail is fetched again |
 */
export const TTL = {
  bookMs: 1_000,
  historyClosedMs: 86_400_000,
  historyOpenMs: 30_000,
  /** A history window whose end is at least this far in the past is closed. */
  historySettledAfterSec: 300,
  tradesHeadMs: 2_000,
  activityHeadMs: 3_000,
  pageSettledMs: 300_000,
  pageRecentMs: 2_000,
  /** An anchored page whose anchor second is at least this far in the past is settled. */
  pageSettledAfterSec: 60,
  positionsMs: 5_000,
  valueMs: 10_000,
  profileMs: 300_000,
  profileMissingMs: 60_000,
  walletHistoryMs: 10_000,
} as const
