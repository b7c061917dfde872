import { Type } from '@sinclair/typebox'

/** Pieces of the venues' config sections (src/venues/<venue>/config.ts), as src/config/schema.ts spells its own. */
export const Url = Type.String({ minLength: 1 })
export const Ms = (def: number, min = 0) => Type.Integer({ minimum: min, default: def })

/** Connection lifecycle settings shared by the venues' feeds (spread into each feed's schema). */
export const feedReconnect = {
  /** First reconnect delay; doubles per attempt (full jitter) up to reconnectMaxMs. */
  reconnectBaseMs: Ms(500, 10),
  reconnectMaxMs: Ms(30_000, 100),
  /**
   * A probe (the venue's keepalive) unanswered this long makes the feed probe every `probeReplyMs`; a venue that
   * answers only after that was stalled, and the connection is resubscribed on a fresh socket (ws-connection.ts).
   * One second is ten times a slow round trip to either venue: a healthy venue answers far sooner.
   */
  probeReplyMs: Ms(1_000, 10),
  connectTimeoutMs: Ms(10_000, 100),
  /**
   * A subscription must be acknowledged, and every subscribed book must get its snapshot, within this long;
   * otherwise the feed resubscribes (a venue that swallowed the command would leave the book dead forever).
   */
  snapshotTimeoutMs: Ms(15_000, 100),
}

/**
 * `staleAfterMs` (a socket that delivers nothing, data, PONG or heartbeat, for this long is declared stale: its
 * books are marked stale and it is replaced) and `pingIntervalMs` are per venue, chosen from what the venue sends
 * on a quiet socket (venuep/config.ts, venuek/config.ts).
 */
export const staleAfterMs = (def: number) => Ms(def, 100)

/**
 * Guard on the raw events read per catalog sync (the open list, then closed ones in the lookback) against a
 * misbehaving venue that pages forever; not a size limit: it sits far above any real catalog. If it is hit, the sync
 * keeps the first maxEvents events listed and serves them, the venue actor logs an error per catalog version, and
 * /readyz shows `catalog.truncated: true` (`predmkt_catalog_truncated` 1 in /metrics); raise it if the venue's
 * catalog really is that large.
 */
export const maxEventsGuard = Type.Integer({ minimum: 1, default: 1_000_000 })
