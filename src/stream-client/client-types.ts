import type { Clock } from '../core/clock.js'
import type { DataFrame, MarkerPayload, StreamErrorCode } from '../stream/protocol.js'
import type { BookAssembler } from './book-assembler.js'
import type { ReconnectOptions } from './reconnect-policy.js'
import type { TopListAssembler } from './top-list-assembler.js'
import type { TransportFactory } from './transport.js'
import type {
  AckFrame,
  ByeFrame,
  ErrorFrame,
  HeartbeatFrame,
  ServerFrame,
  SnapshotsDoneFrame,
  WelcomeFrame,
} from './wire.js'

/**
 * The stream client's public vocabulary (stream-client.ts is the client): its options, the events it emits, what it
 * reports of subscriptions and streams, and the errors its promises reject with.
 */
export type AuthMode = 'header' | 'query' | 'frame'

export interface StreamClientOptions {
  readonly url: string
  readonly apiKey: string
  readonly transport: TransportFactory
  /** `header` (X-API-Key, Node only), `query` (`?api_key=`) or `frame` (a first `auth` frame). */
  readonly auth?: AuthMode
  readonly clock?: Clock
  readonly random?: () => number
  readonly reconnect?: Partial<Omit<ReconnectOptions, 'random'>>
  /** No `hb` for this long on an open socket: the feed is presumed dead, reconnect. */
  readonly heartbeatTimeoutMs?: number
  /** A command not answered within this long is rejected (the connection stays). */
  readonly commandTimeoutMs?: number
  /** Delay before asking again for a snapshot the server refused (e.g. RATE_LIMITED). */
  readonly snapshotRetryMs?: number
}

export type ConnectionState = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'closed'

export interface StreamKey {
  readonly ch: string
  readonly key: string
}

export interface StreamClientEvents {
  /** Connection state changes; `code`/`reason` of the close that caused it. */
  state: { readonly state: ConnectionState; readonly code?: number; readonly reason?: string }
  /** Every parsed server frame, before the client acts on it. */
  frame: ServerFrame
  welcome: WelcomeFrame
  snapshot: DataFrame
  delta: DataFrame
  marker: DataFrame<MarkerPayload>
  snapshotsDone: SnapshotsDoneFrame
  hb: HeartbeatFrame
  bye: ByeFrame
  /** An `error` frame that answers no pending command (e.g. AUTH_FAILED before a 4401 close). */
  error: ErrorFrame
  /** A delta or marker that did not continue its stream: a snapshot has been asked for. */
  gap: StreamKey & { readonly held?: { readonly epoch: string; readonly seq: number }; readonly got: DataFrame }
  /** A book or top-list frame whose `crc` disagrees with the assembled state: a snapshot has been asked for. */
  crcMismatch: StreamKey & { readonly expected: number; readonly actual: number }
  /** A book changed (after its checksum was verified). */
  book: { readonly key: string; readonly book: BookAssembler; readonly frame: DataFrame }
  /** The `spreads.top` list changed (after its checksum was verified). */
  top: { readonly key: string; readonly list: TopListAssembler; readonly frame: DataFrame }
  /** A latest-value stream (quote, spread, venue, alerts) got a new value. */
  value: StreamKey & { readonly value: unknown; readonly frame: DataFrame }
  /** A stream became stale (`venue_disconnect`) or fresh again (`resync`). */
  stale: StreamKey & { readonly stale: boolean; readonly marker: MarkerPayload }
  /** The client re-subscribed a held subscription on a new connection. */
  resubscribed: { readonly subscription: Subscription; readonly ack: AckFrame }
  reconnectScheduled: { readonly attempt: number; readonly delayMs: number; readonly code: number }
  /** No `hb` within the timeout: the client drops the socket and reconnects. */
  heartbeatTimeout: { readonly sinceMs: number }
  transportError: Error
}

/** A subscription the client holds and restores after a reconnect; `sid` is the current connection's. */
export interface Subscription {
  readonly ch: string
  readonly keys: ReadonlySet<string>
  readonly depth: number | undefined
  readonly sid: string | undefined
}

export interface SubscribeResult {
  readonly ack: AckFrame
  readonly subscription: Subscription
}

/** An `error` frame answering a command. */
export class StreamCommandError extends Error {
  constructor(
    readonly code: StreamErrorCode | 'DISCONNECTED' | 'TIMEOUT',
    message: string,
  ) {
    super(`${code}: ${message}`)
    this.name = 'StreamCommandError'
  }
}

/** The connection closed with a terminal code (4400, 4401, 4403): the client does not reconnect. */
export class StreamClosedError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
  ) {
    super(`closed ${code}${reason === '' ? '' : ` ${reason}`}`)
    this.name = 'StreamClosedError'
  }
}

/** What the client knows of one stream. */
export interface StreamStatus {
  readonly epoch: string | undefined
  readonly seq: number | undefined
  readonly awaitingSnapshot: boolean
  readonly stale: boolean
}
