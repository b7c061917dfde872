import type { Clock } from '../../core/clock.js'
import type { Sequencer } from '../sequencer.js'
import type { ChannelSource } from '../source.js'

/**
 * The channel sources the stream server serves (one per channel: quote, book, spread, spreads.top, alerts, venue),
 * built from the app's parts. The fan-out (src/stream/server/) knows only the `ChannelSource` contract; a channel
 * with no source here answers UNKNOWN_CHANNEL.
 */
export interface StreamSourceContext {
  readonly sequencer: Sequencer
  readonly clock: Clock
  /** The venue actors (quotes, books, venue state). */
  readonly actors: readonly unknown[]
  /** The spread engine (spreads, the top list). */
  readonly spreads: unknown
  /** The alert service (the caller's firings). */
  readonly alerts: unknown
}

export function streamSources(ctx: StreamSourceContext): ChannelSource[] {
  void ctx
  return []
}
