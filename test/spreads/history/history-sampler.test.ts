import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { SimulatedClock } from '../../../src/core/clock.js'
import { silentLogger } from '../../../src/core/logger.js'
import type { VenueId } from '../../../src/model/types.js'
import { HistorySampler, type HistorySamplerOptions } from '../../../src/spreads/history/history-sampler.js'
import type { SpreadChange, SpreadPairSpec, SpreadRecord } from '../../../src/spreads/engine/spread-engine.js'
import type { HistoryPoint } from '../../../src/store/spread-history-repo.js'

/**
 * The sampler's rules on hand-made engine changes and a fake store: what is recorded, the per-pair rate limit (the
 * latest value is written when the window opens), batching off the hot path, retries, overflow and close.
 */
const T0 = Date.UTC(2026, 10, 21, 12)
const SEC = 1_000

class FakeWriter {
  readonly batches: HistoryPoint[][] = []
  attempts = 0
  /** An error to throw on the next writes (undefined: succeed). */
  failWith: Error | undefined
  async insert(points: readonly HistoryPoint[]): Promise<void> {
    this.attempts++
    if (this.failWith !== undefined) throw this.failWith
    this.batches.push(points.map((p) => ({ ...p })))
  }
  get points(): HistoryPoint[] {
    return this.batches.flat()
  }
}

function spec(pair: string): SpreadPairSpec {
  return { key: `ev|${pair}`, eventSlug: 'ev', outcomeKey: pair } as SpreadPairSpec
}

/** A change of `pair` to prices (a, b) with `a` on platform A (the engine orders them: a ≤ b). */
function change(pair: string, a: number, b: number, platformA: VenueId = 'venuep'): SpreadChange {
  const spread = Math.round((b - a) * 1e6) / 1e6
  const record = {
    key: `ev|${pair}`,
    eventSlug: 'ev',
    outcomeKey: pair,
    priceA: a,
    priceB: b,
    spread,
    spreadBps: Math.round(spread * 1e8) / 1e4,
    platformA,
  } as SpreadRecord
  return { spec: spec(pair), record }
}

function gone(pair: string): SpreadChange {
  return { spec: spec(pair), record: undefined }
}

function setup(overrides: Partial<HistorySamplerOptions> = {}) {
  const clock = new SimulatedClock(T0)
  const writer = new FakeWriter()
  const sampler = new HistorySampler({
    writer,
    clock,
    log: silentLogger,
    minIntervalMs: 60 * SEC,
    minChangeBps: 10,
    heartbeatMs: 3_600 * SEC,
    queueCapacity: 1_000,
    batchSize: 100,
    flushMs: SEC,
    closeTimeoutMs: 10 * SEC,
    retryBaseMs: 500,
    retryMaxMs: 8_000,
    random: () => 0.999,
    ...overrides,
  })
  const subscribers: ((c: readonly SpreadChange[]) => void)[] = []
  sampler.start({ subscribe: (l) => (subscribers.push(l), () => subscribers.splice(subscribers.indexOf(l), 1)) })
  /** The engine publishing changes at the current simulated time. */
  const emit = (...changes: SpreadChange[]) => subscribers.forEach((l) => l(changes))
  /** Moves simulated time (flush ticks run) and lets the writes they started finish. */
  const advance = async (ms: number) => {
    clock.increment(ms)
    await tick()
  }
  return { clock, writer, sampler, emit, advance, subscribers }
}

/** Lets promise continuations and setImmediate callbacks run (no simulated time passes). */
const tick = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)))

const values = (points: readonly HistoryPoint[]) =>
  points.map((p) => [p.outcomeKey, p.at - T0, p.spreadBps, p.priceA, p.priceB, p.platformA])

