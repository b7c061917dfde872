import type { Clock, TimerHandle } from '../../../core/clock.js'
import type { Logger } from '../../../core/logger.js'
import { looksLikePairId } from '../../../spreads/engine/pair-id.js'
import type { SpreadChange } from '../../../spreads/engine/spread-engine.js'
import type { VenueId } from '../../../model/types.js'
import type { MarkerPayload, Rejection } from '../../protocol.js'
import { streamId, type Sequencer, type StreamId, type StreamLog } from '../../sequencer.js'
import type { ChannelSource } from '../../source.js'
import { contained, EngineFeed, type SpreadReader } from './engine-feed.js'
import { spreadPayload, staleAt } from './spread-payload.js'

/**
 * The `spread` channel: one pair's record, latest value.
 *
 * Keys: the pair's record key `<event_slug>|<outcome_key>` or its id (the REST records' `id`). Both name one
 * stream, printed with the record key (a stream's frames are shared by all its subscribers, so it has one key;
 * the record key is the one the channel documents, and every payload carries the `id` beside it).
 *
 * Payload: the record exactly as `/api/v2/spreads` shows it, `is_stale` judged at publish time (scanner default
 * cutoff), or `null` while the pair has no record: its quotes are missing, or the pair is no longer matched (the
 * engine's removal change). The stream stays open either way, and the next record is a delta like any other: a
 * pair that leaves the catalog and comes back continues its stream. A key the engine does not know is rejected
 * with UNKNOWN_KEY at subscribe.
 *
 * Deltas are emitted from the engine's change listener, inside the spread actor's step that changed the record:
 * that is where their seq is assigned. Only changes that alter the payload make a frame. One thing moves with
 * time alone: `is_stale` turns true when the older quote passes the cutoff, with no engine change; a timer per
 * open stream emits that delta (on the event loop, between the actor's steps, so still one writer at a time).
 */
export interface SpreadSourceOptions {
  readonly engine: SpreadReader
  readonly sequencer: Sequencer
  readonly clock: Clock
  readonly log?: Logger | undefined
}

interface OpenPair {
  readonly log: StreamLog
  /** The JSON of the last payload framed ('null' for none): a change that leaves it equal makes no frame. */
  lastJson: string
  timer: TimerHandle | undefined
}

export class SpreadSource implements ChannelSource {
  readonly ch = 'spread' as const
  readonly #o: SpreadSourceOptions
  readonly #open = new Map<string, OpenPair>()
  readonly #feed: EngineFeed

  constructor(options: SpreadSourceOptions) {
    this.#o = options
    this.#feed = new EngineFeed(options.engine, (changes) => this.#onChanges(changes), options.log)
  }

  resolve(key: string): StreamId | Rejection {
    const engine = this.#o.engine
    if (engine.spec(key) !== undefined) return streamId(this.ch, key)
    const byId = looksLikePairId(key) ? engine.keyOfId(key) : undefined
    if (byId !== undefined) return streamId(this.ch, byId)
    const reason = engine.ready
      ? 'no matched pair has this key (`<event_slug>|<outcome_key>`) or id'
      : 'cross-venue pairs are still being matched'
    return { key, code: 'UNKNOWN_KEY', reason }
  }

  open(log: StreamLog): void {
    const pair: OpenPair = { log, lastJson: 'null', timer: undefined }
    this.#open.set(log.id.key, pair)
    const r = this.#o.engine.record(log.id.key)
    const now = this.#o.clock.now()
    if (r !== undefined) {
      pair.lastJson = spreadPayload(r, now).json
      // A new stream's snapshot repeats these times until its first delta.
      log.ts = r.updatedAt
      log.lts = now
    }
    this.#arm(pair, now)
    this.#feed.listen(true)
  }

  close(log: StreamLog): void {
    const pair = this.#open.get(log.id.key)
    if (pair?.log !== log) return
    this.#o.clock.clearTimeout(pair.timer)
    this.#open.delete(log.id.key)
    this.#feed.listen(this.#open.size > 0)
  }

  snapshot(log: StreamLog): string {
    // The state as of the last frame: a snapshot carries the last seq, so it must not be newer than that frame.
    const pair = this.#open.get(log.id.key)
    if (pair !== undefined) return this.#o.sequencer.snapshot(log, JSON.parse(pair.lastJson) as unknown)
    const r = this.#o.engine.record(log.id.key)
    return this.#o.sequencer.snapshot(log, r === undefined ? null : spreadPayload(r, this.#o.clock.now()).object)
  }

  /**
   * A continuity marker of a venue (`venue_disconnect`, `resync`) on every open stream whose pair has a leg there,
   * called by whoever watches the venues' feeds. Its records turn stale through the engine (a delta follows); a
   * `resync` promises a snapshot, published right after it (the latest value, as of the last frame).
   */
  venueMarker(venue: VenueId, d: MarkerPayload): void {
    const now = this.#o.clock.now()
    for (const pair of this.#open.values()) {
      const spec = this.#o.engine.spec(pair.log.id.key)
      if (spec?.a.venue !== venue && spec?.b.venue !== venue) continue
      this.#o.sequencer.emit(pair.log, 'marker', d, now, now)
      // The snapshot the marker promises: the latest value, as of the last frame.
      if (d.ev === 'resync') this.#o.sequencer.publishSnapshot(pair.log, JSON.parse(pair.lastJson) as unknown, now, now)
    }
  }

  #onChanges(changes: readonly SpreadChange[]): void {
    const now = this.#o.clock.now()
    for (const change of changes) {
      const pair = this.#open.get(change.spec.key)
      // The engine's current record (the change's own, or a later one of the same step: latest value).
      if (pair !== undefined) this.#publish(pair, now)
    }
  }

  /** Frames the pair's current record if it differs from the last frame. */
  #publish(pair: OpenPair, now: number): void {
    const r = this.#o.engine.record(pair.log.id.key)
    const payload = r === undefined ? undefined : spreadPayload(r, now)
    const json = payload?.json ?? 'null'
    if (json !== pair.lastJson) {
      pair.lastJson = json
      this.#o.sequencer.emit(pair.log, 'delta', payload?.object ?? null, r?.updatedAt ?? now, now)
    }
    this.#arm(pair, now)
  }

  /** The timer for the moment the pair's record turns stale by age (none when it has no record or is stale). */
  #arm(pair: OpenPair, now: number): void {
    const clock = this.#o.clock
    clock.clearTimeout(pair.timer)
    pair.timer = undefined
    const r = this.#o.engine.record(pair.log.id.key)
    const at = r === undefined ? Number.POSITIVE_INFINITY : staleAt(r, now)
    if (Number.isFinite(at))
      pair.timer = clock.setTimeout(
        contained(() => this.#publish(pair, clock.now()), this.#o.log),
        at - now,
      )
  }
}
