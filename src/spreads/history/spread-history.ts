import type { SpreadHistoryConfig } from '../../config/schema.js'
import type { Clock } from '../../core/clock.js'
import type { Logger } from '../../core/logger.js'
import type { Db } from '../../store/db.js'
import { SpreadHistoryRepository } from '../../store/spread-history-repo.js'
import { HistoryRetention } from './history-retention.js'
import { HistorySampler, type SpreadChangeSource } from './history-sampler.js'

/**
 * Spread history wired together: the sampler on the engine's changes, its store, and the retention job. The app
 * starts it before the engine installs pairs (so every series starts at the pair's first value) and closes it after
 * the engine stopped and before the store closes (docs/DESIGN.md, Operations).
 */
export interface SpreadHistory {
  readonly repo: SpreadHistoryRepository
  readonly sampler: HistorySampler
  readonly retention: HistoryRetention
  /** Stops retention and writes every sampled point (graceful shutdown). */
  close(): Promise<void>
}

export interface SpreadHistoryOptions {
  readonly engine: SpreadChangeSource
  readonly db: Db
  readonly clock: Clock
  readonly log: Logger
  readonly config: SpreadHistoryConfig
  /**
   * Read the history, write none (an edge: the ingest samples and prunes the shared store). The sampler is built but
   * never started, so its stats read zero.
   */
  readonly readOnly?: boolean
}

export function startSpreadHistory(o: SpreadHistoryOptions): SpreadHistory {
  const c = o.config
  const repo = new SpreadHistoryRepository(o.db)
  const sampler = new HistorySampler({
    writer: repo,
    clock: o.clock,
    log: o.log,
    minIntervalMs: c.minIntervalMs,
    minChangeBps: c.minChangeBps,
    heartbeatMs: c.heartbeatMs,
    queueCapacity: c.queueCapacity,
    batchSize: c.batchSize,
    flushMs: c.flushMs,
    closeTimeoutMs: c.closeTimeoutMs,
  })
  const retention = new HistoryRetention({
    repo,
    clock: o.clock,
    log: o.log,
    retentionDays: c.retentionDays,
    batchSize: c.retentionBatchSize,
    maxBatches: c.retentionMaxBatches,
    intervalMs: c.retentionIntervalMs,
  })
  if (o.readOnly !== true) {
    sampler.start(o.engine)
    retention.start()
  }
  return {
    repo,
    sampler,
    retention,
    async close() {
      await retention.stop()
      await sampler.close()
    },
  }
}
