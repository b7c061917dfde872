import type { VenueActor } from '../../../actors/venue-actor.js'
import type { Clock, TimerHandle } from '../../../core/clock.js'
import type { VenueId } from '../../../model/types.js'
import type { MarkerPayload } from '../../protocol.js'
import { VENUE_CHECK_MS } from './venue-source.js'
import { venueFeedView } from './venue-state.js'

/** No frame from a venue for this long while its socket is open: a stall, told to streams that depend on it. */
export const STALL_AFTER_MS = 10_000

type MarkerListener = (venue: VenueId, d: MarkerPayload) => void

/**
 * Continuity markers of whole venues, for streams that depend on a venue without following one of its books (a
 * spread has a leg there; a top list may hold its pairs). `venue_disconnect` when the venue's feed goes down
 * (reason `disconnected`) or stalls (no frame for STALL_AFTER_MS while connected: `stale_no_data`); `resync` once
 * it is up again (connected, every book synced, frames arriving). Per-book outages are told on the book and quote
 * streams (continuity.ts); the records they feed turn stale through the spread engine.
 *
 * Checked every VENUE_CHECK_MS, and at once on an actor step that reported books stale; only while a listener is
 * registered.
 */
export class VenueMarkers {
  readonly #actors: readonly VenueActor[]
  readonly #clock: Clock
  readonly #stallAfterMs: number
  readonly #listeners = new Set<MarkerListener>()
  /** Venues told `venue_disconnect` and not yet `resync`. */
  readonly #out = new Set<VenueId>()
  #timer: TimerHandle | undefined
  #detach: (() => void)[] = []

  constructor(actors: Iterable<VenueActor>, clock: Clock, stallAfterMs = STALL_AFTER_MS) {
    this.#actors = [...actors]
    this.#clock = clock
    this.#stallAfterMs = stallAfterMs
  }

  onMarker(listener: MarkerListener): () => void {
    this.#listeners.add(listener)
    if (this.#listeners.size === 1) this.#start()
    return () => {
      this.#listeners.delete(listener)
      if (this.#listeners.size === 0) this.#stop()
    }
  }

  #start(): void {
    this.#timer = this.#clock.setInterval(() => {
      for (const actor of this.#actors) this.#check(actor)
    }, VENUE_CHECK_MS)
    this.#detach = this.#actors.map((actor) =>
      actor.subscribeBooks((step) => {
        if (step.stale !== undefined) this.#check(actor)
      }),
    )
  }

  #stop(): void {
    this.#clock.clearInterval(this.#timer)
    this.#timer = undefined
    for (const detach of this.#detach) detach()
    this.#detach = []
  }

  #check(actor: VenueActor): void {
    const now = this.#clock.now()
    const status = actor.venueStatus()
    const view = venueFeedView(status, now)
    const venue = actor.venue
    if (!this.#out.has(venue)) {
      const reason =
        view.state === 'down'
          ? 'disconnected'
          : view.age_ms !== null && view.age_ms > this.#stallAfterMs
            ? 'stale_no_data'
            : undefined
      // Before the venue was ever up there is nothing to interrupt.
      if (reason === undefined || !status.ready) return
      this.#out.add(venue)
      const since = reason === 'stale_no_data' ? now - (view.age_ms as number) : now
      this.#emit(venue, { ev: 'venue_disconnect', venue, reason, since })
    } else if (view.state === 'up') {
      this.#out.delete(venue)
      this.#emit(venue, { ev: 'resync', reason: 'venue_reconnected', snapshot_follows: true })
    }
  }

  #emit(venue: VenueId, d: MarkerPayload): void {
    for (const listener of this.#listeners) listener(venue, d)
  }
}
