import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { Rng } from '../../src/sim/world/random.js'
import { golfFinish } from '../../src/sim/world/templates/golf.js'

/**
 * The golf family: per tournament and finish (winner, top 5, top 10) one event on each venue with a market per player,
 * "Will X finish in the top 10 at the Y?" in the slug style; each player's finish a question of its own, the same
 * player's other finishes its hard negatives.
 */
const ctx = { lifecycle: 'active' as const, createdAt: Date.UTC(2026, 4, 3) }
const MAY_10 = Date.UTC(2026, 4, 10, 16)
const spelled = (label: string, slugs = label, tickers = label) => ({
  label,
  slugs,
  tickers,
  variant: undefined,
  key: label,
})
const params = {
  tournament: ['Harbor City Classic', 'HCC'] as const,
  players: [spelled('Alicia Moreau'), spelled('Zachary Okafor', 'Zach Okafor', 'Zachary Okafor')],
  form: [0, 0.5],
  finishes: [10, 1],
  listed: [3, 3, 1, 3],
}

describe('golf: a market per player in each finish event, each player and finish a question', () => {
  const top10 = golfFinish.build(params, MAY_10, new Rng(1), ctx)
  const siblings = golfFinish.siblings!(params, MAY_10, new Rng(1), ctx)

  test('the slug style: "Will Alicia Moreau finish in the top 10 at the Harbor City Classic?" in the top 10 group', () => {
    assert.equal(top10.slugs.marketQuestion(0), 'Will Alicia Moreau finish in the top 10 at the Harbor City Classic?')
    assert.equal(top10.slugs.title, 'Harbor City Classic: Top 10 Finish')
    assert.equal(top10.slugs.groupItemTitle?.(0), 'Alicia Moreau')
    assert.equal(top10.slugs.slug, 'harbor-city-classic-2026-top-10')
    assert.equal(top10.slugs.negRisk, false, 'ten players finish in the top 10')
  })

  test('the ticker style: a "Top 10" event of the tournament with a market per player', () => {
    assert.deepEqual(
      [top10.tickers.seriesTicker, top10.tickers.eventTicker, top10.tickers.title, top10.tickers.subTitle],
      ['KXGOLFTOP10', 'KXGOLFTOP10-HCC26', 'Harbor City Classic 2026: Top 10', 'Top 10'],
    )
    assert.deepEqual([top10.contracts[0]?.tickersLabel, top10.contracts[0]?.tickersSuffix], ['Alicia Moreau', 'AMORE'])
    // Every player of one finish shares the event on each venue (an edition's key, not another date's).
    assert.equal(siblings[1]?.tickers.eventKey, top10.tickers.eventKey)
    assert.equal(siblings[1]?.slugs.eventKey, top10.slugs.eventKey)
  })

  test('winner vs top 10 are different questions with the player as the label; names spelled apart', () => {
    const [winner, zachTop10, zachWinner] = siblings
    assert.deepEqual(
      siblings.map((s) => [s.facet, s.contracts[0]?.label]),
      [
        ['winner', 'Alicia Moreau'],
        ['top 10', 'Zachary Okafor'],
        ['winner', 'Zachary Okafor'],
      ],
    )
    assert.equal(winner?.slugs.marketQuestion(0), 'Will Alicia Moreau win the Harbor City Classic?')
    assert.deepEqual([winner?.tickers.eventTicker, winner?.tickers.mutuallyExclusive], ['KXGOLFWIN-HCC26', true])
    assert.deepEqual(
      [zachTop10?.contracts[0]?.slugsLabel, zachTop10?.contracts[0]?.tickersLabel],
      ['Zach Okafor', 'Zachary Okafor'],
    )
    // Listed as `listed` says: Zachary's top 10 on the slug style only.
    assert.deepEqual([zachTop10?.contracts[0]?.onSlugs, zachTop10?.contracts[0]?.onTickers], [true, false])
    assert.deepEqual([zachWinner?.contracts[0]?.onSlugs, zachWinner?.contracts[0]?.onTickers], [true, true])
  })
})
