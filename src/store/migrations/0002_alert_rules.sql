-- Alert rules (issue 4): created through the API, evaluated and delivered by the spread/alerts side.
-- Every change takes the next `version` (writers serialize on an advisory lock, so versions follow commit
-- order); deletes leave a tombstone (status 'deleted'), so `version > cursor` is a complete change feed.

CREATE SEQUENCE alert_rules_version_seq AS bigint;

CREATE TABLE alert_rules (
  id                uuid PRIMARY KEY,
  -- Creation order (listings): timestamps can tie.
  seq               bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  -- The developer account whose key created the rule; NULL for rules created with AUTH_REQUIRED=false.
  account_id        uuid REFERENCES accounts (id) ON DELETE CASCADE,
  user_id           text NOT NULL CHECK (char_length(user_id) BETWEEN 1 AND 128),
  trigger_type      text NOT NULL CHECK (trigger_type IN ('spread_threshold', 'spread_expansion', 'spread_collapse', 'new_pair')),
  threshold         double precision NOT NULL CHECK (threshold > 0 AND threshold <= 1),
  channel           text NOT NULL CHECK (channel IN ('email', 'webhook')),
  target            text NOT NULL CHECK (char_length(target) BETWEEN 3 AND 2048),
  scope             jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(scope) = 'object'),
  cooldown_seconds  integer NOT NULL CHECK (cooldown_seconds BETWEEN 0 AND 604800),
  status            text NOT NULL CHECK (status IN ('active', 'paused', 'deleted')),
  version           bigint NOT NULL UNIQUE,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  deleted_at        timestamptz
);

CREATE INDEX alert_rules_owner_idx ON alert_rules (user_id, seq) WHERE status <> 'deleted';
CREATE INDEX alert_rules_active_idx ON alert_rules (version) WHERE status = 'active';
