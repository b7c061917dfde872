import type { ChannelSource, SourceContext } from '../source.js'
import { spreadSources, type SpreadSourcesDeps } from './spreads/index.js'

/**
 * Every channel's source, for the fan-out server. Each group of channels adds its sources here (one import, one
 * line) and what it needs to the context type.
 */
export type StreamSourcesContext = SourceContext & SpreadSourcesDeps

export function streamSources(ctx: StreamSourcesContext): ChannelSource[] {
  return [...spreadSources(ctx)]
}
