import type { NatsConnection } from '@nats-io/transport-node'
import type { Clock, TimerHandle } from '../../core/clock.js'
import type { Logger } from '../../core/logger.js'
import type { Rejection } from '../../stream/protocol.js'
import type { Subscription } from '@nats-io/transport-node'
import { LEASE_ASK_SUBJECT, LEASE_CLOSED_SUBJECT, LEASE_OPEN_SUBJECT, LEASE_RENEW_SUBJECT } from '../subjects.js'
import {
  isRejection,
  leaseBodies,
  parseLeaseAnswers,
  type LeaseAnswer,
  type LeaseBody,
  type LeaseRequest,
} from './leases.js'
import type { MirrorStreams } from './mirror-streams.js'

/** How long an edge waits for the ingest to open a stream and for its snapshot to arrive. */
const OPEN_TIMEOUT_MS = 5_000
/** At most one snapshot asked for per broken stream in this long. */
const REPAIR_EVERY_MS = 1_000

export interface LeaseClientOptions {
  readonly nc: NatsConnection
  readonly mirror: MirrorStreams
  readonly clock: Clock
  readonly log?: Logger | undefined
  /** The ingest holds a leased stream a resume window past its last renewal; edges renew four times as often. */
  readonly windowMs: number
}

/** A stream of a leased channel, as the edge resolved it: its topic and what the ingest needs to open it. */
export interface LeasedStream {
  readonly topic: string
  readonly request: LeaseRequest
}

/**
 * An edge's leases on the ingest's on-demand streams (leases.ts): `open` asks the ingest to open streams the
 * mirror does not hold and waits until their state has arrived; `hold` notes streams the mirror already has (another
 * edge leased them); both are then renewed while the edge's fan-out holds them (clients hold them, or held them
 * within the resume window), and forgotten after. A broken stream (frames missed) is asked for again: the ingest
 * publishes its snapshot.
 */
export class LeaseClient {
  readonly #o: LeaseClientOptions
  /** topic → what renews it, and when it was leased (a stream being opened is not held by the fan-out yet). */
  readonly #held = new Map<string, { readonly request: LeaseRequest; readonly since: number }>()
  readonly #repairedAt = new Map<string, number>()
  #timer: TimerHandle | undefined
  #everyMs = 0
  #subs: Subscription[] = []
  /** Lease requests that failed (no answer in time, or the broker away). */
  failures = 0

  constructor(options: LeaseClientOptions) {
    this.#o = options
  }

  /** Streams leased (metrics). */
  get size(): number {
    return this.#held.size
  }

