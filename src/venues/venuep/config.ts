import { Type, type Static } from '@sinclair/typebox'
import { feedReconnect, maxEventsGuard, Ms, staleAfterMs, Url } from '../config-parts.js'

/** venuep's config section (`venues.venuep`): its four hosts, catalog paging and feed limits. */
export const VenuepConfigSchema = Type.Object(
  {
    gammaUrl: Url,
    clobUrl: Url,
    clobWsUrl: Url,
    dataUrl: Url,
    /** Public link to an event page; `{slug}` is replaced. In sim mode it points at the simulator. */
    eventUrlTemplate: Type.String({ default: 'https://polymarket.com/event/{slug}' }),
    catalog: Type.Object(
      {
        /** Gamma page size (the venue documents no maximum; 100 keeps responses small). */
        pageSize: Type.Integer({ minimum: 1, maximum: 500, default: 100 }),
        refreshMs: Ms(60_000, 1_000),
        /**
         * How often a refresh lists the venue whole (0: every refresh). The refreshes between ask only for new events
         * and for installed events whose markets end about now (catalog-changes.ts): Gamma cannot list changes by
         * update stamp, and a whole listing of ~50,000 markets is the largest steady cost at the venue's real size.
         * The whole listing is the reconciliation: volumes, markets added to an event, early resolutions and edits
         * are caught up at it.
         */
        fullListingEveryMs: Ms(600_000, 0),
        /** Closed events are synced only if they ended within this many days (the live venue has ~100k). */
        closedLookbackDays: Type.Integer({ minimum: 0, default: 30 }),
        /** The guard of config-parts.ts; the real catalog is about 50,000 active markets, in fewer events. */
        maxEvents: maxEventsGuard,
      },
      { additionalProperties: false },
    ),
    feed: Type.Object(
      {
        ...feedReconnect,
        /** The venue stops updating assets past ~500 per connection (venuep.md §3.1.4); stay below it. */
        maxAssetsPerConnection: Type.Integer({ minimum: 1, maximum: 500, default: 450 }),
        /** Large subscribe frames make the venue close the socket; chunk at ~100 ids per frame. */
        maxIdsPerFrame: Type.Integer({ minimum: 1, maximum: 500, default: 100 }),
        /**
         * Handshakes in flight at once across the feed's sockets (src/venues/connect-gate.ts): opening many at once
         * meets 429s (venuep.md §3.1.4). 8 opens the real size's ~225 sockets in about 30 round trips.
         */
        maxConnectsInFlight: Type.Integer({ minimum: 1, maximum: 1_000, default: 8 }),
        /**
         * The venue expects a text PING about every 10 s and answers each with PONG (venuep.md §3.1.3); we send one
         * every 5 s. A quiet market sends nothing else: no heartbeat, no book change for minutes, so the PONG is the
         * only traffic a healthy socket is sure to carry.
         */
        pingIntervalMs: Ms(5_000, 100),
        /**
         * 10 s: a healthy socket, however quiet, answers a PING every 5 s, and a missed PONG is followed by a PING
         * every second (`probeReplyMs`); 10 s of silence is a whole ping interval plus about five unanswered probes.
         * A busy socket (price changes many times a second) never comes near it. Shorter would flag a healthy quiet
         * socket whose PONG was a little late; longer only serves stale books as fresh for longer.
         */
        staleAfterMs: staleAfterMs(10_000),
      },
      { additionalProperties: false },
    ),
    httpTimeoutMs: Ms(10_000, 100),
  },
  { additionalProperties: false },
)

export type VenuepConfig = Static<typeof VenuepConfigSchema>