describe('what is recorded', () => {
  test('the first value, then moves of at least minChangeBps; smaller moves are not points', async () => {
    const { writer, sampler, emit, advance } = setup()
    emit(change('x', 0.4, 0.45)) // first value: 500 bps
    await advance(61 * SEC)
    emit(change('x', 0.4, 0.4505)) // +5 bps: not meaningful
    await advance(61 * SEC)
    emit(change('x', 0.4, 0.451)) // +10 bps against the last point: recorded
    await advance(61 * SEC)
    emit(change('x', 0.41, 0.461)) // both prices moved, spread unchanged: not a point
    await sampler.flush()
    assert.deepEqual(values(writer.points), [
      ['x', 0, 500, 0.4, 0.45, 'venuep'],
      ['x', 122 * SEC, 510, 0.4, 0.451, 'venuep'],
    ])
    assert.equal(sampler.stats().changes, 4)
  })

  test('a flip of the cheaper venue is recorded however small the move', async () => {
    const { writer, sampler, emit, advance } = setup()
    emit(change('x', 0.5, 0.5002, 'venuep'))
    await advance(61 * SEC)
    emit(change('x', 0.4999, 0.5, 'venuek'))
    await sampler.flush()
    assert.deepEqual(values(writer.points), [
      ['x', 0, 2, 0.5, 0.5002, 'venuep'],
      ['x', 61 * SEC, 1, 0.4999, 0.5, 'venuek'],
    ])
  })

  test('after heartbeatMs, any price move is recorded (slow drift shows); an unchanged value never is', async () => {
    const { writer, sampler, emit, advance } = setup()
    emit(change('x', 0.4, 0.45))
    await advance(3_600 * SEC)
    emit(change('x', 0.4, 0.45)) // a re-score: same prices
    emit(change('x', 0.4001, 0.4501)) // drift below the threshold, but the last point is an hour old
    await sampler.flush()
    assert.deepEqual(values(writer.points), [
      ['x', 0, 500, 0.4, 0.45, 'venuep'],
      ['x', 3_600 * SEC, 500, 0.4001, 0.4501, 'venuep'],
    ])
  })

  test('a pair without a record records nothing; records with impossible values are skipped and counted', async () => {
    const { writer, sampler, emit } = setup()
    emit(gone('x'), change('y', 0.6, 0.5), change('z', 0.2, Number.NaN))
    await sampler.flush()
    assert.deepEqual(writer.points, [])
    assert.equal(sampler.stats().invalid, 2)
  })
})

describe('rate limit per pair', () => {
  test('one point per window; changes inside it are held back and the newest is written when it opens', async () => {
    const { writer, sampler, emit, advance } = setup()
    emit(change('x', 0.4, 0.45)) // t=0: written
    await advance(10 * SEC)
    emit(change('x', 0.4, 0.47)) // t=10: meaningful, held back
    await advance(10 * SEC)
    emit(change('x', 0.4, 0.46)) // t=20: replaces it
    await advance(10 * SEC)
    emit(change('x', 0.4, 0.4605)) // t=30: the newest value (not itself meaningful against 0.46: still kept)
    await advance(29 * SEC)
    assert.deepEqual(
      values(writer.points),
      [['x', 0, 500, 0.4, 0.45, 'venuep']],
      'nothing more before the window opens',
    )
    assert.equal(sampler.stats().waiting, 1)
    await advance(1 * SEC) // t=60: the window opens at the flush tick
    assert.deepEqual(
      values(writer.points),
      [
        ['x', 0, 500, 0.4, 0.45, 'venuep'],
        ['x', 30 * SEC, 605, 0.4, 0.4605, 'venuep'],
      ],
      'the series ends at the latest value, stamped when the spread took it',
    )
    assert.equal(sampler.stats().deferred, 3)
    assert.equal(sampler.stats().waiting, 0)
    // The next window runs from when the held-back value was queued (t=60).
    emit(change('x', 0.4, 0.5))
    await advance(59 * SEC)
    assert.equal(writer.points.length, 2)
    await advance(1 * SEC)
    assert.deepEqual(values(writer.points).at(-1), ['x', 60 * SEC, 1000, 0.4, 0.5, 'venuep'])
  })

  test('a change after the window opened writes at once, with the newest value', async () => {
    const { writer, sampler, emit, clock } = setup({ flushMs: 3_600 * SEC })
    emit(change('x', 0.4, 0.45))
    clock.increment(30 * SEC)
    emit(change('x', 0.4, 0.47))
    clock.increment(40 * SEC)
    emit(change('x', 0.4, 0.48)) // t=70: window open; the held-back value is replaced and written now
    await sampler.flush()
    assert.deepEqual(values(writer.points), [
      ['x', 0, 500, 0.4, 0.45, 'venuep'],
      ['x', 70 * SEC, 800, 0.4, 0.48, 'venuep'],
    ])
  })

  test('a held-back value that came back to the last point is not written', async () => {
    const { writer, sampler, emit, advance } = setup()
    emit(change('x', 0.4, 0.45))
    await advance(10 * SEC)
    emit(change('x', 0.4, 0.47))
    await advance(10 * SEC)
    emit(change('x', 0.4, 0.45))
    await advance(60 * SEC)
    await sampler.flush()
    assert.equal(writer.points.length, 1)
  })

  test('pairs are limited independently', async () => {
    const { writer, sampler, emit, advance } = setup()
    emit(change('x', 0.4, 0.45))
    await advance(30 * SEC)
    emit(change('y', 0.1, 0.2), change('x', 0.4, 0.5))
    await sampler.flush()
    assert.deepEqual(
      values(writer.points).map((v) => [v[0], v[1]]),
      [
        ['x', 0],
        ['y', 30 * SEC],
      ],
      'y is new; x waits for its window',
    )
  })

  test('losing the record and getting it back does not bypass the limit', async () => {
    const { writer, sampler, emit, advance } = setup()
    emit(change('x', 0.4, 0.45))
    await advance(10 * SEC)
    emit(gone('x'))
    emit(change('x', 0.4, 0.5))
    await advance(10 * SEC)
    assert.equal(writer.points.length, 1)
    await advance(40 * SEC)
    assert.deepEqual(values(writer.points).at(-1), ['x', 10 * SEC, 1000, 0.4, 0.5, 'venuep'])
  })
})

