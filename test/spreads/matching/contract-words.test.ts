import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Simulator } from '../../../src/sim/simulator.js'
import type { Catalog } from '../../../src/model/types.js'
import {
  readingKey,
  readingsOf,
  sameReading,
  SpecCache,
  type ContractSpec,
} from '../../../src/spreads/matching/contract.js'
import { replayedCatalogs } from '../../helpers/catalogs.js'
import { SHORT_DATED_DIR } from '../../helpers/fixtures.js'

/**
 * A contract's word sets are arrays (contract.ts TextReading: a third of a contract's memory went to three Sets), so
 * what a Set guaranteed is the reader's to keep: each holds distinct words (the word indexes add and pull a contract
 * once per word), `allWords` holds `words`, and `labelWords` the label's words. Checked on every contract of the real
 * short-dated week, both venues, as the service reads them.
 */
let sim: Simulator
let catalogs: Catalog[]

before(async () => {
  const replayed = await replayedCatalogs(SHORT_DATED_DIR)
  sim = replayed.sim
  catalogs = [replayed.venuep, replayed.venuek]
})

after(async () => {
  await sim?.close()
})

function contractsOf(catalog: Catalog): ContractSpec[] {
  const cache = new SpecCache()
  return catalog.events.flatMap((e) => readingsOf(e).map((r) => cache.spec(r)))
}

const distinct = (words: readonly string[]) => new Set(words).size === words.length

describe('contract word sets', () => {
  test('distinct words; allWords holds words; labelWords is the set of the label sequence', () => {
    let checked = 0
    for (const catalog of catalogs) {
      for (const c of contractsOf(catalog)) {
        const where = `${catalog.venue} ${c.outcome.outcomeId} (${c.texts.join(' | ')})`
        assert.ok(distinct(c.words) && distinct(c.allWords) && distinct(c.labelWords), where)
        assert.ok(
          c.words.every((w) => c.allWords.includes(w)),
          where,
        )
        assert.deepEqual([...c.labelWords].sort(), [...new Set(c.labelSequence)].sort(), where)
        checked++
      }
    }
    assert.ok(checked > 500, `${checked} contracts`)
  })

  test('a reading read again is the same reading; one text changed is not, and its key differs', () => {
    const [event] = catalogs[1]?.events ?? []
    assert.ok(event !== undefined)
    const [r] = readingsOf(event)
    assert.ok(r !== undefined)
    const held = new SpecCache().spec(r)
    const [again] = readingsOf(structuredClone(event))
    assert.ok(again !== undefined && sameReading(held, again), 'equal texts in other string objects')
    const retitled = readingsOf({ ...event, title: `${event.title} (rescheduled)` })[0]
    assert.ok(retitled !== undefined && !sameReading(held, retitled))
    assert.notEqual(readingKey(retitled), readingKey(r))
    assert.equal(readingKey(again), readingKey(r))
  })

  test('equal parts of readings are held once, and pooling them changes no reading', () => {
    // reading-parts.ts: at real size the word lists, period keys and periods of a family's contracts are mostly equal.
    const fields = ['words', 'allWords', 'required', 'blocking', 'periodKeys', 'period', 'interval'] as const
    for (const catalog of catalogs) {
      const pooled = contractsOf(catalog)
      for (const field of fields) {
        const objects = new Set(pooled.map((c) => c[field]).filter((x) => x !== undefined))
        const contents = new Set([...objects].map((x) => JSON.stringify(x)))
        assert.equal(objects.size, contents.size, `${catalog.venue} ${field}: one object per content`)
      }
      const sides = pooled.flatMap((c) => (c.contest === undefined ? [] : [c.contest.participants]))
      assert.equal(
        new Set(sides).size,
        new Set(sides.map((p) => JSON.stringify(p))).size,
        `${catalog.venue}: one participants pair per content`,
      )
      // Each contract read alone (a cache of its own: nothing to share with) reads the same.
      const readings = catalog.events.flatMap((e) => readingsOf(e))
      assert.equal(readings.length, pooled.length)
      readings.forEach((r, i) => {
        const alone = new SpecCache().spec(r)
        const shared = pooled[i] as ContractSpec
        for (const field of [...fields, 'contest', 'labelWords', 'labelSequence'] as const)
          assert.deepEqual(shared[field], alone[field], `${catalog.venue} ${r.outcome.outcomeId} ${field}`)
      })
    }
  })
})
