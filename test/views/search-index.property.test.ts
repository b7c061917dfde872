import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { runToEnd } from '../../src/core/slices.js'
import { normalizeSearchText, SearchIndex } from '../../src/views/search-index.js'

/**
 * The trigram index finds exactly the titles a scan with `includes` finds, in catalog order, whether built in
 * one go or in slices (the packed postings are filled across checkpoints).
 */
const TITLE_CHARS = ['a', 'b', 'c', 'A', 'B', ' ', '  ', '?', '1', 'é']
const title = fc.array(fc.constantFrom(...TITLE_CHARS), { maxLength: 24 }).map((cs) => cs.join(''))

function scan(titles: readonly string[], query: string): string[] {
  const q = normalizeSearchText(query)
  return titles.filter((t) => normalizeSearchText(t).includes(q))
}

test('search finds exactly what a scan finds, in catalog order, built at once or in slices', () => {
  fc.assert(
    fc.property(
      fc.array(title, { maxLength: 300 }),
      fc.array(fc.oneof(title, fc.constantFrom('abc', 'a b', 'zzz', '')), { minLength: 1, maxLength: 8 }),
      (titles, queries) => {
        const direct = new SearchIndex(titles, (t) => t)
        const sliced = runToEnd(SearchIndex.build(titles, (t) => t))
        // Pieces of the titles themselves reach every trigram list, the last packed one included.
        const pieces = titles.flatMap((t) => [t.slice(0, 3), t.slice(-4), t.slice(2, 7)])
        for (const q of [...queries, ...pieces]) {
          const expected = scan(titles, q)
          assert.deepEqual(direct.search(q), expected, `query ${JSON.stringify(q)}`)
          assert.deepEqual(sliced.search(q), expected, `query ${JSON.stringify(q)} (sliced)`)
        }
      },
    ),
    { numRuns: 300, seed: 20261126 },
  )
})
