import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { buildCatalogSnapshot, type CatalogSnapshot } from '../../../src/actors/catalog-snapshot.js'
import type { Simulator } from '../../../src/sim/simulator.js'
import { contractsOf, SpecCache, type ContractSpec } from '../../../src/spreads/matching/contract.js'
import { ContestIndex } from '../../../src/spreads/matching/contest-index.js'
import { LabelIndex, RequiredWordIndex, StatedWordIndex } from '../../../src/spreads/matching/contract-index.js'
import { judge, mayMatch } from '../../../src/spreads/matching/judge.js'
import { aliasLookup, NO_ALIASES } from '../../../src/spreads/matching/names.js'
import { replayedCatalogs, simulatorCatalogs } from '../../helpers/catalogs.js'
import { SHORT_DATED_DIR } from '../../helpers/fixtures.js'

/**
 * The matcher only judges the candidates its blocking indexes give (by period day, threshold bucket and word). That
 * is safe only if the lookups are exact: every pair the judge accepts must be among the candidates, from either side.
 * Checked against every pair of two catalogs (brute force), on a simulated world and on the real captured catalogs;
 * labels that agree without a shared first word ("Zach" / "Zachary") through the label index; head-to-heads against
 * their own index (contest-index.ts), with and without reviewed aliases.
 */
function contracts(c: CatalogSnapshot, cache: SpecCache): ContractSpec[] {
  return c.events.flatMap((e) => contractsOf(e, cache))
}

function checkExact(venuep: CatalogSnapshot, venuek: CatalogSnapshot): number {
  const cache = new SpecCache()
  const ps = contracts(venuep, cache).filter((c) => c.contest === undefined)
  const ks = contracts(venuek, cache).filter((c) => c.contest === undefined)
  const kIndex = new StatedWordIndex()
  const kLabels = new LabelIndex(NO_ALIASES)
  for (const k of ks) (kIndex.add(k), kLabels.add(k))
  const pIndex = new RequiredWordIndex()
  const pLabels = new LabelIndex(NO_ALIASES)
  for (const p of ps) (pIndex.add(p, kIndex), pLabels.add(p))
  const reverse = new Map(ks.map((k) => [k, new Set([...pIndex.candidatesOf(k), ...pLabels.candidatesOf(k)])]))
  let accepted = 0
  for (const p of ps) {
    const forward = new Set([...kIndex.candidatesOf(p), ...kLabels.candidatesOf(p)])
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

/** The same for head-to-heads: every pair the judge accepts shares a block of the contest index, both ways. */
function checkContestsExact(venuep: CatalogSnapshot, venuek: CatalogSnapshot, aliases = NO_ALIASES): number {
  const cache = new SpecCache()
  cache.aliases = aliases
  const ps = contracts(venuep, cache).filter((c) => c.contest !== undefined)
  const ks = contracts(venuek, cache).filter((c) => c.contest !== undefined)
  const kIndex = new ContestIndex(aliases)
  for (const k of ks) kIndex.add(k)
  const pIndex = new ContestIndex(aliases)
  for (const p of ps) pIndex.add(p)
  let accepted = 0
  for (const p of ps) {
    const forward = new Set(kIndex.candidatesOf(p))
    for (const k of ks) {
      if (!judge(p, k, false, aliases).same) continue
      accepted++
      const ids = `${p.outcome.outcomeId} / ${k.outcome.outcomeId}`
      assert.ok(forward.has(k), `venuek candidate missed: ${ids}`)
      assert.ok(pIndex.candidatesOf(k).includes(p), `venuep candidate missed: ${ids}`)
    }
  }
  return accepted
}

describe('blocking indexes are exact', () => {
  let world: { sim: Simulator; venuep: CatalogSnapshot; venuek: CatalogSnapshot }
  let real: { sim: Simulator; venuep: CatalogSnapshot; venuek: CatalogSnapshot }
  let short: { sim: Simulator; venuep: CatalogSnapshot; venuek: CatalogSnapshot }
  before(async () => {
    world = await simulatorCatalogs(200)
    const snapshots = async (dir?: string) => {
      const r = await replayedCatalogs(dir)
      return { sim: r.sim, venuep: buildCatalogSnapshot(r.venuep, 1), venuek: buildCatalogSnapshot(r.venuek, 1) }
    }
    real = await snapshots()
    short = await snapshots(SHORT_DATED_DIR)
  })
  after(async () => {
    await world?.sim.close()
    await real?.sim.close()
    await short?.sim.close()
  })

  test('every head-to-head pair the judge accepts is a candidate both ways (short-dated week, simulated world)', () => {
    assert.ok(checkContestsExact(short.venuep, short.venuek) >= 90)
    assert.ok(checkContestsExact(world.venuep, world.venuek) > 0)
    // An alias group joins names that share no letter: the index holds the group too.
    const aliases = aliasLookup([['MOUZ NXT', 'Quartz Academy']])
    assert.ok(checkContestsExact(short.venuep, short.venuek, aliases) >= 90)
  })

  test('every word pair the judge accepts on the short-dated week is a candidate both ways', () => {
    assert.ok(checkExact(short.venuep, short.venuek) >= 93)
  })

  test('every pair the judge accepts on a simulated world is a candidate both ways', () => {
    assert.ok(checkExact(world.venuep, world.venuek) > 100)
  })

  test('labels that agree without a first word in common are candidates both ways (a larger simulated world)', async () => {
    const larger = await simulatorCatalogs(900, 7)
    try {
      assert.ok(checkExact(larger.venuep, larger.venuek) > 300)
    } finally {
      await larger.sim.close()
    }
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
