import type { Clock, TimerHandle } from '../../core/clock.js'
import type { StreamId, StreamLog, StreamLogs } from '../sequencer.js'
import type { ChannelSource, SubscribeParams } from '../source.js'

/**
 * The streams that have a log, with how many sockets hold each. A stream is opened (sequencer + source) by its
 * first subscriber and closed only after it has had none for the resume window: a client that reconnects within it
 * finds the same epoch and can resume. A subscriber arriving during that wait cancels the close.
 */
export interface OpenStream {
  readonly id: StreamId
  readonly log: StreamLog
  readonly source: ChannelSource
  subscribers: number
  closeTimer: TimerHandle | undefined
}

export class OpenStreams {
  readonly #streams = new Map<string, OpenStream>()
  readonly #sequencer: StreamLogs
  readonly #clock: Clock

  constructor(sequencer: StreamLogs, clock: Clock) {
    this.#sequencer = sequencer
    this.#clock = clock
  }

  get(topic: string): OpenStream | undefined {
    return this.#streams.get(topic)
  }

  /** Streams with a log (held or waiting to close). */
  get size(): number {
    return this.#streams.size
  }

  /** Counts a subscriber in, opening the stream if needed. Call before `ws.subscribe` so an emit made by the source's open is covered by the snapshot, not delivered twice. */
  acquire(id: StreamId, source: ChannelSource, params: SubscribeParams): OpenStream {
    let s = this.#streams.get(id.topic)
    if (s === undefined) {
      const log = this.#sequencer.open(id)
      s = { id, log, source, subscribers: 0, closeTimer: undefined }
      this.#streams.set(id.topic, s)
      source.open(log, params)
    }
    if (s.closeTimer !== undefined) {
      this.#clock.clearTimeout(s.closeTimer)
      s.closeTimer = undefined
    }
    s.subscribers++
    return s
  }

  /** Counts a subscriber out; the last one starts the wait before the stream is closed. */
  release(topic: string): void {
    const s = this.#streams.get(topic)
    if (s === undefined || s.subscribers === 0) return
    if (--s.subscribers > 0) return
    s.closeTimer = this.#clock.setTimeout(() => this.#close(s), this.#sequencer.windowMs)
  }

  /** Closes every stream now (shutdown). */
  closeAll(): void {
    for (const s of [...this.#streams.values()]) this.#close(s)
  }

  #close(s: OpenStream): void {
    if (this.#streams.get(s.id.topic) !== s) return
    this.#clock.clearTimeout(s.closeTimer)
    this.#streams.delete(s.id.topic)
    try {
      s.source.close(s.log)
    } finally {
      this.#sequencer.close(s.id.topic)
    }
  }
}
