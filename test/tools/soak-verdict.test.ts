import assert from 'node:assert/strict'
import { test } from 'node:test'
import { judge, judgeFlat, quarters, warmUpMs, type Sample } from '../../tools/soak/verdict.js'

/** One sample every 10 s for `minutes`, `value(tSec)` for the series `s`. */
function series(minutes: number, value: (tSec: number) => number, s = 'rssMiB'): Sample[] {
  return Array.from({ length: minutes * 6 + 1 }, (_, k) => ({ atMs: k * 10_000, values: { [s]: value(k * 10) } }))
}

const baseInput = { flat: [{ series: 'rssMiB', tolerance: 0.1 }], ceilings: [], errorLines: 0, failures: [] }

test('the warm-up is 2 minutes, or 20% of a run shorter than 10 minutes', () => {
  assert.equal(warmUpMs(10 * 60_000), 120_000)
  assert.equal(warmUpMs(60 * 60_000), 120_000)
  assert.equal(warmUpMs(3 * 60_000), 36_000)
})

test('quarters take the samples of the first and last quarter of the span by time', () => {
  const pts = [0, 10, 20, 30, 40, 50, 60, 70, 80].map((t) => ({ atMs: t }))
  const { first, last } = quarters(pts)
  assert.deepEqual(
    first.map((p) => p.atMs),
    [0, 10, 20],
  )
  assert.deepEqual(
    last.map((p) => p.atMs),
    [60, 70, 80],
  )
})

test('a level that climbs during the warm-up and then stays flat passes', () => {
  // 100 → 300 MiB over the first 2 minutes, then a ±5% wobble around 300.
  const samples = series(10, (t) => (t < 120 ? 100 + (200 * t) / 120 : 300 + 15 * Math.sin(t / 7)))
  const v = judge({ ...baseInput, samples, durationMs: 600_000 })
  assert.equal(v.pass, true, v.reasons.join('; '))
  assert.equal(v.warmUpMs, 120_000)
  assert.equal(v.judged, 49)
})

test('a steady climb of 20% after the warm-up fails, and the reason gives the figures', () => {
  const samples = series(10, (t) => (t < 120 ? 300 : 300 * (1 + (0.2 * (t - 120)) / 480)))
  const v = judge({ ...baseInput, samples, durationMs: 600_000 })
  assert.equal(v.pass, false)
  assert.equal(v.reasons.length, 1)
  assert.match(v.reasons[0] as string, /^rssMiB: mean 30\d → 3[45]\d \(1\d\.\d%\)/)
})

test('a growing peak fails even when the means stay within the tolerance', () => {
  // A sawtooth whose troughs stay at 100 and whose peaks grow from 110 to 140: the mean grows < 10%, the peak 27%.
  const samples = series(10, (t) => (Math.round(t / 10) % 2 === 0 ? 100 : 110 + (30 * t) / 600), 'heapUsedMiB')
  const r = judgeFlat(samples, { series: 'heapUsedMiB', tolerance: 0.1 }, 120_000)
  assert.ok((r.lastQuarterMean as number) / (r.firstQuarterMean as number) < 1.1)
  assert.equal(r.pass, false)
})

test('a small count passes within its absolute slack and fails beyond it', () => {
  const handles = (extra: number): Sample[] => series(10, (t) => (t > 480 ? 15 + extra : 15), 'handles')
  const rule = { series: 'handles', tolerance: 0.1, slack: 5 }
  assert.equal(judgeFlat(handles(4), rule, 120_000).pass, true)
  assert.equal(judgeFlat(handles(6), rule, 120_000).pass, false)
})

test('a series with too few samples after the warm-up fails rather than passing unjudged', () => {
  const samples = series(10, () => 100).slice(0, 14)
  const r = judgeFlat(samples, { series: 'rssMiB', tolerance: 0.1 }, 120_000)
  assert.equal(r.pass, false)
  assert.match(r.detail, /only 2 samples/)
})

