-- Spread history (issue 5): sampled spread points per matched outcome pair, read by GET /api/v2/spreads/history.
--
-- Sampling (src/spreads/history-sampler.ts): a point when a pair's spread moves by at least
-- `spreads.history.minChangeBps`, when platform_a flips, or when a smaller move has waited `heartbeatMs`; at most one
-- per pair per `minIntervalMs`, the latest value written when the window opens. Points are written in batches, off
-- the spread engine's hot path.
--
-- Two tables, written together by one statement per batch (src/store/spread-history-repo.ts):
--   spread_history        the raw sampled points, kept `spreads.history.retentionDays` (default 35: the `1m` range
--                         reads 30 days plus its first bucket). Serves `1d` (5-minute buckets), `1w` (30-minute)
--                         and `1m` (2-hour).
--   spread_history_daily  per pair and UTC day, the day's last point (its close). Upserted in the same statement as
--                         the raw points, so it never lags them and needs no separate rollup job. Kept
--                         indefinitely (one row per pair and day, ~150 bytes with its index) and serves `all`
--                         (1-day buckets), including days whose raw points are gone.
--
-- Retention (src/spreads/history-retention.ts): hourly, each replica deletes raw points older than the retention in
-- bounded batches (`retentionBatchSize` rows per statement, at most `retentionMaxBatches` statements per run),
-- never one giant DELETE that would hold its locks and write its WAL all at once. Batches pick their rows with
-- SKIP LOCKED, so replicas running the job at the same time do not queue behind each other.
--
-- Timestamps are the service clock when the spread took the value (UTC, millisecond precision).

CREATE TABLE spread_history (
  event_slug   text NOT NULL,
  outcome_key  text NOT NULL,
  ts           timestamptz NOT NULL,
  -- (price_b − price_a) × 10,000; stored as the spread engine computed it.
  spread_bps   double precision NOT NULL CHECK (spread_bps >= 0),
  -- price_a is the lower price (on platform_a), price_b the higher, as in the spread records (spec 2.7).
  price_a      double precision NOT NULL CHECK (price_a BETWEEN 0 AND 1),
  price_b      double precision NOT NULL CHECK (price_b BETWEEN price_a AND 1),
  platform_a   text NOT NULL CHECK (platform_a IN ('venuep', 'venuek')),
  -- Range reads (one pair, ts from a bound) walk this index in order. The same pair and instant twice is one point,
  -- the later write winning (replicas sharing the database may sample the same change).
  PRIMARY KEY (event_slug, outcome_key, ts)
);

-- Retention finds old rows by time alone. Rows arrive in nearly time order, so a BRIN index (a few pages for
-- millions of rows, almost free to maintain) narrows the scan to the oldest pages; a B-tree on ts would add a second
-- full index to every point written.
CREATE INDEX spread_history_ts_brin ON spread_history USING brin (ts);

CREATE TABLE spread_history_daily (
  event_slug   text NOT NULL,
  outcome_key  text NOT NULL,
  -- Start of the UTC day.
  day          timestamptz NOT NULL,
  -- The time of the day's last point: a later point replaces the row, an older one (a retried batch) does not.
  ts           timestamptz NOT NULL,
  spread_bps   double precision NOT NULL CHECK (spread_bps >= 0),
  price_a      double precision NOT NULL CHECK (price_a BETWEEN 0 AND 1),
  price_b      double precision NOT NULL CHECK (price_b BETWEEN price_a AND 1),
  platform_a   text NOT NULL CHECK (platform_a IN ('venuep', 'venuek')),
  PRIMARY KEY (event_slug, outcome_key, day),
  CHECK (ts >= day AND ts < day + interval '1 day')
);
