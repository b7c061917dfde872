-- Request counts per API key and minute (issue 4). Replicas count in memory and add their counts here in
-- batches (never one write per request); GET /api/v2/developers/usage sums them.

CREATE TABLE api_key_usage (
  key_id        uuid NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
  minute        timestamptz NOT NULL,
  requests      integer NOT NULL DEFAULT 0 CHECK (requests >= 0),
  rate_limited  integer NOT NULL DEFAULT 0 CHECK (rate_limited >= 0),
  PRIMARY KEY (key_id, minute)
);

CREATE INDEX api_key_usage_minute_idx ON api_key_usage (minute);
