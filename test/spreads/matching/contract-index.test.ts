import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { buildCatalogSnapshot, type CatalogSnapshot } from '../../../src/actors/catalog-snapshot.js'
import type { Simulator } from '../../../src/sim/simulator.js'
import { contractsOf, SpecCache, type ContractSpec } from '../../../src/spreads/matching/contract.js'
import { RequiredWordIndex, StatedWordIndex } from '../../../src/spreads/matching/contract-index.js'
import { judge, mayMatch } from '../../../src/spreads/matching/judge.js'
import { replayedCatalogs, simulatorCatalogs } from '../../helpers/catalogs.js'

/**
 * The matcher only judges the candidates its blocking indexes give (by period day, threshold bucket and word). That
 * is safe only if the lookups are exact: every pair the judge accepts must be among the candidates, from either side.
 * Checked against every pair of two catalogs (brute force), on a simulated world and on the real captured catalogs.
 */
function contracts(c: CatalogSnapshot, cache: SpecCache): ContractSpec[] {
  return c.events.flatMap((e) => contractsOf(e, cache))
}

function checkExact(venuep: CatalogSnapshot, venuek: CatalogSnapshot): number {
  const cache = new SpecCache()
  const ps = contracts(venuep, cache)
  const ks = contracts(venuek, cache)
  const kIndex = new StatedWordIndex()
  for (const k of ks) kIndex.add(k)
  const pIndex = new RequiredWordIndex()
  for (const p of ps) pIndex.add(p, kIndex)
  const reverse = new Map(ks.map((k) => [k, new Set(pIndex.candidatesOf(k))]))
  let accepted = 0
  for (const p of ps) {
    const forward = new Set(kIndex.candidatesOf(p))
    for (const k of ks) {
      if (!mayMatch(p, k) || !judge(p, k, false).same) continue
      accepted++
      const ids = `${p.outcome.outcomeId} / ${k.outcome.outcomeId}`
      assert.ok(forward.has(k), `venuek candidate missed: ${ids}`)
      assert.ok(reverse.get(k)?.has(p), `venuep candidate missed: ${ids}`)
    }
  }
  return accepted
}

describe('blocking indexes are exact', () => {
  let world: { sim: Simulator; venuep: CatalogSnapshot; venuek: CatalogSnapshot }
  let real: { sim: Simulator; venuep: CatalogSnapshot; venuek: CatalogSnapshot }
  before(async () => {
    world = await simulatorCatalogs(200)
    const replayed = await replayedCatalogs()
    real = {
      sim: replayed.sim,
      venuep: buildCatalogSnapshot(replayed.venuep, 1),
      venuek: buildCatalogSnapshot(replayed.venuek, 1),
    }
  })
  after(async () => {
    await world?.sim.close()
    await real?.sim.close()
  })

  test('every pair the judge accepts on a simulated world is a candidate both ways', () => {
    assert.ok(checkExact(world.venuep, world.venuek) > 100)
  })

  test('every pair the judge accepts on the real captured catalogs is a candidate both ways', () => {
    assert.ok(checkExact(real.venuep, real.venuek) >= 25)
  })

  test('removing a contract takes it out of every lookup', () => {
    const cache = new SpecCache()
    const ks = contracts(world.venuek, cache)
    const ps = contracts(world.venuep, cache)
    const kIndex = new StatedWordIndex()
    for (const k of ks) kIndex.add(k)
    const p = ps.find((c) => kIndex.candidatesOf(c).length > 0) as ContractSpec
    const [k] = kIndex.candidatesOf(p)
    kIndex.remove(k as ContractSpec)
    assert.ok(!kIndex.candidatesOf(p).includes(k as ContractSpec))
    const pIndex = new RequiredWordIndex()
    pIndex.add(p, kIndex)
    const holder = ks.find((c) => pIndex.candidatesOf(c).includes(p)) as ContractSpec
    pIndex.remove(p)
    assert.deepEqual(pIndex.candidatesOf(holder), [])
  })
})
