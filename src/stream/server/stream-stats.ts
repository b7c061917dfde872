/**
 * The stream server's counters, read by /metrics at scrape time (src/metrics.ts): incrementing a number is all the
 * hot path pays.
 */
export interface StreamStatsSnapshot {
  readonly connections: number
  readonly subscriptions: number
  readonly streams: number
  readonly framesPublished: ReadonlyMap<string, number>
  readonly drops: ReadonlyMap<string, number>
  readonly resnapshots: number
  readonly closes: ReadonlyMap<number, number>
}

export class StreamStats {
  connections = 0
  /** Streams held by connections (one per key per connection). */
  subscriptions = 0
  readonly framesPublished = new Map<string, number>()
  /** Frames a slow socket lost (or would have), by channel. */
  readonly drops = new Map<string, number>()
  resnapshots = 0
  readonly closes = new Map<number, number>()

  published(ch: string): void {
    this.framesPublished.set(ch, (this.framesPublished.get(ch) ?? 0) + 1)
  }

  dropped(ch: string): void {
    this.drops.set(ch, (this.drops.get(ch) ?? 0) + 1)
  }

  closed(code: number): void {
    this.closes.set(code, (this.closes.get(code) ?? 0) + 1)
  }

  snapshot(streams: number): StreamStatsSnapshot {
    return {
      connections: this.connections,
      subscriptions: this.subscriptions,
      streams,
      framesPublished: new Map(this.framesPublished),
      drops: new Map(this.drops),
      resnapshots: this.resnapshots,
      closes: new Map(this.closes),
    }
  }
}
