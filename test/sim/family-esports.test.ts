import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { Rng } from '../../src/sim/world/random.js'
import { esportsTeam, type EsportsTeam } from '../../src/sim/world/shapes/esports-teams.js'
import { DISCIPLINES, esportsMap, type MatchParams } from '../../src/sim/world/templates/esports.js'

/**
 * The esports map family worded as the real venues word it (the short-dated captures): the slug style one event per
 * match with a two-outcome market per map ("Counter-Strike: A vs B - Map 2 Winner", outcomes [A, B]) and handicap
 * markets; the ticker style one event per map ("B vs. A: Map 2", `KXCS2MAP-26MAY101000BA-2`) with a market per team.
 * Team names and codes follow the venues' rules (shapes/esports-teams.ts). The world-level tests
 * (family-worlds.test.ts) check the same through the simulator's wire and the ground truth.
 */
const ctx = { lifecycle: 'active' as const, createdAt: Date.UTC(2026, 4, 8) }
const MAY_10 = Date.UTC(2026, 4, 10, 16)
const MINUTE = 60_000
const counterStrike = DISCIPLINES.find((d) => d.slugPrefix === 'cs2')!
const lol = DISCIPLINES.find((d) => d.slugPrefix === 'lol')!

const kyrex: EsportsTeam = {
  label: 'Kyrex Esports',
  slugs: 'Kyrex Esports',
  tickers: 'Kyrex Esports',
  code: 'KYR',
  slugCode: 'kyr',
  short: 'KYR',
  variant: undefined,
}
const vantor: EsportsTeam = {
  label: 'Brightline Vantor Academy',
  slugs: 'Brightline Vantor Academy',
  tickers: 'Vantor Academy',
  code: 'VA',
  slugCode: 'va2',
  short: 'VA',
  variant: 'sponsor',
}
const params: MatchParams = {
  disc: counterStrike,
  a: kyrex,
  b: vantor,
  hour: 10,
  minute: 0,
  bestOf: 3,
  reversed: true,
  edge: 0,
  slugMaps: 2,
  tickerMaps: 2,
  handicaps: [{ side: 'home', line: 1.5 }],
  overrun: [0, 5, 0],
}

