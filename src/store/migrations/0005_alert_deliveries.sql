-- Alert evaluation state, firings and the delivery outbox (issue 5).
--
-- A firing is written in ONE transaction with the state transition that caused it (alert_pair_state), the rule's
-- cooldown (alert_rule_cooldowns) and its outbox row (alert_deliveries, unique dedupe_key), so a restart neither
-- loses nor repeats a delivery, and two replicas evaluating the same change deliver once. Delivery workers claim
-- outbox rows with FOR UPDATE SKIP LOCKED and a lease. Every time written here comes from the service's clock.

-- Webhook deliveries are signed with HMAC-SHA256 under a per-rule secret (shown once, at creation). Rules that
-- already exist get one here: gen_random_uuid() is the strong random source core Postgres and PGlite both have
-- (two of them: 244 random bits).
ALTER TABLE alert_rules ADD COLUMN signing_secret text;
UPDATE alert_rules
   SET signing_secret = 'whsec_' || replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')
 WHERE channel = 'webhook';
ALTER TABLE alert_rules ADD CONSTRAINT alert_rules_webhook_secret CHECK (channel <> 'webhook' OR signing_secret IS NOT NULL);

-- Per (rule, pair) state of the trigger's state machine, so a restart resumes instead of re-firing. No row means
-- the trigger's initial state (armed for spread_threshold and new_pair, disarmed for spread_collapse).
CREATE TABLE alert_pair_state (
  rule_id        uuid NOT NULL REFERENCES alert_rules (id) ON DELETE CASCADE,
  -- The spread pair key (`event_slug|outcome_key`), as in spread records.
  pair_key       text NOT NULL CHECK (char_length(pair_key) BETWEEN 1 AND 1000),
  armed          boolean NOT NULL,
  -- Firings of this rule for this pair so far; the dedupe key of the next one is `rule:pair:episode+1`.
  episode        integer NOT NULL DEFAULT 0 CHECK (episode >= 0),
  -- spread_expansion: the spread at the last firing (the baseline starts again from there).
  baseline       double precision,
  last_fired_at  timestamptz,
  updated_at     timestamptz NOT NULL,
  PRIMARY KEY (rule_id, pair_key)
);

-- The cooldown is per rule ("least time between two deliveries of this rule"): one row per rule that has fired.
CREATE TABLE alert_rule_cooldowns (
  rule_id        uuid PRIMARY KEY REFERENCES alert_rules (id) ON DELETE CASCADE,
  last_fired_at  timestamptz NOT NULL
);

-- When the deployment first saw each pair priced on both venues (new_pair triggers). Never shrinks; one row per
-- matched pair ever, a few thousand.
CREATE TABLE alert_seen_pairs (
  pair_key       text PRIMARY KEY CHECK (char_length(pair_key) BETWEEN 1 AND 1000),
  first_seen_at  timestamptz NOT NULL
);

-- The outbox: one row per firing (or test), delivered at least once by a worker holding its lease.
CREATE TABLE alert_deliveries (
  id               uuid PRIMARY KEY,
  -- Creation order (the log lists newest first): timestamps can tie.
  seq              bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  rule_id          uuid NOT NULL REFERENCES alert_rules (id) ON DELETE CASCADE,
  pair_key         text,
  -- `rule:pair:episode` for firings, `test:<delivery id>` for test deliveries.
  dedupe_key       text NOT NULL UNIQUE,
  test             boolean NOT NULL,
  channel          text NOT NULL CHECK (channel IN ('email', 'webhook')),
  target           text NOT NULL,
  -- `json`, not `jsonb`: it keeps the key order, so the body a receiver sees reads like the API's records.
  payload          json NOT NULL,
  status           text NOT NULL CHECK (status IN ('pending', 'sending', 'delivered', 'failed')),
  attempts         integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at  timestamptz NOT NULL,
  -- Held while `sending`: a crashed worker's row is claimed again once its lease has passed.
  lease_until      timestamptz,
  lease_token      uuid,
  last_error       text,
  -- HTTP status of the last webhook attempt (null for e-mail and for attempts that got no response).
  response_status  integer,
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL,
  delivered_at     timestamptz,
  CHECK ((status = 'sending') = (lease_until IS NOT NULL AND lease_token IS NOT NULL))
);

-- Workers look for due rows and for expired leases; only those rows are indexed.
CREATE INDEX alert_deliveries_due_idx ON alert_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX alert_deliveries_lease_idx ON alert_deliveries (lease_until) WHERE status = 'sending';
-- The delivery log of a rule, newest first.
CREATE INDEX alert_deliveries_rule_idx ON alert_deliveries (rule_id, seq);
