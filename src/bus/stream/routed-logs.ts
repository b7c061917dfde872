import type { Channel } from '../../stream/protocol.js'
import type { StreamId, StreamLog, StreamLogs } from '../../stream/sequencer.js'

/**
 * An edge's `StreamLogs` for its stream server: the mirrored channels' streams from the mirror (numbered by the
 * ingest), every other channel's from the edge's own sequencer (`book`, `spreads.top`, `alerts`, served from the
 * edge's state). Both must have the same resume window.
 */
export class ChannelRoutedLogs implements StreamLogs {
  readonly #local: StreamLogs
  readonly #mirrored: StreamLogs
  readonly #channels: ReadonlySet<Channel>

  constructor(local: StreamLogs, mirrored: StreamLogs, mirroredChannels: ReadonlySet<Channel>) {
    if (local.windowMs !== mirrored.windowMs)
      throw new Error(`resume windows differ: local ${local.windowMs} ms, mirrored ${mirrored.windowMs} ms`)
    this.#local = local
    this.#mirrored = mirrored
    this.#channels = mirroredChannels
  }

  get windowMs(): number {
    return this.#local.windowMs
  }

  open(id: StreamId): StreamLog {
    return this.#of(id.ch).open(id)
  }

  close(topic: string): void {
    const bar = topic.indexOf('|')
    this.#of((bar < 0 ? topic : topic.slice(0, bar)) as Channel).close(topic)
  }

  replay(log: StreamLog, epoch: string, seq: number): string[] | undefined {
    return this.#of(log.id.ch).replay(log, epoch, seq)
  }

  #of(ch: Channel): StreamLogs {
    return this.#channels.has(ch) ? this.#mirrored : this.#local
  }
}
