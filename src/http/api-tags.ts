/**
 * The OpenAPI document's tags, one per area of the API, with the sentence a reader of the reference needs to
 * pick the right one. Every tag a route uses must be described here (the OpenAPI lint test fails otherwise).
 */
export const API_TAGS: Readonly<Record<string, string>> = {
  operations: 'Liveness, readiness (with where the data comes from: simulated or live venues) and Prometheus metrics.',
  venuep: 'venuep markets, events and prices from the service\'s memory, and venuep live data proxied from the venue (trades, order book, candlesticks, wallets).',
  venuek: 'venuek markets, events and prices (one market per event ticker, one outcome per market ticker), served from memory.',
  events: 'Events collapsed across venues (one row per service event), event detail by slug, and the sitemap list.',
  spreads: 'Cross-venue price gaps for the same outcome: the scanner, the top list by confidence, and a pair\'s history.',
  developers: 'Developer accounts and API keys: public signup, more keys, revocation and usage.',
  alerts: 'Alert rules per end user (`X-User-Id`) that turn spread signals into webhook or e-mail deliveries, and their delivery log.',
  meta: 'This API description (OpenAPI 3.1) and its readable page.',
}
