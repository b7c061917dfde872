import type { Channel, Rejection } from '../../stream/protocol.js'
import { streamId, type StreamId, type StreamLog } from '../../stream/sequencer.js'
import type { ChannelSource, SubscribeParams } from '../../stream/source.js'
import type { MirrorStreams } from './mirror-streams.js'

/**
 * How an edge checks a key before the mirror is asked: e.g. with its replica venue actors (the quote source's
 * `resolve`), for the same reasons in the same words as on a single process. Absent: the key is taken as it is.
 */
export type KeyResolver = (key: string, params: SubscribeParams) => StreamId | Rejection

/**
 * An edge's source for a mirrored channel (`quote`, `spread`, `venue`): the frames come from the ingest through
 * the mirror, so opening and closing a stream does nothing, and a snapshot is the mirror's (with the ingest's epoch
 * and seq). A key the mirror does not hold a stream for is rejected at once with UNKNOWN_KEY, as a source rejects a
 * key it does not know.
 */
export class MirroredSource implements ChannelSource {
  readonly ch: Channel
  readonly #mirror: MirrorStreams
  readonly #resolve: KeyResolver | undefined

  constructor(ch: Channel, mirror: MirrorStreams, resolve?: KeyResolver) {
    this.ch = ch
    this.#mirror = mirror
    this.#resolve = resolve
  }

  resolve(key: string, params: SubscribeParams): StreamId | Rejection {
    const id = this.#resolve === undefined ? streamId(this.ch, key) : this.#resolve(key, params)
    if ('code' in id) return id
    if (!this.#mirror.has(id.topic))
      return {
        key,
        code: 'UNKNOWN_KEY',
        reason: `no ${this.ch} stream for this key has reached this edge from the ingest`,
      }
    return id
  }

  open(): void {
    // The ingest keeps every stream of the channel open; the mirror already receives its frames.
  }

  close(): void {
    // As open.
  }

  snapshot(log: StreamLog): string {
    const frame = this.#mirror.snapshot(log.id.topic)
    if (frame === undefined) throw new Error(`stream ${log.id.topic} is no longer mirrored`)
    return frame
  }
}
