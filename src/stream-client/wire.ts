import type {
  DataFrame,
  MarkerPayload,
  Rejection,
  StreamErrorCode,
  StreamLimits,
  VenueFeedState,
} from '../stream/protocol.js'

/**
 * The frames a server sends, as the client sees them (../stream/protocol.ts has the names; this file adds the
 * non-data frames of "Contract details"). Parsing is deliberately shallow: the client checks what it acts on
 * (`type`, `id`, `ch`, `key`, `seq`) and hands the rest through typed, so a field the server adds later does not
 * break it.
 */
export interface WelcomeFrame {
  readonly type: 'welcome'
  readonly limits: StreamLimits
}

export interface AckFrame {
  readonly type: 'ack'
  readonly id: number | string
  readonly sid?: string
  readonly accepted?: readonly string[]
  readonly rejected?: readonly Rejection[]
  readonly recovered?: boolean
  /** Unsubscribe acks: the last seq per stream of the subscription. */
  readonly last_seq?: Readonly<Record<string, number>>
  /** `list` acks: the connection's subscriptions (shape left to the server). */
  readonly subscriptions?: unknown
}

export interface ErrorFrame {
  readonly type: 'error'
  readonly id?: number | string | null
  readonly code: StreamErrorCode
  readonly message: string
}

export interface PongFrame {
  readonly type: 'pong'
  readonly id?: number | string
}

export interface VenueHeartbeat {
  readonly state: VenueFeedState
  /** Time since the feed's last frame; null before its first. */
  readonly age_ms: number | null
}

export interface HeartbeatFrame {
  readonly type: 'hb'
  readonly n: number
  readonly ts: number
  readonly venues: Readonly<Record<string, VenueHeartbeat>>
}

export interface ByeFrame {
  readonly type: 'bye'
  readonly reconnect_after_ms: number
}

/** `snapshots_done`: a marker of a subscription, not of a stream (no key, no seq). */
export interface SnapshotsDoneFrame {
  readonly type: 'marker'
  readonly ch: string
  readonly key: null
  readonly seq: null
  readonly sid: string
  readonly d: { readonly ev: 'snapshots_done' }
}

export type MarkerFrame = DataFrame<MarkerPayload>

export type ServerFrame =
  WelcomeFrame | AckFrame | ErrorFrame | PongFrame | HeartbeatFrame | ByeFrame | SnapshotsDoneFrame | DataFrame

/** One text frame as a server frame, or undefined when it is not JSON with a known `type`. */
export function parseServerFrame(text: string): ServerFrame | undefined {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
  const type = (value as { type?: unknown }).type
  return typeof type === 'string' && KNOWN_TYPES.has(type) ? (value as ServerFrame) : undefined
}

const KNOWN_TYPES = new Set(['welcome', 'ack', 'error', 'pong', 'hb', 'bye', 'snapshot', 'delta', 'marker'])

export function isSnapshotsDone(frame: ServerFrame): frame is SnapshotsDoneFrame {
  return frame.type === 'marker' && (frame.d as { ev?: unknown } | undefined)?.ev === 'snapshots_done'
}

/** Data, and markers that belong to a stream: they carry a string key and a numeric seq. */
export function isStreamFrame(frame: ServerFrame): frame is DataFrame {
  if (frame.type !== 'snapshot' && frame.type !== 'delta' && frame.type !== 'marker') return false
  const f = frame as Partial<DataFrame>
  return typeof f.key === 'string' && typeof f.seq === 'number' && typeof f.epoch === 'string'
}