  start(): void {
    this.#everyMs = Math.max(50, Math.min(10_000, Math.floor(this.#o.windowMs / 4)))
    this.#timer = this.#o.clock.setInterval(() => this.#renew(), this.#everyMs)
    const renewNow = this.#o.nc.subscribe(LEASE_ASK_SUBJECT, { callback: () => this.#renew() })
    const closed = this.#o.nc.subscribe(LEASE_CLOSED_SUBJECT, {
      callback: (_err, msg) => {
        try {
          const { topic, epoch } = JSON.parse(msg.string()) as { topic?: unknown; epoch?: unknown }
          if (typeof topic === 'string' && typeof epoch === 'string') this.#o.mirror.forget(topic, epoch)
        } catch {
          // Not an announcement: nothing to forget.
        }
      },
    })
    this.#subs = [renewNow, closed]
  }

  stop(): void {
    for (const s of this.#subs.splice(0)) s.unsubscribe()
    this.#o.clock.clearInterval(this.#timer)
    this.#timer = undefined
  }

  /** Leases streams the mirror holds already: renewed from now on, the first renewal sent at once. */
  hold(streams: readonly LeasedStream[]): void {
    const fresh: LeaseRequest[] = []
    for (const s of streams) {
      if (!this.#held.has(s.topic)) fresh.push(s.request)
      this.#note(s)
    }
    if (fresh.length > 0) this.#publish(LEASE_RENEW_SUBJECT, fresh)
  }

  /**
   * Asks the ingest to open `streams` and waits for each one's state to reach the mirror. Resolves to the
   * rejection of each stream that cannot be served (by topic): the ingest's, or why it could not be asked.
   */
  async open(streams: readonly LeasedStream[]): Promise<Map<string, Rejection>> {
    const failed = new Map<string, Rejection>()
    const waits: Promise<void>[] = []
    for (const s of streams) this.#note(s)
    const bodies = leaseBodies(
      streams.map((s) => s.request),
      this.#maxBytes(),
    )
    let at = 0
    for (const body of bodies) {
      const part = streams.slice(at, at + body.count)
      at += body.count
      let answers: LeaseAnswer[] | undefined
      try {
        const reply = await this.#o.nc.request(LEASE_OPEN_SUBJECT, body.text, { timeout: OPEN_TIMEOUT_MS })
        answers = parseLeaseAnswers(reply.string())
      } catch (err) {
        this.#o.log?.warn({ err }, 'bus: the ingest did not answer a lease request')
      }
      part.forEach((s, i) => {
        const answer = answers?.[i]
        const key = s.request.key
        if (answer === undefined) {
          this.failures++
          failed.set(s.topic, { key, code: 'UNKNOWN_KEY', reason: 'the ingest cannot be reached: try again' })
        } else if (isRejection(answer)) failed.set(s.topic, answer)
        else
          waits.push(
            this.#o.mirror.whenKnown(s.topic, answer.epoch, OPEN_TIMEOUT_MS).then((known) => {
              if (known) return
              this.failures++
              failed.set(s.topic, { key, code: 'UNKNOWN_KEY', reason: 'the stream did not arrive in time: try again' })
            }),
          )
      })
    }
    await Promise.all(waits)
    // Noted again: a renewal that ran while the request was out may have forgotten a stream not yet held.
    for (const s of streams)
      if (!failed.has(s.topic)) this.#note(s)
      else if (!this.#o.mirror.isHeld(s.topic)) this.#held.delete(s.topic)
    return failed
  }

  /** A stream the mirror cannot go on with: the ingest is asked for its snapshot (at most once a second). */
  repair(topic: string): void {
    const held = this.#held.get(topic)
    const now = this.#o.clock.now()
    if (held === undefined || now - (this.#repairedAt.get(topic) ?? -Infinity) < REPAIR_EVERY_MS) return
    this.#repairedAt.set(topic, now)
    const body = (leaseBodies([held.request], this.#maxBytes())[0] as LeaseBody).text
    const failed = (err: unknown): void => this.#o.log?.warn({ err, topic }, 'bus: a snapshot could not be asked for')
    try {
      this.#o.nc.request(LEASE_OPEN_SUBJECT, body, { timeout: OPEN_TIMEOUT_MS }).catch(failed)
    } catch (err) {
      failed(err)
    }
  }

  #note(s: LeasedStream): void {
    const was = this.#held.get(s.topic)
    this.#held.set(s.topic, { request: s.request, since: was?.since ?? this.#o.clock.now() })
  }

  /** Renews what the fan-out still holds; forgets the rest (the ingest closes them a window later). */
  #renew(): void {
    const renewed: LeaseRequest[] = []
    const settled = this.#o.clock.now() - this.#everyMs
    for (const [topic, { request, since }] of this.#held) {
      if (this.#o.mirror.isHeld(topic) || since > settled) renewed.push(request)
      else {
        this.#held.delete(topic)
        this.#repairedAt.delete(topic)
      }
    }
    if (renewed.length > 0) this.#publish(LEASE_RENEW_SUBJECT, renewed)
  }

  #publish(subject: string, requests: readonly LeaseRequest[]): void {
    try {
      for (const body of leaseBodies(requests, this.#maxBytes())) this.#o.nc.publish(subject, body.text)
    } catch (err) {
      // A closed connection: the next renewal (after the link is back) carries them.
      this.#o.log?.debug({ err }, 'bus: lease renewal not sent')
    }
  }

  /** Half the broker's max_payload: headroom for the protocol's own bytes. */
  #maxBytes(): number {
    return Math.floor((this.#o.nc.info?.max_payload ?? 1_048_576) / 2)
  }
}