describe('writing', () => {
  test('observe does no write and no await: points are written in batches by the flush tick or a full batch', async () => {
    const { writer, sampler, emit, advance } = setup({ batchSize: 3 })
    emit(change('a', 0.1, 0.2), change('b', 0.1, 0.2))
    assert.equal(writer.attempts, 0, "nothing written inside the engine's turn")
    await tick()
    assert.equal(writer.attempts, 0, 'two points: below the batch size, wait for the tick')
    await advance(SEC)
    assert.deepEqual(
      writer.batches.map((b) => b.length),
      [2],
    )
    emit(...['c', 'd', 'e', 'f', 'g', 'h', 'i'].map((p) => change(p, 0.1, 0.2)))
    assert.equal(writer.attempts, 1, 'still nothing written synchronously')
    await tick()
    assert.deepEqual(
      writer.batches.map((b) => b.length),
      [2, 3, 3, 1],
      'a full batch is written without waiting for the tick, the rest with it',
    )
    assert.equal(sampler.stats().written, 9)
    assert.equal(sampler.stats().batches, 4)
  })

  test('a failed write keeps its points and is retried with capped exponential backoff', async () => {
    const { writer, sampler, emit, advance } = setup()
    writer.failWith = new Error('connection refused')
    emit(change('a', 0.1, 0.2))
    await advance(SEC) // tick: attempt 1 fails, retry in ~500 ms
    assert.equal(writer.attempts, 1)
    await advance(400)
    assert.equal(writer.attempts, 1, 'not before the backoff')
    await advance(100) // attempt 2 fails, retry in ~1 s
    assert.equal(writer.attempts, 2)
    await advance(900)
    assert.equal(writer.attempts, 2)
    writer.failWith = undefined
    await advance(100)
    assert.equal(writer.attempts, 3)
    assert.deepEqual(values(writer.points), [['a', 0, 1000, 0.1, 0.2, 'venuep']])
    assert.deepEqual(
      { ...sampler.stats(), changes: 0 },
      {
        changes: 0,
        accepted: 1,
        deferred: 0,
        written: 1,
        batches: 1,
        writeFailures: 2,
        rejected: 0,
        lost: 0,
        invalid: 0,
        observeErrors: 0,
        thinned: 0,
        dropped: 0,
        queued: 0,
        waiting: 0,
        pairs: 1,
      },
    )
  })

  test('a batch the store rejects as invalid data is dropped and counted, not retried forever', async () => {
    const { writer, sampler, emit, advance } = setup()
    writer.failWith = Object.assign(new Error('new row violates check constraint'), { code: '23514' })
    emit(change('a', 0.1, 0.2))
    await advance(SEC)
    writer.failWith = undefined
    emit(change('b', 0.1, 0.2))
    await advance(SEC)
    assert.deepEqual(
      values(writer.points).map((v) => v[0]),
      ['b'],
    )
    assert.equal(sampler.stats().rejected, 1)
    assert.equal(writer.attempts, 2)
  })

  test('during an outage the queue stays bounded: superseded points are thinned first, then the oldest dropped', async () => {
    const { writer, sampler, emit, advance } = setup({ queueCapacity: 4, minIntervalMs: SEC, retryMaxMs: 60_000 })
    writer.failWith = new Error('down')
    emit(change('a', 0.1, 0.2), change('b', 0.1, 0.2), change('c', 0.1, 0.2)) // t=0
    await advance(SEC) // the write fails: all three stay queued
    emit(change('a', 0.1, 0.3)) // t=1: queue a1 b1 c1 a2 (full)
    await advance(SEC)
    emit(change('d', 0.1, 0.2)) // t=2: a1 is superseded by a2 → thinned
    await advance(SEC)
    emit(change('e', 0.1, 0.2)) // t=3: every point is its pair's latest → the oldest (b1) dropped
    const s = sampler.stats()
    assert.deepEqual([s.queued, s.thinned, s.dropped], [4, 1, 1])
    writer.failWith = undefined
    await sampler.flush()
    assert.deepEqual(
      values(writer.points)
        .map((v) => `${v[0]}@${Number(v[1]) / SEC}`)
        .sort(),
      ['a@1', 'c@0', 'd@2', 'e@3'],
    )
  })
})

