import type { FeedBatch } from '../../actors/book-snapshot.js'
import type { FeedEvent } from '../../venues/types.js'

/**
 * What goes over `feed.<venue>`: one applied batch, or part of one (`more`: the batch goes on in the next message; a
 * batch is split only when it would pass the broker's max_payload).
 *
 * `epoch` names the publisher's run and `seq` counts its messages on `feed.<venue>` from 1, so a follower sees a
 * message it missed (a gap, the broker or the ingest gone for a while, an ingest restart) and resynchronizes. A
 * snapshot reply carries the `seq` of the last message published before the snapshot was taken: the reply reaches the
 * follower after that message and before the next (one connection publishes both, and the broker keeps one
 * publisher's order towards one subscriber).
 */
export interface FeedMessage {
  readonly epoch: string
  readonly seq: number
  readonly receivedAt: number
  readonly events: readonly FeedEvent[]
  readonly more?: true
}

/**
 * A snapshot reply's message, to the request's reply subject: the snapshot's batches (book-snapshot.ts) packed in
 * order up to max_payload, `more` when its last batch goes on in the next message, `last` on the reply's final one.
 * `seq` is the feed's place when the snapshot was taken (above).
 */
export interface SnapshotReplyMessage {
  readonly epoch: string
  readonly seq: number
  /** The request answered (its id). */
  readonly request: number
  readonly batches: readonly FeedBatch[]
  readonly more?: true
  readonly last?: true
}

/** A snapshot request on `feed.<venue>.snapshot`, with the follower's inbox as the reply subject. */
export interface SnapshotRequest {
  readonly request: number
  /** The instruments wanted; absent: every instrument the venue actor holds. */
  readonly instrumentIds?: readonly string[]
}

/** Room left for a message's head (epoch, seq, times, flags) when events are packed against the size limit. */
const HEAD_ROOM = 512

/**
 * The batch's events as JSON arrays that each fit a message of `maxBytes` with its head: one array unless the batch
 * is too large, then several (in order), the batch split between messages marked `more`.
 */
export function eventChunks(events: readonly FeedEvent[], maxBytes: number): string[] {
  const budget = maxBytes - HEAD_ROOM
  const whole = JSON.stringify(events)
  if (Buffer.byteLength(whole) <= budget) return [whole]
  const chunks: string[][] = [[]]
  let size = 2
  for (const e of events) {
    const json = JSON.stringify(e)
    const n = Buffer.byteLength(json) + 1
    // A book in [0, 1] at the finest tick venues use (0.0001) has at most 10,000 levels a side, ~300 KB.
    if (n + 2 > budget) throw new Error(`a ${e.type} event of ${n} bytes does not fit the broker's ${maxBytes}`)
    if (size + n > budget) {
      chunks.push([])
      size = 2
    }
    ;(chunks[chunks.length - 1] as string[]).push(json)
    size += n
  }
  return chunks.map((c) => `[${c.join(',')}]`)
}

/** One message: `head` with `eventsJson` (from eventChunks) as its events. */
export function feedMessage(head: Omit<FeedMessage, 'events'>, eventsJson: string): string {
  return `${JSON.stringify(head).slice(0, -1)},"events":${eventsJson}}`
}

/** The reply to a snapshot request as the messages to publish, in order (at least one, the last with `last`). */
export function snapshotReplyMessages(
  head: Pick<SnapshotReplyMessage, 'epoch' | 'seq' | 'request'>,
  batches: readonly FeedBatch[],
  maxBytes: number,
): string[] {
  const budget = maxBytes - HEAD_ROOM
  const messages: string[] = []
  let texts: string[] = []
  let size = 0
  let continues = false
  const flush = (last: boolean): void => {
    const flags = last ? { last: true } : continues ? { more: true } : {}
    messages.push(`${JSON.stringify({ ...head, ...flags }).slice(0, -1)},"batches":[${texts.join(',')}]}`)
    texts = []
    size = 0
  }
  for (const b of batches) {
    const chunks = eventChunks(b.events, maxBytes)
    chunks.forEach((json, i) => {
      const text = `{"receivedAt":${JSON.stringify(b.receivedAt)},"events":${json}}`
      const n = Buffer.byteLength(text) + 1
      if (texts.length > 0 && size + n > budget) flush(false)
      texts.push(text)
      size += n
      continues = i < chunks.length - 1
    })
  }
  flush(true)
  return messages
}

/** The message, or undefined when it is not one (a broken or foreign publisher). */
export function decodeFeedMessage(text: string): FeedMessage | undefined {
  const m = parseObject<FeedMessage>(text)
  if (m === undefined || typeof m.receivedAt !== 'number' || !Array.isArray(m.events)) return undefined
  return m as FeedMessage
}

/** The reply message, or undefined when it is not one. */
export function decodeSnapshotReply(text: string): SnapshotReplyMessage | undefined {
  const m = parseObject<SnapshotReplyMessage>(text)
  if (m === undefined || typeof m.request !== 'number' || !Array.isArray(m.batches)) return undefined
  return m as SnapshotReplyMessage
}

/** A JSON object with the head every message carries (`epoch`, `seq`), its other fields still to be checked. */
function parseObject<T extends { epoch: string; seq: number }>(text: string): Partial<T> | undefined {
  let v: unknown
  try {
    v = JSON.parse(text)
  } catch {
    return undefined
  }
  if (typeof v !== 'object' || v === null) return undefined
  const m = v as Partial<T>
  return typeof m.epoch === 'string' && typeof m.seq === 'number' ? m : undefined
}
