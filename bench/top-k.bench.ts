import { FixedReverseHeap, Heap } from 'mnemonist'
import { Bench } from 'tinybench'
import { topK } from '../src/core/top-k.js'

/**
 * Our bounded top-k (src/core/top-k.ts) against mnemonist's structures for the same job, on what
 * `inOrder` (src/spreads/spread-query.ts) hands it: keyed records (a value read once, ties broken by pair id)
 * in the list order, the best 20 (a /spreads/top page) or 200 (its largest limit) of 10,000 or 100,000.
 * Standalone: `node dist/bench/top-k.bench.js` (a few seconds; not a RESULTS.md section).
 */
class Keyed {
  constructor(
    readonly value: number,
    readonly id: number,
  ) {}
}

/** The list order: value descending, then id ascending (spread-query.ts's compareKeys). */
const compare = (a: Keyed, b: Keyed): number => (a.value === b.value ? a.id - b.id : b.value > a.value ? 1 : -1)

/** Values quantized to 1e-4, so ties occur as they do between spreads, in a fixed pseudo-random order. */
function records(n: number): Keyed[] {
  let seed = n
  const next = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
    return seed / 2_147_483_648
  }
  return Array.from({ length: n }, (_, id) => new Keyed(Math.round(next() * 10_000) / 10_000, id))
}

/** heap.js sets it on the class (`Heap.nsmallest`); the typings declare it as a module function only. */
const nsmallest = (Heap as unknown as { nsmallest: <T>(compare: (a: T, b: T) => number, n: number, values: Iterable<T>) => T[] }).nsmallest

function viaFixedReverseHeap(items: readonly Keyed[], k: number): Keyed[] {
  const heap = new FixedReverseHeap<Keyed>(Array, compare, k)
  for (const item of items) heap.push(item)
  return heap.consume() as Keyed[]
}

const CASES = [
  { n: 10_000, k: 20 },
  { n: 10_000, k: 200 },
  { n: 100_000, k: 20 },
  { n: 100_000, k: 200 },
] as const

async function benchTopK(): Promise<{ name: string; meanUs: number; rme: number }[]> {
  const bench = new Bench({ name: 'top-k', time: 300, warmupTime: 100 })
  for (const { n, k } of CASES) {
    const items = records(n)
    const expected = [...items].sort(compare).slice(0, k)
    const impls = {
      'core/top-k': () => topK(items, k, compare),
      'mnemonist FixedReverseHeap': () => viaFixedReverseHeap(items, k),
      'mnemonist nsmallest': () => nsmallest(compare, k, items),
    }
    for (const [name, fn] of Object.entries(impls)) {
      const got = fn()
      if (got.length !== k || got.some((x, i) => x !== expected[i])) throw new Error(`${name}, n=${n}, k=${k}: not the sorted first ${k}`)
      bench.add(`${name}, n=${n}, k=${k}`, fn)
    }
  }
  await bench.run()
  return bench.tasks.map((t) => {
    const r = t.result
    if (r.state !== 'completed') throw new Error(`${t.name}: ${r.state}`)
    return { name: t.name, meanUs: r.latency.mean * 1000, rme: r.latency.rme }
  })
}

const rows = await benchTopK()
for (const r of rows) console.log(`${r.name.padEnd(48)} ${r.meanUs.toFixed(1).padStart(9)} µs/call ±${r.rme.toFixed(1)}%`)