test('a ceiling judges only post-warm-up samples; error lines and other failures fail the run', () => {
  const samples = series(10, (t) => (t < 60 ? 500 : t === 300 ? 120 : 10), 'eldP99Ms')
  const ceiling = { series: 'eldP99Ms', max: 100 }
  const failed = judge({ ...baseInput, flat: [], ceilings: [ceiling], samples, durationMs: 600_000 })
  assert.deepEqual(failed.reasons, ['eldP99Ms: max 120 (limit 100)'])
  const calm = series(10, (t) => (t < 60 ? 500 : 10), 'eldP99Ms')
  assert.equal(judge({ ...baseInput, flat: [], ceilings: [ceiling], samples: calm, durationMs: 600_000 }).pass, true)
  const logged = judge({ ...baseInput, flat: [], ceilings: [], samples: calm, durationMs: 600_000, errorLines: 2 })
  assert.deepEqual(logged.reasons, ["2 error lines in the service's log"])
  const died = judge({ ...baseInput, flat: [], ceilings: [], samples: calm, durationMs: 600_000, failures: ['down'] })
  assert.deepEqual(died.reasons, ['down'])
})

test('a ceiling with a condition judges only the samples that meet it, and says when none did', () => {
  // Delay 300 ms while other processes took 1.5 cores, 20 ms when the machine was ours.
  const samples: Sample[] = Array.from({ length: 61 }, (_, k) => {
    const busy = k >= 30 && k < 40
    return { atMs: k * 10_000, values: { eldP99Ms: busy ? 300 : 20, foreignCores: busy ? 1.5 : 0.1 } }
  })
  const rule = {
    series: 'eldP99Ms',
    max: 100,
    onlyWhen: { series: 'foreignCores', max: 0.5, what: 'foreign CPU ≤ 0.5 cores' },
  }
  const quietOnly = judge({ ...baseInput, flat: [], ceilings: [rule], samples, durationMs: 600_000 })
  assert.equal(quietOnly.pass, true)
  assert.match(quietOnly.series[0]?.detail as string, /max 20\.0 over the 39 of 49 samples .*max of all 49: 300/)
  const slowWhenQuiet = samples.map((s) => (s.atMs === 500_000 ? { ...s, values: { ...s.values, eldP99Ms: 150 } } : s))
  assert.equal(
    judge({ ...baseInput, flat: [], ceilings: [rule], samples: slowWhenQuiet, durationMs: 600_000 }).pass,
    false,
  )
  const allBusy = samples.map((s) => ({ ...s, values: { ...s.values, foreignCores: 2 } }))
  const unjudged = judge({ ...baseInput, flat: [], ceilings: [rule], samples: allBusy, durationMs: 600_000 })
  assert.equal(unjudged.pass, true)
  assert.equal(unjudged.series[0]?.unjudged, true)
  assert.match(unjudged.series[0]?.detail as string, /^not judged/)
})

test('a heap judged without peaks passes a sawtooth whose peak grows, and the live heap after a collection decides', () => {
  const samples = series(10, (t) => (Math.round(t / 10) % 2 === 0 ? 100 : 110 + (30 * t) / 600), 'heapUsedMiB')
  const rule = { series: 'heapUsedMiB', tolerance: 0.1, peaks: false }
  assert.equal(judgeFlat(samples, rule, 120_000).pass, true)
  assert.match(judgeFlat(samples, rule, 120_000).detail, /not judged\)/)
  const input = { ...baseInput, flat: [rule], samples, durationMs: 600_000 }
  assert.equal(judge({ ...input, liveHeap: { atWarmUpMiB: 80, atEndMiB: 86, tolerance: 0.1 } }).pass, true)
  const leaking = judge({ ...input, liveHeap: { atWarmUpMiB: 80, atEndMiB: 96, tolerance: 0.1 } })
  assert.deepEqual(leaking.reasons, [
    'liveHeapMiB: heap after a full collection 80.0 MiB at the end of the warm-up → 96.0 MiB at the end (20.0%); allowed +10%',
  ])
})
