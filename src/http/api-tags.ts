/**
 * The OpenAPI document's tags, one per area of the API, with the sentence a reader of the reference needs to
 * pick the right one. Every tag a route uses must be described here (the OpenAPI lint test fails otherwise); each
 * venue's own tag comes with its module (src/venues/<venue>/module.ts `openApiTag`).
 */
export const API_TAGS: Readonly<Record<string, string>> = {
  operations: 'Liveness, readiness (with where the data comes from: simulated or live venues) and Prometheus metrics.',
  events: 'Events collapsed across venues (one row per service event), event detail by slug, and the sitemap list.',
  spreads:
    "Cross-venue price gaps for the same outcome: the scanner, the top list by confidence, and a pair's history.",
  developers: 'Developer accounts and API keys: public signup, more keys, revocation and usage.',
  alerts:
    'Alert rules per end user (`X-User-Id`) that turn spread signals into webhook or e-mail deliveries, and their delivery log.',
  meta: 'This API description (OpenAPI 3.1) and its readable page.',
}
