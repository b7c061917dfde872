import assert from 'node:assert/strict'
import { test } from 'node:test'
import { runToEnd } from '../../src/core/slices.js'
import { ListIndex } from '../../src/views/list-index.js'
import { Rng } from '../../src/sim/world/random.js'

/** ListIndex against a brute-force filter + sort on random records (unknown keys, ties, every combination). */
interface Rec {
  id: string
  status: string
  category: string
  title: string
  volume: number | undefined
  created: number | undefined
}

function brute(
  items: readonly Rec[],
  q: {
    status: string
    category?: string
    search?: string
    sort: 'volume' | 'created'
    order: 'asc' | 'desc'
    min?: number
  },
): Rec[] {
  const s = q.search?.toLowerCase()
  return items
    .filter(
      (r) => (q.status === 'all' || r.status === q.status) && (q.category === undefined || r.category === q.category),
    )
    .filter((r) => s === undefined || r.title.toLowerCase().includes(s))
    .filter((r) => q.min === undefined || (r.volume !== undefined && r.volume >= q.min))
    .sort((a, b) => {
      const ka = a[q.sort]
      const kb = b[q.sort]
      if (ka === undefined || kb === undefined) {
        if (ka !== kb) return ka === undefined ? 1 : -1
      } else if (ka !== kb) return q.order === 'asc' ? ka - kb : kb - ka
      return a.id < b.id ? -1 : 1
    })
}

test('every query equals brute force, pages included', () => {
  const rng = new Rng(11)
  const words = ['alpha', 'Beta', 'gamma', 'DELTA', 'epsilon']
  const items: Rec[] = Array.from({ length: 400 }, (_, i) => ({
    id: `r${String(i).padStart(4, '0')}`,
    status: rng.pick(['active', 'closed', 'resolved']),
    category: rng.pick(['a', 'b', 'c']),
    title: `${rng.pick(words)} ${rng.pick(words)} ${i}`,
    volume: rng.chance(0.15) ? undefined : rng.int(0, 40) * 10,
    created: rng.chance(0.1) ? undefined : rng.int(0, 50),
  }))
  const lazy = new ListIndex(items, { volume: (r) => r.volume, created: (r) => r.created }, (r) => r.title)
  // Prepared in the background as the read models do: base orderings, id map and search index built up front.
  const prepared = new ListIndex(items, { volume: (r) => r.volume, created: (r) => r.created }, (r) => r.title)
  runToEnd(prepared.prepareSteps())
  for (let n = 0; n < 1200; n++) {
    const index = n % 2 === 0 ? lazy : prepared
    const q = {
      status: rng.pick(['all', 'active', 'closed', 'resolved']),
      category: rng.chance(0.5) ? undefined : rng.pick(['a', 'b', 'c', 'zzz']),
      search: rng.chance(0.7) ? undefined : rng.pick(['ALP', 'ta g', 'eps', 'mm', '12', 'nope']),
      sort: rng.pick(['volume', 'created'] as const),
      order: rng.pick(['asc', 'desc'] as const),
      min: rng.chance(0.6) ? undefined : rng.int(0, 45) * 10,
      offset: rng.int(0, 60),
      limit: rng.int(1, 30),
    }
    const expected = brute(items, q)
    const got = index.query({ ...q, atLeast: q.min === undefined ? undefined : { key: 'volume', value: q.min } })
    assert.equal(got.total, expected.length, JSON.stringify(q))
    assert.deepEqual(
      got.items.map((r) => r.id),
      expected.slice(q.offset, q.offset + q.limit).map((r) => r.id),
      JSON.stringify(q),
    )
  }
})
