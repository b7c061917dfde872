/**
 * `/api/v2/stream` across processes (issue 24): an ingest publishes every stream's frames on the bus (BusFrameSink,
 * which holds frames through a broker outage; StreamKeeper holding the venue streams open and the others while edges
 * lease them; the `MD` JetStream stream keeping the window); an edge mirrors them (MirrorStreams), leases what its
 * clients hold (LeaseClient) and serves them with the unchanged fan-out (MirroredSource).
 */
export { DEFAULT_HOLD_MAX_BYTES } from './frame-hold.js'
export { BusFrameSink, mdSubjectOfTopic, type BusFrameSinkOptions, type BusPublishObserver } from './bus-frame-sink.js'
export { KEPT_CHANNELS, LEASED_CHANNELS, MIRRORED_CHANNELS } from './channels.js'
export { onBrokerBack } from './broker-back.js'
export { ensureMdStream, mdStreamConfig, type MdStreamLimits } from './md-stream.js'
export { MirrorStreams, type MirrorStreamsOptions } from './mirror-streams.js'
export { MirroredSource, type KeyResolver } from './mirrored-source.js'
export { LeaseClient, type LeasedStream } from './lease-client.js'
export { serveLeases } from './lease-responder.js'
export type { LeaseAnswer, LeaseRequest } from './leases.js'
export { streamState, type StreamState } from './stream-state.js'
export { StreamKeeper, type StreamKeeperOptions } from './stream-keeper.js'
