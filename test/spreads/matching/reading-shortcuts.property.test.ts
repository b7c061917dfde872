import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import type { Catalog } from '../../../src/model/types.js'
import { periodFacts, periodFactsAllPasses } from '../../../src/spreads/matching/periods.js'
import { contentWords, contentWordsAllPasses } from '../../../src/spreads/matching/text.js'
import { replayedCatalogs } from '../../helpers/catalogs.js'
import { REAL_CATALOG_DIR, SHORT_DATED_DIR } from '../../helpers/fixtures.js'

/**
 * Reading a contract's words and period skips the passes a text cannot match (no number, no month name, none of a
 * joined phrase's words): reading is most of a matcher build. A skipped pass must be one that would have changed
 * nothing, on real catalog text and on any text built from the pieces the passes look for.
 */

const PIECES = [
  'by',
  'before',
  'prior to',
  'on',
  'in',
  'until',
  'end of',
  'the year',
  'this year',
  'June 30',
  'Jan',
  'Sept.',
  'december',
  'May',
  '30',
  '5th',
  '2026',
  '1999',
  '2026-07-01',
  '10am ET',
  'noon ET',
  '14:00 UTC',
  'his',
  'term',
  'presidency',
  'lifetime',
  'the next election',
  'United States',
  'New York City',
  'Prime Minister',
  'leave office',
  'agree to a ceasefire',
  'trades above',
  '$100k',
  'January 2027 release',
  'Season 3',
  'Ocasio-Cortez',
  "O'Neil's",
  'Lakers',
  'Constructors',
  'valueOf',
  'vs.',
  ',',
  '?',
]

const text = fc.oneof(
  fc.array(fc.constantFrom(...PIECES), { maxLength: 9 }).map((p) => p.join(' ')),
  fc.array(fc.constantFrom(...PIECES), { maxLength: 9 }).map((p) => p.join('')),
  fc.string({ maxLength: 40 }),
)
const reference = fc.option(fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }), { nil: undefined })

test('the shortcuts of reading words and periods agree with every pass on any text', () => {
  fc.assert(
    fc.property(text, reference, (t, ref) => {
      assert.deepEqual(contentWords(t), contentWordsAllPasses(t))
      assert.deepEqual(periodFacts(t, ref), periodFactsAllPasses(t, ref))
    }),
    { numRuns: 5_000, seed: 34 },
  )
})

const catalogs: Catalog[] = []
before(async () => {
  for (const dir of [REAL_CATALOG_DIR, SHORT_DATED_DIR]) {
    const { sim, venuep, venuek } = await replayedCatalogs(dir)
    await sim.close()
    catalogs.push(venuep, venuek)
  }
})
after(() => (catalogs.length = 0))

test('the shortcuts agree with every pass on every text of the real catalogs', () => {
  let texts = 0
  for (const c of catalogs) {
    for (const e of c.events) {
      for (const m of e.markets) {
        for (const o of m.outcomes) {
          const end = o.closeTime ?? e.endTime
          for (const t of [o.title, o.details?.question ?? '', e.subtitle ?? '', e.title]) {
            texts++
            assert.deepEqual(contentWords(t), contentWordsAllPasses(t), t)
            assert.deepEqual(periodFacts(t, end), periodFactsAllPasses(t, end), t)
          }
        }
      }
    }
  }
  assert.ok(texts > 10_000, `${texts} texts read`)
})
