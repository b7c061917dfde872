import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { runToEnd } from '../../src/core/slices.js'
import { gramAt, normalizeSearchText, SearchIndex } from '../../src/views/search-index.js'

/**
 * The trigram index finds exactly the titles a scan with `includes` finds, in catalog order, whether built in
 * one go or in slices (the packed postings are filled across checkpoints).
 */
// '€' and the emoji (two UTF-16 code units) take trigrams past the packed 30-bit keys (gramAt).
const TITLE_CHARS = ['a', 'b', 'c', 'A', 'B', ' ', '  ', '?', '1', 'é', '€', '😀']
const title = fc.array(fc.constantFrom(...TITLE_CHARS), { maxLength: 24 }).map((cs) => cs.join(''))

function scan(titles: readonly string[], query: string): string[] {
  const q = normalizeSearchText(query)
  return titles.filter((t) => normalizeSearchText(t).includes(q))
}

test('two trigrams have the same key only when they are the same three code units', () => {
  const unit = fc.oneof(fc.integer({ min: 0, max: 1100 }), fc.integer({ min: 0, max: 0xffff }))
  const gram = fc.tuple(unit, unit, unit).map((units) => String.fromCharCode(...units))
  fc.assert(
    fc.property(gram, gram, (a, b) => assert.equal(gramAt(a, 0) === gramAt(b, 0), a === b)),
    { numRuns: 20_000, seed: 20261206 },
  )
  // Neighbours across the packed keys' 10-bit fields, and across the two kinds of key.
  const edge = [0, 1, 1023, 1024, 0xffff]
  const grams = edge.flatMap((a) => edge.flatMap((b) => edge.map((c) => String.fromCharCode(a, b, c))))
  assert.equal(new Set(grams.map((g) => gramAt(g, 0))).size, grams.length)
})

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

/**
 * An index rebuilt from its predecessor (SearchIndex.rebuild: the kept items' postings renumbered and merged with the
 * new items' straight into the packed arrays) finds what a scan of the new list finds, whatever was kept, dropped,
 * added or reordered. Items are objects: identity says which are kept.
 */
test('an index rebuilt from its predecessor finds exactly what a scan of the new list finds', () => {
  fc.assert(
    fc.property(
      fc.array(title, { maxLength: 200 }),
      fc.array(title, { maxLength: 40 }),
      fc.array(fc.boolean(), { maxLength: 200 }),
      fc.array(fc.nat(), { maxLength: 240 }),
      (titles, added, drops, order) => {
        const before = titles.map((text) => ({ text }))
        const kept = before.filter((_, i) => drops[i] !== true)
        const after = [...kept, ...added.map((text) => ({ text }))]
          .map((item, i) => ({ item, o: order[i] ?? i }))
          .sort((x, y) => x.o - y.o)
          .map((x) => x.item)
        const previous = new SearchIndex(before, (t) => t.text)
        const rebuilt = runToEnd(SearchIndex.rebuild(after, (t) => t.text, previous))
        const texts = after.map((t) => t.text)
        const pieces = [...titles, ...added].flatMap((t) => [t.slice(0, 3), t.slice(-4), t.slice(1, 5)])
        for (const q of [...pieces, 'abc', 'a b', '']) {
          // Rebuilt postings are in no particular order (ListIndex sorts what it finds): compared as sets, by index.
          const got = rebuilt
            .search(q)
            .map((t) => after.indexOf(t))
            .sort((x, y) => x - y)
          const want = texts.flatMap((t, i) => (scan([t], q).length > 0 ? [i] : []))
          assert.deepEqual(got, want, `query ${JSON.stringify(q)}`)
        }
      },
    ),
    { numRuns: 300 },
  )
})

/**
 * An index patched along a chain of versions (SearchIndex.patched: the first version's packed postings shared, the
 * items taken out skipped, the items added since indexed apart), and rebuilt from a patched one, finds what a scan of
 * each version finds: an item taken out is never found again, whether it was packed or added since.
 */
test('an index patched version after version finds exactly what a scan of each version finds', () => {
  const item = fc.record({ text: title })
  fc.assert(
    fc.property(
      fc.array(item, { maxLength: 120 }),
      fc.array(fc.record({ drops: fc.array(fc.nat(), { maxLength: 8 }), added: fc.array(item, { maxLength: 8 }) }), {
        minLength: 1,
        maxLength: 6,
      }),
      (first, steps) => {
        let items = first
        let index = new SearchIndex(items, (t) => t.text)
        const check = (version: readonly { text: string }[], searched: SearchIndex<{ text: string }>, what: string) => {
          const pieces = version.flatMap((t) => [t.text.slice(0, 3), t.text.slice(-4)])
          for (const q of [...pieces, 'abc', 'a b', '']) {
            const got = searched
              .search(q)
              .map((t) => version.indexOf(t))
              .sort((x, y) => x - y)
            const want = version.flatMap((t, i) => (scan([t.text], q).length > 0 ? [i] : []))
            assert.deepEqual(got, want, `${what}: query ${JSON.stringify(q)}`)
          }
        }
        for (const [s, step] of steps.entries()) {
          const removed = new Set(
            step.drops.map((d) => items[d % Math.max(1, items.length)]).filter((t) => t !== undefined),
          )
          const next = [...items.filter((t) => !removed.has(t)), ...step.added]
          index = runToEnd(SearchIndex.patched(index, { removed, added: step.added }, (t) => t.text))
          assert.equal(index.deltaSize >= step.added.length, true)
          items = next
          check(items, index, `version ${s + 1}`)
        }
        check(items, runToEnd(SearchIndex.rebuild(items, (t) => t.text, index)), 'rebuilt from the patched index')
      },
    ),
    { numRuns: 300 },
  )
})
