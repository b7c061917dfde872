import assert from 'node:assert/strict'
import { test } from 'node:test'
import { UsageMeter } from '../../src/accounts/usage-meter.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import type { UsageDelta, UsageRepository } from '../../src/store/usage-repo.js'

/** Counting costs no store write per request: one batch per flush, exact per minute, kept when a flush fails. */
class FakeUsage {
  readonly batches: UsageDelta[][] = []
  fail = false
  pruned: number[] = []
  async add(deltas: readonly UsageDelta[]): Promise<void> {
    if (this.fail) throw new Error('down')
    this.batches.push([...deltas])
  }
  async prune(before: number): Promise<number> {
    this.pruned.push(before)
    return 0
  }
}

function setup() {
  const repo = new FakeUsage()
  const clock = new SimulatedClock(Date.UTC(2026, 10, 21, 12, 0, 30))
  const meter = new UsageMeter({
    repo: repo as unknown as UsageRepository,
    clock,
    flushMs: 10_000,
    retentionDays: 30,
    log: silentLogger,
  })
  return { repo, clock, meter }
}

test('requests are bucketed by minute as they happen and written in one batch per flush', async () => {
  const { repo, clock, meter } = setup()
  meter.start()
  const t = clock.now()
  for (let i = 0; i < 1_000; i++) meter.count('k1', 'a1', t, false)
  meter.count('k1', 'a1', t, true)
  meter.count('k2', 'a1', t, false)
  meter.count('k1', 'a1', t + 40_000, false) // next minute
  assert.equal(repo.batches.length, 0, 'nothing written per request')
  assert.equal(
    meter.pending().reduce((n, d) => n + d.requests, 0),
    1_002,
  )
  await meter.flush()
  const minute = t - (t % 60_000)
  assert.deepEqual(repo.batches, [
    [
      { keyId: 'k1', accountId: 'a1', minuteMs: minute, requests: 1_000, rateLimited: 1 },
      { keyId: 'k1', accountId: 'a1', minuteMs: minute + 60_000, requests: 1, rateLimited: 0 },
      { keyId: 'k2', accountId: 'a1', minuteMs: minute, requests: 1, rateLimited: 0 },
    ],
  ])
  assert.deepEqual(meter.pending(), [])
  assert.equal(repo.pruned.length, 1, 'old rows pruned (at most hourly)')
  await meter.stop()
})

test('a failed flush keeps its counts for the next one; stop() flushes the rest', async () => {
  const { repo, clock, meter } = setup()
  meter.count('k1', 'a1', clock.now(), false)
  repo.fail = true
  await meter.flush()
  meter.count('k1', 'a1', clock.now(), false)
  repo.fail = false
  await meter.stop()
  assert.equal(
    repo.batches.flat().reduce((n, d) => n + d.requests, 0),
    2,
  )
})
