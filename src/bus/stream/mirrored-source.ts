import type { Channel, Rejection } from '../../stream/protocol.js'
import { streamId, type StreamId, type StreamLog } from '../../stream/sequencer.js'
import type { ChannelSource, SubscribeParams } from '../../stream/source.js'
import type { LeaseClient, LeasedStream } from './lease-client.js'
import type { LeaseRequest } from './leases.js'
import type { MirrorStreams } from './mirror-streams.js'

/**
 * How an edge checks a key before the mirror is asked: e.g. with its replica venue actors (the quote source's
 * `resolve`), for the same reasons in the same words as on a single process. Absent: the key is taken as it is.
 */
export type KeyResolver = (key: string, params: SubscribeParams) => StreamId | Rejection

/**
 * An edge's source for a channel the ingest numbers: the frames come from the ingest through the mirror, so opening
 * and closing a stream does nothing, and a snapshot is the mirror's (with the ingest's epoch and seq).
 * - A kept channel (`quote`, `spread`, `venue`: channels.ts): the ingest publishes every stream, so a key the mirror
 *   does not hold a stream for is rejected at once with UNKNOWN_KEY, as a source rejects a key it does not know.
 * - A leased channel (`book`, `spreads.top`, `alerts`, given `leases`): `prepare` leases the streams, asking the
 *   ingest to open those the mirror does not hold and waiting for their state; the ingest's rejection of a key is
 *   the client's.
 */
export class MirroredSource implements ChannelSource {
  readonly ch: Channel
  readonly #mirror: MirrorStreams
  readonly #resolve: KeyResolver | undefined

  readonly #leases: LeaseClient | undefined

  constructor(ch: Channel, mirror: MirrorStreams, resolve?: KeyResolver, leases?: LeaseClient) {
    this.ch = ch
    this.#mirror = mirror
    this.#resolve = resolve
    this.#leases = leases
  }

  prepare(keys: readonly string[], params: SubscribeParams): Promise<ReadonlyMap<string, Rejection>> | undefined {
    const leases = this.#leases
    if (leases === undefined) return undefined
    const held: LeasedStream[] = []
    const wanted: LeasedStream[] = []
    const keyOf = new Map<string, string>()
    for (const key of keys) {
      const id = this.#id(key, params)
      if ('code' in id) continue // rejected again, in the same words, when the keys are added
      const stream = { topic: id.topic, request: leaseRequest(id, params) }
      keyOf.set(id.topic, key)
      if (this.#mirror.has(id.topic)) held.push(stream)
      else wanted.push(stream)
    }
    leases.hold(held)
    if (wanted.length === 0) return undefined
    return leases.open(wanted).then((failed) => {
      const byKey = new Map<string, Rejection>()
      for (const [topic, rejection] of failed) {
        const key = keyOf.get(topic) as string
        byKey.set(key, { ...rejection, key })
      }
      return byKey
    })
  }

  #id(key: string, params: SubscribeParams): StreamId | Rejection {
    return this.#resolve === undefined ? streamId(this.ch, key) : this.#resolve(key, params)
  }

  resolve(key: string, params: SubscribeParams): StreamId | Rejection {
    const id = this.#id(key, params)
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

/** What the ingest needs to open the stream: the key as resolved, and the book's depth or the alerts' account. */
function leaseRequest(id: StreamId, params: SubscribeParams): LeaseRequest {
  switch (id.ch) {
    case 'book':
      return { ch: id.ch, key: id.key, depth: Number(id.topic.slice(id.topic.lastIndexOf('|') + 1)) }
    case 'alerts':
      return { ch: id.ch, key: id.key, ...(params.accountId === undefined ? {} : { account: params.accountId }) }
    default:
      return { ch: id.ch, key: id.key }
  }
}
