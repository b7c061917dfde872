import type { Channel, Rejection, StreamErrorCode, StreamLimits, VenueFeedState } from '../protocol.js'

/**
 * The frames besides data (STREAMING.md, Contract details), serialized in their documented field order. Only the
 * server sends these; data frames come whole from the Sequencer.
 */
export type CommandId = number | string | null

export interface VenueAge {
  readonly state: VenueFeedState
  readonly age_ms: number | null
}

export function welcomeFrame(limits: StreamLimits): string {
  return JSON.stringify({ type: 'welcome', limits })
}

export function errorFrame(id: CommandId, code: StreamErrorCode, message: string): string {
  return JSON.stringify({ type: 'error', id, code, message })
}

export function ackFrame(id: CommandId, fields: Readonly<Record<string, unknown>> = {}): string {
  return JSON.stringify({ type: 'ack', id, ...fields })
}

export interface SubscribeAck {
  readonly sid: string
  readonly accepted: readonly string[]
  readonly rejected: readonly Rejection[]
  readonly recovered: boolean
}

export function subscribeAckFrame(id: CommandId, ack: SubscribeAck): string {
  return ackFrame(id, { sid: ack.sid, accepted: ack.accepted, rejected: ack.rejected, recovered: ack.recovered })
}

export function pongFrame(id: CommandId): string {
  return JSON.stringify({ type: 'pong', id })
}

export function heartbeatFrame(n: number, ts: number, venues: Readonly<Record<string, VenueAge>>): string {
  return JSON.stringify({ type: 'hb', n, ts, venues })
}

export function byeFrame(reconnectAfterMs: number): string {
  return JSON.stringify({ type: 'bye', reconnect_after_ms: reconnectAfterMs })
}

/** Ends a subscription's initial burst: a marker of the subscription, not of a stream (no key, no seq). */
export function snapshotsDoneFrame(ch: Channel, sid: string): string {
  return JSON.stringify({ type: 'marker', ch, key: null, seq: null, sid, d: { ev: 'snapshots_done' } })
}
