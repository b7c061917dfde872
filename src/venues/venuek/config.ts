import { Type, type Static } from '@sinclair/typebox'
import { feedReconnect, maxEventsGuard, Ms, staleAfterMs, Url } from '../config-parts.js'

/** venuek's config section (`venues.venuek`): REST and websocket endpoints, the API key, catalog paging and feed limits. */
export const VenuekConfigSchema = Type.Object(
  {
    restUrl: Url,
    wsUrl: Url,
    /** Public link to an event page; `{event_ticker}` is replaced. In sim mode it points at the simulator. */
    eventUrlTemplate: Type.String({ default: 'https://kalshi.com/markets/{event_ticker}' }),
    /** API key id (UUID) for signed requests; required by the live WebSocket. */
    apiKeyId: Type.Optional(Type.String({ minLength: 1 })),
    /** Path to the RSA private key (PEM) matching apiKeyId. */
    privateKeyPath: Type.Optional(Type.String({ minLength: 1 })),
    catalog: Type.Object(
      {
        /** /events allows at most 200 per page. */
        pageSize: Type.Integer({ minimum: 1, maximum: 200, default: 200 }),
        refreshMs: Ms(60_000, 1_000),
        /**
         * How often a refresh lists the venue whole (0: every refresh). The refreshes between ask only for the events
         * the venue stamps as updated since the last sync (`min_updated_ts`, catalog-changes.ts): a refresh then costs
         * what changed. The whole listing is the reconciliation: what moved without the venue's stamp moving (a
         * market's volume, an event that closed by the clock) and what left the lookback window is caught up at it.
         */
        fullListingEveryMs: Ms(600_000, 0),
        closedLookbackDays: Type.Integer({ minimum: 0, default: 30 }),
        /** The guard of config-parts.ts; the real catalog is well over 100,000 markets, in fewer events. */
        maxEvents: maxEventsGuard,
        /**
         * Catalog requests started per second, the open, closed and settled lists together (they are paged side by
         * side). 20 is the Basic tier's read budget (200 tokens a second at 10 a request, venuek.md §5): the lowest
         * published tier, so a sync never draws 429s from an account's other reads, whatever its tier.
         */
        readsPerSecond: Type.Number({ exclusiveMinimum: 0, maximum: 4_000, default: 20 }),
      },
      { additionalProperties: false },
    ),
    feed: Type.Object(
      {
        ...feedReconnect,
        /**
         * The venue sends a protocol ping (`heartbeat`) about every 10 s, but pauses them on busy connections
         * (venuek.md §6, keep-alive), and has no JSON-level heartbeat; it answers a client's ping with a pong. We ping
         * every 5 s, so a quiet socket carries a pong at least that often whatever the venue's own cadence.
         */
        pingIntervalMs: Ms(5_000, 100),
        /**
         * 10 s: our 5 s pings (then one a second once a pong is missing, `probeReplyMs`) bound the silence of a
         * healthy quiet socket to about 5 s, the venue's own heartbeats add one every ~10 s, and a busy socket
         * (deltas, trades, tickers) is never silent for long. Relying on the venue's heartbeat alone would need 20 s
         * or more (two missed heartbeats), and they pause exactly when data flows.
         */
        staleAfterMs: staleAfterMs(10_000),
        /** Markets per `subscribe` command (one sid each); a sequence gap resyncs one such group. */
        marketsPerSubscription: Type.Integer({ minimum: 1, maximum: 2_000, default: 250 }),
        /**
         * Groups subscribed but still waiting for their snapshots at once. Subscribing everything at once makes the
         * venue queue every snapshot for one socket; past its buffer it drops the subscription (error 25).
         */
        maxSubscriptionsInFlight: Type.Integer({ minimum: 1, maximum: 100, default: 4 }),
      },
      { additionalProperties: false },
    ),
    httpTimeoutMs: Ms(10_000, 100),
  },
  { additionalProperties: false },
)

export type VenuekConfig = Static<typeof VenuekConfigSchema>
