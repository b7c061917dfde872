import type { Channel, Rejection } from './protocol.js'
import type { Sequencer, StreamId, StreamLog } from './sequencer.js'

/**
 * Ingest side of the stream: one `ChannelSource` per channel turns the owner's state changes into sequenced frames
 * (through the `Sequencer`) for the streams that are open, and answers snapshots. The fan-out side
 * (src/stream/server/) only asks it to resolve keys, open and close streams and take snapshots; it never reads
 * actors itself. Those methods are synchronous: subscribe-and-snapshot must happen in one step (`prepare`, run
 * before it, may wait).
 */
export interface SubscribeParams {
  /** Books only: 10, 25 or 100 (validated by the server). */
  readonly depth?: number | undefined
  /** The caller's account (the `alerts` channel serves the caller's own firings only). */
  readonly accountId?: string | undefined
}

export interface ChannelSource {
  readonly ch: Channel
  /** The stream a key names, or why it cannot be served (unknown key, bad view): rejected at once, per key. */
  resolve(key: string, params: SubscribeParams): StreamId | Rejection
  /**
   * Starts producing frames for the stream (its first subscriber arrived): from now on every change of its state
   * is emitted on `log`. Called at most once per log until `close`.
   */
  open(log: StreamLog, params: SubscribeParams): void
  /** Stops producing frames for the stream (its last subscriber left a while ago). */
  close(log: StreamLog): void
  /** The stream's current state as a snapshot frame (`sequencer.snapshot(log, d)`). */
  snapshot(log: StreamLog): string
  /**
   * Optional: work that must be done before the keys can be served, which cannot be done in one synchronous step (an
   * edge asks the ingest to open streams it publishes only on demand: src/bus/stream/). Undefined when there is
   * nothing to wait for; otherwise the rejection of each key that cannot be served after all (by key). The server
   * holds the connection's later commands until it resolves, then subscribes as usual.
   */
  prepare?(keys: readonly string[], params: SubscribeParams): Promise<ReadonlyMap<string, Rejection>> | undefined
}

/** What a source is given: the sequencer it numbers frames with. */
export interface SourceContext {
  readonly sequencer: Sequencer
}
