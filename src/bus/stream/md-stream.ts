import {
  DiscardPolicy,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  type JetStreamManager,
  type StreamConfig,
} from '@nats-io/jetstream'
import { MD_STREAM } from '../subjects.js'

/**
 * The JetStream stream that keeps the resume window of every mirrored stream: all `md.>` subjects, on file, each
 * subject (one stream of the protocol) holding its last `windowFrames` frames no older than `windowMs`, the
 * oldest discarded first. An edge that starts late reads the window back from it; the ingest's keyframes (see
 * StreamKeeper) make sure it holds a full state of every stream.
 *
 * Created, or updated to these limits, by whoever starts first (ingest or edge): both ask for the same.
 */
export interface MdStreamLimits {
  readonly windowMs: number
  readonly windowFrames: number
}

export function mdStreamConfig(limits: MdStreamLimits): Partial<StreamConfig> & { name: string } {
  return {
    name: MD_STREAM,
    subjects: ['md.>'],
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    discard: DiscardPolicy.Old,
    max_age: limits.windowMs * 1_000_000,
    max_msgs_per_subject: limits.windowFrames,
    num_replicas: 1,
  }
}

/** Creates the `MD` stream, or updates an existing one to these limits. */
export async function ensureMdStream(jsm: JetStreamManager, limits: MdStreamLimits): Promise<void> {
  const config = mdStreamConfig(limits)
  try {
    await jsm.streams.info(MD_STREAM)
  } catch (err) {
    if (!(err instanceof JetStreamApiError) || err.status !== 404) throw err
    await jsm.streams.add(config)
    return
  }
  await jsm.streams.update(MD_STREAM, config)
}
