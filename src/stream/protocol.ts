/**
 * The streaming protocol's vocabulary (../shared/STREAMING.md, "The protocol" and "Contract details"): channel
 * names, frame shapes, command shapes, error and close codes. Names here are the wire names; clients, the AsyncAPI
 * document and the tests are written against them, so they change only with the contract.
 */

export const CHANNELS = ['quote', 'book', 'spread', 'spreads.top', 'alerts', 'venue'] as const
export type Channel = (typeof CHANNELS)[number]

export function isChannel(ch: unknown): ch is Channel {
  return typeof ch === 'string' && (CHANNELS as readonly string[]).includes(ch)
}

/** Book depths a client may ask for; a book stream is (key, depth). */
export const BOOK_DEPTHS = [10, 25, 100] as const
export type BookDepth = (typeof BOOK_DEPTHS)[number]
export const DEFAULT_BOOK_DEPTH: BookDepth = 10

export const ERROR_CODES = [
  'AUTH_FAILED',
  'UNKNOWN_CHANNEL',
  'UNKNOWN_KEY',
  'BAD_REQUEST',
  'RATE_LIMITED',
  'SUBSCRIPTION_LIMIT',
  'CONNECTION_LIMIT',
  'RESUME_EXPIRED',
  'SLOW_CONSUMER',
] as const
export type StreamErrorCode = (typeof ERROR_CODES)[number]

/** Close codes: reconnecting is allowed after 1001, 4008 and 4029; 4400, 4401 and 4403 are terminal. */
export const CLOSE = {
  goingAway: 1001,
  slowConsumer: 4008,
  rateLimited: 4029,
  badRequest: 4400,
  authFailed: 4401,
  forbidden: 4403,
} as const

/** `type` of data and marker frames. */
export type DataFrameType = 'snapshot' | 'delta' | 'marker'

/** Every data and marker frame (the envelope). `d` is the channel's payload. */
export interface DataFrame<D = unknown> {
  readonly type: DataFrameType
  readonly ch: Channel
  readonly key: string
  /** Stream generation: a resume token from another epoch is outside the window. */
  readonly epoch: string
  /** +1 per delta or marker of the stream; a snapshot carries the seq of the last change it includes. */
  readonly seq: number
  /** Venue time (ms), or our time for state we derive (spreads, the top list). */
  readonly ts: number
  /** When we received what the frame reflects (ms). */
  readonly lts: number
  /** When this frame was published (ms). */
  readonly pts: number
  readonly d: D
}

/** Continuity markers (`type: "marker"`), in-stream and seq-bearing. */
export type MarkerPayload =
  | { readonly ev: 'venue_disconnect'; readonly venue: string; readonly reason: string; readonly since: number }
  | { readonly ev: 'resync'; readonly reason: string; readonly snapshot_follows: true }

/** Limits stated in `welcome` and enforced by the server. */
export interface StreamLimits {
  readonly connections_per_key: number
  readonly keys_per_connection: number
  readonly commands_per_second: number
  readonly max_lifetime_s: number
  readonly max_frame_bytes: number
}

export interface Rejection {
  readonly key: string
  readonly code: StreamErrorCode
  readonly reason: string
}

/** Client → server commands. Each carries an `id` echoed by its `ack` or `error`. */
export type Command =
  | { readonly op: 'auth'; readonly id?: number | string; readonly key: string }
  | {
      readonly op: 'subscribe'
      readonly id?: number | string
      readonly ch: string
      readonly keys: readonly string[]
      readonly depth?: number
      readonly resume?: Readonly<Record<string, { readonly epoch: string; readonly seq: number }>>
    }
  | {
      readonly op: 'update'
      readonly id?: number | string
      readonly sid: string
      readonly add?: readonly string[]
      readonly remove?: readonly string[]
    }
  | { readonly op: 'snapshot'; readonly id?: number | string; readonly ch: string; readonly keys: readonly string[] }
  | { readonly op: 'unsubscribe'; readonly id?: number | string; readonly sid: string }
  | { readonly op: 'list'; readonly id?: number | string }
  | { readonly op: 'ping'; readonly id?: number | string }

/** Venue feed state as the `venue` channel and `hb` show it. */
export type VenueFeedState = 'up' | 'degraded' | 'down'
