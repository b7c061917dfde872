import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { Rng } from '../../src/sim/world/random.js'
import { soccerMatch } from '../../src/sim/world/templates/soccer.js'

/**
 * The football match family: the ticker style's market per team and "Tie", the slug style's three Yes/No markets
 * ("Will X win on 2026-05-10?", "Will X vs. Y end in a draw?"), and both teams to score on both venues (a sibling).
 */
const ctx = { lifecycle: 'active' as const, createdAt: Date.UTC(2026, 4, 3) }
const MAY_10 = Date.UTC(2026, 4, 10, 16)
const harbor = { label: 'Harbor City FC', slugs: 'Harbor City FC', tickers: 'Harbor City', code: 'HAR' }
const eastport = { label: 'Eastport Rovers', slugs: 'Eastport Rovers', tickers: 'Eastport Rovers', code: 'EAS' }
const params = {
  league: ['Continental Premier Division', 'CPD'] as const,
  home: harbor,
  away: eastport,
  hour: 10,
  bases: [0.3, -0.6, -0.3],
}

describe('football: win, draw and win, and both teams to score', () => {
  const spec = soccerMatch.build(params, MAY_10, new Rng(1), ctx)

  test('the ticker style: one event, a market per team and a Tie market', () => {
    assert.equal(spec.tickers.eventTicker, 'KXCPDGAME-26MAY10EASHAR')
    assert.equal(spec.tickers.title, 'Harbor City vs Eastport Rovers')
    assert.equal(spec.tickers.mutuallyExclusive, true)
    assert.deepEqual(
      spec.contracts.map((c) => [c.tickersSuffix, c.tickersLabel]),
      [
        ['HAR', 'Harbor City'],
        ['TIE', 'Tie'],
        ['EAS', 'Eastport Rovers'],
      ],
    )
  })

  test('the slug style: a neg-risk event of three Yes/No markets, the draw among them', () => {
    const s = spec.slugs
    assert.deepEqual(
      [s.title, s.slug, s.negRisk, s.outcomes],
      ['Harbor City FC vs. Eastport Rovers', 'cpd-har-eas-2026-05-10', true, undefined],
    )
    assert.deepEqual(
      spec.contracts.map((_, i) => [s.marketQuestion(i), s.groupItemTitle?.(i), s.marketSlug?.(i)]),
      [
        ['Will Harbor City FC win on 2026-05-10?', 'Harbor City FC', 'cpd-har-eas-2026-05-10-har'],
        [
          'Will Harbor City FC vs. Eastport Rovers end in a draw?',
          'Draw (Harbor City FC vs. Eastport Rovers)',
          'cpd-har-eas-2026-05-10-draw',
        ],
        ['Will Eastport Rovers win on 2026-05-10?', 'Eastport Rovers', 'cpd-har-eas-2026-05-10-eas'],
      ],
    )
    // The draw reads like the home win: a hard negative of the ground truth.
    assert.deepEqual([spec.contracts[1]?.lookalikeOf, spec.contracts[1]?.lookalikeReason], [0, 'draw vs win'])
    // Kick-off 10am EDT, full time two hours later.
    assert.equal(spec.endTime, Date.UTC(2026, 4, 10, 16))
  })

  test('both teams to score: Yes/No in the "More Markets" event, "Away at Home" in the ticker style', () => {
    const [btts] = soccerMatch.siblings!(params, MAY_10, new Rng(1), ctx)
    assert.ok(btts !== undefined)
    assert.deepEqual(
      [btts.slugs.slug, btts.slugs.marketQuestion(0), btts.slugs.outcomes],
      ['cpd-har-eas-2026-05-10-more-markets', 'Harbor City FC vs. Eastport Rovers: Both Teams to Score', ['Yes', 'No']],
    )
    assert.deepEqual(
      [btts.tickers.eventTicker, btts.tickers.title, btts.contracts[0]?.tickersLabel],
      [
        'KXCPDBTTS-26MAY10EASHAR',
        'Eastport Rovers at Harbor City: Both Teams to Score',
        'Eastport Rovers at Harbor City',
      ],
    )
    assert.equal(btts.facet, 'both teams to score')
  })
})