describe('close', () => {
  test('writes everything queued and every held-back value; nothing accepted is lost; later changes are ignored', async () => {
    const { writer, sampler, emit, advance, subscribers } = setup({ batchSize: 7 })
    for (let i = 0; i < 50; i++) emit(change(`p${i}`, 0.1, 0.2))
    await advance(10 * SEC)
    for (let i = 0; i < 50; i += 2) emit(change(`p${i}`, 0.1, 0.3)) // held back by the window
    assert.equal(sampler.stats().waiting, 25)
    await sampler.close()
    assert.equal(subscribers.length, 0, 'unsubscribed')
    assert.equal(writer.points.length, 75)
    const last = new Map(writer.points.map((p) => [p.outcomeKey, p.priceB]))
    for (let i = 0; i < 50; i++)
      assert.equal(last.get(`p${i}`), i % 2 === 0 ? 0.3 : 0.2, `p${i} ends at its latest value`)
    const s = sampler.stats()
    assert.deepEqual([s.accepted, s.written, s.queued, s.lost, s.dropped, s.thinned], [75, 75, 0, 0, 0, 0])
    sampler.observe([change('late', 0.1, 0.2)])
    await sampler.close()
    assert.equal(writer.points.length, 75)
  })

  test('a store that comes back within closeTimeoutMs loses nothing', async () => {
    const { writer, sampler, emit, clock } = setup()
    emit(change('a', 0.1, 0.2))
    writer.failWith = new Error('down')
    const closing = sampler.close()
    await tick()
    clock.increment(2 * SEC)
    await tick()
    writer.failWith = undefined
    while (writer.batches.length === 0) {
      clock.increment(500)
      await tick()
    }
    await closing
    assert.ok(writer.attempts >= 3, `failed, retried, then written (${writer.attempts} attempts)`)
    assert.deepEqual(values(writer.points), [['a', 0, 1000, 0.1, 0.2, 'venuep']])
    assert.equal(sampler.stats().lost, 0)
  })

  test('a store still down after closeTimeoutMs: close gives up, and counts what it lost', async () => {
    const { writer, sampler, emit, clock } = setup({ closeTimeoutMs: 5 * SEC })
    emit(change('a', 0.1, 0.2), change('b', 0.1, 0.2))
    writer.failWith = new Error('down')
    let done = false
    const closing = sampler.close().then(() => (done = true))
    while (!done) {
      clock.increment(250)
      await tick()
    }
    await closing
    assert.equal(sampler.stats().lost, 2)
    assert.ok(clock.now() - T0 >= 5 * SEC && clock.now() - T0 < 7 * SEC, 'bounded by closeTimeoutMs')
  })
})
