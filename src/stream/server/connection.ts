import type { WebSocket } from 'uWebSockets.js'
import type { TimerHandle } from '../../core/clock.js'
import type { Channel } from '../protocol.js'

/**
 * What the server keeps per socket (its uWS user data): who it is, what it holds, and its limits' bookkeeping.
 * One stream per (ch, key) per connection: a book key is held at one depth, so a topic is found from ch + key.
 */
export type ConnectionState = 'unauthenticated' | 'authenticating' | 'open' | 'closed'

export interface Subscription {
  readonly sid: string
  readonly ch: Channel
  readonly depth: number | undefined
  /** key → topic. */
  readonly keys: Map<string, string>
}

export interface HeldStream {
  readonly sid: string
  readonly topic: string
}

export class Connection {
  /** The key the upgrade carried (`X-API-Key` or `?api_key=`), if any. */
  readonly upgradeKey: string | undefined
  state: ConnectionState = 'unauthenticated'
  accountId: string | undefined
  /** What the per-key connection limit counts (undefined for an anonymous connection). */
  limitKey: string | undefined
  readonly subs = new Map<string, Subscription>()
  /** `ch|key` → the subscription and topic holding it. */
  readonly streams = new Map<string, HeldStream>()
  /** Topics held, for the publish-time drop check. */
  readonly topics = new Set<string>()
  /** Commands that arrived while the key was being checked (or a subscription prepared), run once it is. */
  readonly queued: string[] = []
  /** A subscription command waits for its source to prepare the keys (src/stream/source.ts `prepare`). */
  preparing = false
  #nextSid = 1
  /** Last `n` of a heartbeat that went out. */
  hbN = 0
  /** Topics whose frames this socket lost, waiting for a fresh snapshot on drain. */
  readonly lagging = new Set<string>()
  laggingSince: number | undefined
  /** Times of recent re-snapshot rounds (slow-consumer policy). */
  resnapshotTimes: number[] = []
  /** Command token bucket. */
  tokens: number
  refilledAt: number
  /** Commands refused for the rate since `rateWindowStart`. */
  refusedCommands = 0
  rateWindowStart = 0
  /** Last on-request snapshot per topic (the `snapshot` command is rate-limited per key). */
  readonly snapshotAt = new Map<string, number>()
  authTimer: TimerHandle | undefined
  lifetimeTimer: TimerHandle | undefined

  constructor(upgradeKey: string | undefined, tokens: number, now: number) {
    this.upgradeKey = upgradeKey
    this.tokens = tokens
    this.refilledAt = now
  }

  newSid(): string {
    return `s${this.#nextSid++}`
  }

  hold(ch: Channel, key: string, sid: string, topic: string): void {
    this.streams.set(streamKey(ch, key), { sid, topic })
    this.topics.add(topic)
  }

  drop(ch: Channel, key: string): void {
    const held = this.streams.get(streamKey(ch, key))
    if (held === undefined) return
    this.streams.delete(streamKey(ch, key))
    this.topics.delete(held.topic)
    this.lagging.delete(held.topic)
    this.snapshotAt.delete(held.topic)
    if (this.lagging.size === 0) this.laggingSince = undefined
  }

  markLagging(topic: string, now: number): void {
    if (!this.topics.has(topic)) return
    this.lagging.add(topic)
    this.laggingSince ??= now
  }

  /** Takes a command token; false when the bucket is empty (`perSecond` tokens, refilled continuously). */
  takeCommandToken(perSecond: number, now: number): boolean {
    this.tokens = Math.min(perSecond, this.tokens + ((now - this.refilledAt) / 1000) * perSecond)
    this.refilledAt = now
    if (this.tokens < 1) return false
    this.tokens -= 1
    return true
  }
}

export function streamKey(ch: Channel, key: string): string {
  return `${ch}|${key}`
}

/** A stream socket: its uWS user data is the Connection. */
export interface UserData {
  readonly conn: Connection
}
export type Socket = WebSocket<UserData>
