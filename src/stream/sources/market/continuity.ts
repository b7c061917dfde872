import type { BookStep, VenueActor } from '../../../actors/venue-actor.js'
import type { InstrumentState } from '../../../actors/instrument-state.js'
import type { MarkerPayload } from '../../protocol.js'
import type { Sequencer } from '../../sequencer.js'
import { disconnectReason } from './disconnect-reason.js'
import type { InstrumentStream, OpenStreams } from './open-streams.js'

/** What a channel does with its streams as a step goes by (continuity markers are sent for it). */
export interface StepHandlers<S> {
  /** The instrument's book is back after a disconnect: the `resync` marker is out, the snapshot is the channel's. */
  resynced(stream: S, st: Readonly<InstrumentState>, step: BookStep): void
  /** The step touched the instrument of a live stream. Optional: the quote channel follows the quote listeners. */
  changed?(stream: S, st: Readonly<InstrumentState>, step: BookStep): void
  /** The stream was just told its instrument went stale (the marker is out). */
  disconnected?(stream: S): void
}

/**
 * Continuity markers for the open streams a step touched, inside the actor's step (so they are numbered in order
 * with the step's deltas): an instrument the step reported stale gets `venue_disconnect` once per outage (a feed
 * that reports the same books stale on every failed reconnect must not flood its streams), and one whose book is
 * live again after that gets `resync` with `snapshot_follows` before the channel sends its snapshot.
 * A stale instrument is always among the step's touched ones (the actor touches what a `stale` event names).
 */
export function followStep<S extends InstrumentStream>(
  step: BookStep,
  actor: VenueActor,
  streams: OpenStreams<S>,
  sequencer: Sequencer,
  handlers: StepHandlers<S>,
): void {
  let reasons: Map<string, string> | undefined
  for (let i = 0; i < step.touched.length; i++) {
    const st = step.touched[i] as Readonly<InstrumentState>
    const open = streams.of(actor, st.id)
    if (open === undefined) continue
    let wentStale = false
    let feedReason: string | undefined
    if (step.stale !== undefined) {
      reasons ??= staleReasons(step)
      feedReason = reasons.get(st.id)
      wentStale = reasons.has(st.id)
    }
    const live = st.book.hasSnapshot && !st.stale
    for (const stream of open) {
      if (wentStale && !stream.awaitingResync) {
        stream.awaitingResync = true
        const d: MarkerPayload = {
          ev: 'venue_disconnect',
          venue: actor.venue,
          reason: disconnectReason(feedReason),
          since: step.receivedAt,
        }
        sequencer.emit(stream.log, 'marker', d, step.venueTs, step.receivedAt)
        handlers.disconnected?.(stream)
      }
      if (stream.awaitingResync) {
        if (!live) continue
        stream.awaitingResync = false
        const d: MarkerPayload = { ev: 'resync', reason: 'venue_reconnected', snapshot_follows: true }
        sequencer.emit(stream.log, 'marker', d, step.venueTs, step.receivedAt)
        handlers.resynced(stream, st, step)
      } else handlers.changed?.(stream, st, step)
    }
  }
}

/** Instrument → the feed's reason, for a step with stale events (the last event naming an instrument wins). */
function staleReasons(step: BookStep): Map<string, string> {
  const out = new Map<string, string>()
  for (const e of step.stale ?? []) for (const id of e.instrumentIds) out.set(id, e.reason)
  return out
}
