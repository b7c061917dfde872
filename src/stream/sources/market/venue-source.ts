import type { VenueActor } from '../../../actors/venue-actor.js'
import type { Clock, TimerHandle } from '../../../core/clock.js'
import type { Rejection } from '../../protocol.js'
import type { Sequencer, StreamId, StreamLog } from '../../sequencer.js'
import { streamId } from '../../sequencer.js'
import type { ChannelSource } from '../../source.js'
import { DEGRADED_AFTER_MS, venuePayload, type VenuePayload } from './venue-state.js'

/** How often open `venue` streams are checked: a stall or a reconnect produces no actor step to react to. */
export const VENUE_CHECK_MS = 1_000

export interface VenueSourceOptions {
  readonly checkEveryMs?: number
  readonly degradedAfterMs?: number
}

interface VenueStream {
  readonly log: StreamLog
  readonly actor: VenueActor
  last: VenuePayload
  readonly detach: () => void
}

/**
 * The `venue` channel: a stream per venue id, `{state, age_ms, reconnects, gaps}` (venue-state.ts). A delta goes
 * out when the state, the reconnect count or the gap count changes (not for the age alone: `hb` carries it every
 * second). Checked on a timer while a stream is open, and at once on an actor step that reported books stale, so a
 * drop is on the `venue` stream in the same step as the markers on the quote and book streams.
 */
export class VenueSource implements ChannelSource {
  readonly ch = 'venue' as const
  readonly #sequencer: Sequencer
  readonly #venues: ReadonlyMap<string, VenueActor>
  readonly #clock: Clock
  readonly #checkEveryMs: number
  readonly #degradedAfterMs: number
  readonly #streams = new Map<string, VenueStream>()
  #timer: TimerHandle | undefined

  constructor(sequencer: Sequencer, venues: ReadonlyMap<string, VenueActor>, clock: Clock, o: VenueSourceOptions = {}) {
    this.#sequencer = sequencer
    this.#venues = venues
    this.#clock = clock
    this.#checkEveryMs = o.checkEveryMs ?? VENUE_CHECK_MS
    this.#degradedAfterMs = o.degradedAfterMs ?? DEGRADED_AFTER_MS
  }

  resolve(key: string): StreamId | Rejection {
    if (this.#venues.has(key)) return streamId('venue', key)
    return { key, code: 'UNKNOWN_KEY', reason: `unknown venue (known: ${[...this.#venues.keys()].join(', ')})` }
  }

  open(log: StreamLog): void {
    const actor = this.#venues.get(log.id.key)
    if (actor === undefined || this.#streams.has(log.id.topic)) return
    const detach = actor.subscribeBooks((step) => {
      if (step.stale !== undefined) this.#check(stream)
    })
    const stream: VenueStream = { log, actor, last: this.#payload(actor), detach }
    this.#streams.set(log.id.topic, stream)
    this.#timer ??= this.#clock.setInterval(() => this.#checkAll(), this.#checkEveryMs)
  }

  close(log: StreamLog): void {
    const stream = this.#streams.get(log.id.topic)
    if (stream === undefined) return
    stream.detach()
    this.#streams.delete(log.id.topic)
    if (this.#streams.size === 0) {
      this.#clock.clearInterval(this.#timer)
      this.#timer = undefined
    }
  }

  /** The venue as it is now (the age is current even when nothing else changed since the last delta). */
  snapshot(log: StreamLog): string {
    const actor = this.#venues.get(log.id.key)
    const d = actor === undefined ? undefined : this.#payload(actor)
    const now = this.#clock.now()
    return this.#sequencer.snapshot(log, d, now, now)
  }

  #checkAll(): void {
    for (const stream of this.#streams.values()) this.#check(stream)
  }

  #check(stream: VenueStream): void {
    const d = this.#payload(stream.actor)
    const last = stream.last
    if (d.state === last.state && d.reconnects === last.reconnects && d.gaps === last.gaps) return
    stream.last = d
    const now = this.#clock.now()
    this.#sequencer.emit(stream.log, 'delta', d, now, now)
  }

  #payload(actor: VenueActor): VenuePayload {
    return venuePayload(actor.venueStatus(), this.#clock.now(), this.#degradedAfterMs)
  }
}