describe('esports maps: a match event with a market per map (slug style), an event per map (ticker style)', () => {
  const map1 = esportsMap.build(params, MAY_10, new Rng(1), ctx)
  const siblings = esportsMap.siblings!(params, MAY_10, new Rng(1), ctx)
  const map2 = siblings[0]!

  test('the ticker style: "Vantor Academy vs. Kyrex Esports: Map 2", KXCS2MAP-26MAY101000VAKYR-2, a market per team', () => {
    assert.equal(map2.tickers.seriesTicker, 'KXCS2MAP')
    assert.equal(map2.tickers.eventTicker, 'KXCS2MAP-26MAY101000VAKYR-2')
    assert.equal(map2.tickers.title, 'Vantor Academy vs. Kyrex Esports: Map 2')
    assert.equal(map2.tickers.marketTitle(0), map2.tickers.title)
    assert.equal(map2.tickers.mutuallyExclusive, true)
    assert.deepEqual(
      map2.contracts.map((c) => [c.tickersSuffix, c.tickersLabel, c.onTickers]),
      [
        ['KYR', 'Kyrex Esports', true],
        ['VA', 'Vantor Academy', true],
      ],
    )
    // 10am EDT start (14:00 UTC); map 2 ends 40 minutes into the match's second hour, 5 minutes over.
    assert.equal(map2.endTime, Date.UTC(2026, 4, 10, 14) + 105 * MINUTE)
    assert.equal(map1.endTime, Date.UTC(2026, 4, 10, 14) + 40 * MINUTE)
  })

  test('the slug style: one event cs2-kyr-va2-2026-05-10, "… - Map 2 Winner" with the teams as its two outcomes', () => {
    for (const [spec, n] of [
      [map1, 1],
      [map2, 2],
    ] as const) {
      assert.equal(spec.slugs.slug, 'cs2-kyr-va2-2026-05-10')
      assert.equal(spec.slugs.eventKey, 'cs2-kyr-va2-2026-05-10', 'one event for the match')
      assert.equal(spec.slugs.title, 'Counter-Strike: Kyrex Esports vs Brightline Vantor Academy')
      assert.deepEqual(spec.slugs.outcomes, ['Kyrex Esports', 'Brightline Vantor Academy'])
      assert.equal(
        spec.slugs.marketQuestion(0),
        `Counter-Strike: Kyrex Esports vs Brightline Vantor Academy - Map ${n} Winner`,
      )
      assert.equal(spec.slugs.marketSlug?.(0), `cs2-kyr-va2-2026-05-10-game${n}`)
      assert.equal(spec.slugs.groupItemTitle, undefined)
      assert.equal(spec.complementary, true, "the second outcome is the second team's token")
      assert.deepEqual(
        spec.slugs.tags?.map((t) => t.label),
        ['Sports', 'Esports'],
      )
    }
    // Contract 1 (token 1) is the slug style's second team, whatever order the ticker style names them in.
    assert.deepEqual(
      map2.contracts.map((c) => c.label),
      ['Kyrex Esports', 'Brightline Vantor Academy'],
    )
    assert.deepEqual([map1.facet, map2.facet], ['map 1 winner', 'map 2 winner'])
  })

  test('the handicap: "Map Handicap: VA (-1.5) vs Kyrex Esports (+1.5)", slug style only, in the match event', () => {
    const h = siblings[1]!
    assert.equal(siblings.length, 2)
    assert.equal(h.slugs.marketQuestion(0), 'Map Handicap: VA (-1.5) vs Kyrex Esports (+1.5)')
    assert.deepEqual(h.slugs.outcomes, ['VA', 'Kyrex Esports'])
    assert.equal(h.slugs.marketSlug?.(0), 'cs2-kyr-va2-2026-05-10-map-handicap-home-1pt5')
    assert.equal(h.slugs.eventKey, map1.slugs.eventKey)
    assert.deepEqual(
      h.contracts.map((c) => [c.label, c.onSlugs, c.onTickers]),
      [
        ['Brightline Vantor Academy', true, false],
        ['Kyrex Esports', true, false],
      ],
    )
    assert.equal(h.facet, 'map handicap (Brightline Vantor Academy -1.5)')
  })

  test('LoL says "Game 2 Winner" where the ticker style says "Map 2"; another game title is a decoy', () => {
    const spec = esportsMap.siblings!({ ...params, disc: lol, handicaps: [] }, MAY_10, new Rng(1), ctx)[0]!
    assert.equal(spec.slugs.marketQuestion(0), 'LoL: Kyrex Esports vs Brightline Vantor Academy - Game 2 Winner')
    assert.equal(spec.slugs.slug, 'lol-kyr-va2-2026-05-10')
    assert.equal(spec.tickers.eventTicker, 'KXLOLMAP-26MAY101000VAKYR-2')
    assert.equal(spec.tickers.title, 'Vantor Academy vs. Kyrex Esports: Map 2')
    const decoy = esportsMap.decoy!(params, MAY_10, new Rng(1), ctx)!
    assert.equal(decoy.reason, 'another game title')
    assert.notEqual(decoy.spec.slugs.slug, map1.slugs.slug)
    assert.deepEqual(
      decoy.spec.contracts.map((c) => c.label),
      map1.contracts.map((c) => c.label),
    )
  })

  test("team names and codes by the venues' rules: codes in upper case, slug codes in lower, a sponsor only in the slug style", () => {
    const rng = new Rng(5)
    const teams = Array.from({ length: 400 }, () => esportsTeam(rng))
    for (const t of teams) {
      assert.match(t.code, /^[A-Z0-9]{2,6}$/, t.tickers)
      assert.match(t.slugCode, /^[a-z0-9]{2,7}$/, t.slugs)
      assert.ok(t.short.length >= 2 && !t.short.includes('  '))
      assert.equal(t.label, t.slugs.length >= t.tickers.length ? t.slugs : t.tickers)
      if (t.variant === 'sponsor') assert.ok(t.slugs.endsWith(` ${t.tickers}`) && t.slugs !== t.tickers, t.slugs)
      if (t.variant === 'esports suffix')
        assert.ok(`${t.slugs} Esports` === t.tickers || `${t.tickers} Esports` === t.slugs)
      if (t.variant === undefined) assert.equal(t.slugs, t.tickers)
    }
    const variants = new Set(teams.map((t) => t.variant))
    assert.deepEqual(variants, new Set([undefined, 'sponsor', 'esports suffix']))
    // Initials of a multi-word name, a short word whole, or its first letters.
    assert.ok(teams.some((t) => t.tickers.includes(' ') && t.code.length === t.tickers.split(' ').length))
    assert.ok(teams.some((t) => t.code !== t.short))
  })
})
