import { Type } from '@sinclair/typebox'

/** Pieces of the venues' config sections (src/venues/<venue>/config.ts), as src/config/schema.ts spells its own. */
export const Url = Type.String({ minLength: 1 })
export const Ms = (def: number, min = 0) => Type.Integer({ minimum: min, default: def })

/** Connection lifecycle settings shared by the venues' feeds (spread into each feed's schema). */
export const feedReconnect = {
  /** First reconnect delay; doubles per attempt (full jitter) up to reconnectMaxMs. */
  reconnectBaseMs: Ms(500, 10),
  reconnectMaxMs: Ms(30_000, 100),
  /** A socket that delivers nothing (data, PONG, heartbeat) for this long is declared stale and replaced. */
  staleAfterMs: Ms(30_000, 100),
  connectTimeoutMs: Ms(10_000, 100),
  /**
   * A subscription must be acknowledged, and every subscribed book must get its snapshot, within this long;
   * otherwise the feed resubscribes (a venue that swallowed the command would leave the book dead forever).
   */
  snapshotTimeoutMs: Ms(15_000, 100),
}

