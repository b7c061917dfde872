-- Developer accounts and their API keys (issue 4).
-- Keys are stored only as SHA-256 hashes (hex) plus a short display prefix; the full key is never stored.

CREATE TABLE accounts (
  id          uuid PRIMARY KEY,
  email       text NOT NULL CHECK (char_length(email) BETWEEN 3 AND 254),
  company     text NOT NULL CHECK (char_length(company) BETWEEN 1 AND 200),
  use_case    text NOT NULL CHECK (char_length(use_case) BETWEEN 1 AND 2000),
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);

-- One account per e-mail address, compared case-insensitively; also the ON CONFLICT target of signup.
CREATE UNIQUE INDEX accounts_email_lower_key ON accounts (lower(email));

CREATE TABLE api_keys (
  id          uuid PRIMARY KEY,
  -- Creation order (listings): timestamps can tie.
  seq         bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  account_id  uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  name        text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
  key_hash    text NOT NULL UNIQUE CHECK (key_hash ~ '^[0-9a-f]{64}$'),
  key_prefix  text NOT NULL CHECK (char_length(key_prefix) BETWEEN 1 AND 40),
  created_at  timestamptz NOT NULL DEFAULT now(),
  revoked_at  timestamptz
);

CREATE INDEX api_keys_account_idx ON api_keys (account_id, seq);
-- Replicas poll recent revocations to evict cached keys; only revoked rows are indexed.
CREATE INDEX api_keys_revoked_at_idx ON api_keys (revoked_at) WHERE revoked_at IS NOT NULL;
