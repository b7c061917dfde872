/**
 * `/api/v2/stream` across processes (issue 24): an ingest publishes the mirrored channels' frames on the bus
 * (BusFrameSink, which holds frames through a broker outage, with StreamKeeper holding every stream open and the `MD` JetStream stream keeping the window); an
 * edge mirrors them (MirrorStreams) and serves them with the unchanged fan-out (MirroredSource, ChannelRoutedLogs).
 */
export {
  BusFrameSink,
  DEFAULT_HOLD_MAX_BYTES,
  MIRRORED_CHANNELS,
  mdSubjectOfTopic,
  type BusFrameSinkOptions,
  type BusPublishObserver,
} from './bus-frame-sink.js'
export { onBrokerBack } from './broker-back.js'
export { ensureMdStream, mdStreamConfig, type MdStreamLimits } from './md-stream.js'
export { MirrorStreams, type MirrorStreamsOptions } from './mirror-streams.js'
export { MirroredSource, type KeyResolver } from './mirrored-source.js'
export { ChannelRoutedLogs } from './routed-logs.js'
export { StreamKeeper, type SpreadPairs, type StreamKeeperOptions } from './stream-keeper.js'
