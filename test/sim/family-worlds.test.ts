import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { loadConfig } from '../../src/config/load.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { startSimulator, type Simulator } from '../../src/sim/simulator.js'
import type { TruePair } from '../../src/sim/world/types.js'

/**
 * The short-dated families in a seeded world, read from what the simulator serves on each venue's wire: hourly crypto
 * ladders, esports maps, football matches and golf finishes on both venues in the real shapes, the ground truth pairing each venuek
 * market with the venuep token of the same contract (for a map, the outcome naming the venuek market's team, index 0
 * or 1), and the families' near misses recorded as hard negatives. The templates' own wording is in family-*.test.ts.
 */
const ANCHOR_MS = Date.UTC(2026, 10, 21, 12)
type Json = Record<string, any>

let sim: Simulator
/** Served venuep token → its event, market and index; served venuek ticker → its market and event. */
const vpTokens = new Map<string, { event: Json; market: Json; index: number }>()
const vkMarkets = new Map<string, { event: Json; market: Json }>()

async function get(url: string): Promise<any> {
  const res = await fetch(url)
  assert.equal(res.status, 200, url)
  return res.json()
}

before(async () => {
  const config = loadConfig({ env: { NODE_ENV: 'test' } })
  sim = await startSimulator({
    config: { ...config.sim, questions: 600, seed: 21, venuekAuth: false },
    clock: new SimulatedClock(ANCHOR_MS),
    anchorMs: ANCHOR_MS,
    startEngine: false,
  })
  for (let offset = 0; ; offset += 500) {
    const page = (await get(`${sim.venuep.urls.gamma}/events?limit=500&offset=${offset}`)) as Json[]
    for (const event of page)
      for (const market of event.markets)
        (JSON.parse(market.clobTokenIds) as string[]).forEach((t, index) => vpTokens.set(t, { event, market, index }))
    if (page.length < 500) break
  }
  for (let cursor = ''; ;) {
    const page = await get(`${sim.venuek.urls.rest}/events?with_nested_markets=true&limit=200&cursor=${cursor}`)
    for (const event of page.events) for (const market of event.markets) vkMarkets.set(market.ticker, { event, market })
    cursor = page.cursor
    if (cursor === '') break
  }
})

after(async () => {
  await sim?.close()
})

const HOURLY = /^KX(BTC|ETH|SOL)D-\d{2}[A-Z]{3}\d{4}$/
const MAPS = /^KX[A-Z0-9]+MAP-\d{2}[A-Z]{3}\d{6}[A-Z0-9]+-\d$/
const pairsOf = (re: RegExp): TruePair[] => sim.world.truth.outcomePairs.filter((p) => re.test(p.b.event))
const served = (p: TruePair) => ({ vp: vpTokens.get(p.a.outcome)!, vk: vkMarkets.get(p.b.outcome)! })

describe('hourly crypto in a seeded world', () => {
  test('both venues list it; the first pair of seed 21 reads as the real venues word it', () => {
    const pairs = pairsOf(HOURLY)
    assert.ok(pairs.length > 50, `${pairs.length} hourly pairs`)
    const { vp, vk } = served(pairs[0]!)
    assert.deepEqual(
      [vk.event.event_ticker, vk.event.title, vk.market.ticker, vk.market.yes_sub_title, vk.market.floor_strike],
      [
        'KXETHD-26NOV2220',
        'Ethereum price on Nov 22, 2026 at 8pm EST?',
        'KXETHD-26NOV2220-T3379.99',
        '$3,380 or above',
        3379.99,
      ],
    )
    assert.deepEqual(
      [vp.event.slug, vp.event.title, vp.market.question, vp.market.groupItemTitle, vp.market.slug],
      [
        'ethereum-above-on-november-22-2026-8pm-et',
        'Ethereum above ___ on November 22, 8PM ET?',
        'Ethereum above 3,380 on November 22, 8PM ET?',
        '3,380',
        'ethereum-above-3380-on-november-22-2026-8pm-et',
      ],
    )
  })

  test('every pair: "$X or above" (greater than X − 0.01) ↔ the Yes token of "above X", the same hour', () => {
    for (const p of pairsOf(HOURLY)) {
      const { vp, vk } = served(p)
      assert.equal(vk.market.strike_type, 'greater')
      const x = Number(vp.market.groupItemTitle.replace(/,/g, ''))
      assert.equal(vk.market.floor_strike, Number((x - 0.01).toFixed(2)), p.b.outcome)
      assert.equal(vk.market.yes_sub_title, `$${vp.market.groupItemTitle} or above`)
      assert.ok(vk.market.ticker.endsWith(`-T${(x - 0.01).toFixed(2)}`))
      assert.equal(vk.market.title, vk.event.title)
      assert.deepEqual(JSON.parse(vp.market.outcomes), ['Yes', 'No'])
      assert.equal(p.a.outcomeIndex, 0)
      // The same hour: venuek closes at it, the venuep title names it.
      const hour = Number(vk.event.event_ticker.slice(-2))
      const [, h, ampm] = /, (\d+)(AM|PM) ET\?$/.exec(vp.market.question)!
      assert.equal((Number(h) % 12) + (ampm === 'PM' ? 12 : 0), hour)
      assert.equal(Date.parse(vk.market.close_time), Date.parse(vp.event.endDate))
    }
  })
})

describe('esports maps in a seeded world', () => {
  test('both venues list them; the first pair of seed 21 reads as the real venues word it', () => {
    const pairs = pairsOf(MAPS)
    assert.ok(pairs.length > 20, `${pairs.length} map pairs`)
    const { vp, vk } = served(pairs[0]!)
    assert.deepEqual(
      [vk.event.event_ticker, vk.event.title, vk.market.ticker, vk.market.yes_sub_title],
      [
        'KXDOTA2MAP-26NOV231100VAUMB-1',
        'Velkan Academy vs. Team Umbrel: Map 1',
        'KXDOTA2MAP-26NOV231100VAUMB-1-UMB',
        'Team Umbrel',
      ],
    )
    assert.deepEqual(
      [vp.event.slug, vp.event.title, vp.market.question, JSON.parse(vp.market.outcomes)],
      [
        'dota2-umb1-va1-2026-11-23',
        'Dota 2: Team Umbrel vs Velkan Academy',
        'Dota 2: Team Umbrel vs Velkan Academy - Game 1 Winner',
        ['Team Umbrel', 'Velkan Academy'],
      ],
    )
    // Both teams' markets pair with the one venuep market: Team Umbrel with its first token, Velkan Academy with its
    // second (the ticker style names them the other way round).
    assert.deepEqual(
      pairs.slice(0, 2).map((p) => [p.b.outcome, p.a.market === pairs[0]!.a.market, p.a.outcomeIndex]),
      [
        ['KXDOTA2MAP-26NOV231100VAUMB-1-UMB', true, 0],
        ['KXDOTA2MAP-26NOV231100VAUMB-1-VA', true, 1],
      ],
    )
  })

  test("every pair: a team's venuek market ↔ the venuep token naming that team, index 0 or 1, the same map", () => {
    const indexes = new Set<number>()
    for (const p of pairsOf(MAPS)) {
      const { vp, vk } = served(p)
      const outcome = (JSON.parse(vp.market.outcomes) as string[])[p.a.outcomeIndex!]!
      const team = vk.market.yes_sub_title as string
      // One team, maybe spelled apart: a sponsor before the slug style's name, "Esports" after one of them.
      assert.ok(
        outcome === team || outcome.endsWith(` ${team}`) || team.startsWith(outcome) || outcome.startsWith(team),
        `${outcome} / ${team}`,
      )
      assert.equal(vp.index, p.a.outcomeIndex)
      assert.ok(vk.market.ticker.endsWith(`-${vk.market.ticker.split('-').pop()}`))
      const n = vk.event.event_ticker.split('-').pop()
      assert.match(vk.event.title, new RegExp(`^.+ vs\\. .+: Map ${n}$`))
      assert.match(vp.market.question, new RegExp(` - (Map|Game) ${n} Winner$`))
      assert.equal(vk.event.mutually_exclusive, true)
      indexes.add(p.a.outcomeIndex!)
    }
    assert.deepEqual(indexes, new Set([0, 1]), "both the first and the second team's token")
  })

  test('a match is one venuep event with its maps and handicaps, each map its own venuek event', () => {
    const matches = new Map<string, Set<string>>()
    for (const p of pairsOf(MAPS)) matches.set(p.a.event, (matches.get(p.a.event) ?? new Set()).add(p.b.event))
    assert.ok(
      [...matches.values()].some((events) => events.size >= 2),
      'two maps of a match paired',
    )
    const withHandicap = [...matches.keys()].filter((slug) =>
      [...vpTokens.values()].some(
        (t) => t.event.slug === slug && /Handicap: .+ \(-\d\.5\) vs .+ \(\+\d\.5\)$/.test(t.market.question),
      ),
    )
    assert.ok(withHandicap.length > 0, 'a match event with a handicap market')
  })
})

describe('football matches in a seeded world', () => {
  const GAMES = /^KX(CPD|NFOL|CSL)GAME-/
  test('the first pair of seed 21: a team market and the "Will … win on …?" Yes token', () => {
    const pairs = pairsOf(GAMES)
    assert.ok(pairs.length > 10, `${pairs.length} match pairs`)
    const { vp, vk } = served(pairs[0]!)
    assert.deepEqual(
      [vk.event.event_ticker, vk.event.title, vk.market.ticker, vk.market.yes_sub_title],
      ['KXCSLGAME-26NOV27REDOAK', 'Oakmont FC vs Red Valley Town', 'KXCSLGAME-26NOV27REDOAK-OAK', 'Oakmont FC'],
    )
    assert.deepEqual(
      [vp.event.slug, vp.event.title, vp.market.question, vp.market.groupItemTitle],
      ['csl-oak-red-2026-11-27', 'Oakmont FC vs. Red Valley Town', 'Will Oakmont FC win on 2026-11-27?', 'Oakmont FC'],
    )
  })

  test('every pair: Tie ↔ "end in a draw?", a team ↔ "Will <team> win on <date>?", both teams to score ↔ BTTS', () => {
    let draws = 0
    for (const p of pairsOf(GAMES)) {
      const { vp, vk } = served(p)
      assert.equal(p.a.outcomeIndex, 0, 'the Yes token')
      if (vk.market.yes_sub_title === 'Tie') {
        draws++
        assert.match(vp.market.question, /^Will .+ vs\. .+ end in a draw\?$/)
        assert.ok(vk.market.ticker.endsWith('-TIE'))
      } else {
        const [, team] = /^Will (.+) win on \d{4}-\d{2}-\d{2}\?$/.exec(vp.market.question)!
        assert.ok(team!.startsWith(vk.market.yes_sub_title), `${team} / ${vk.market.yes_sub_title}`)
      }
    }
    assert.ok(draws > 0)
    const btts = pairsOf(/^KX(CPD|NFOL|CSL)BTTS-/)
    assert.ok(btts.length > 0)
    for (const p of btts) {
      const { vp, vk } = served(p)
      assert.match(vp.market.question, /: Both Teams to Score$/)
      assert.match(vk.market.yes_sub_title, /^.+ at .+$/)
    }
  })
})

describe('golf finishes in a seeded world', () => {
  test('every pair: the same finish (winner, top N) of one tournament on both venues', () => {
    const pairs = pairsOf(/^KXGOLF(WIN|TOP\d+)-/)
    assert.ok(pairs.length > 10, `${pairs.length} golf pairs`)
    for (const p of pairs) {
      const { vp, vk } = served(p)
      const [, , n] = /^Will .+ (win the|finish in the top (\d+) at the) .+\?$/.exec(vp.market.question)!
      assert.equal(vk.event.title.endsWith(n === undefined ? ' winner?' : `: Top ${n}`), true, vk.event.title)
      assert.equal(vk.event.mutually_exclusive, n === undefined)
      assert.equal(vp.market.groupItemTitle.length > 0, true)
    }
  })
})

describe('hard negatives of the short-dated families', () => {
  test('the neighbouring strike, another hour, another map and the handicap are recorded, never a true pair', () => {
    const negatives = sim.world.truth.hardNegatives ?? []
    const reasons = (re: RegExp) => negatives.filter((h) => re.test(h.reason))
    assert.ok(reasons(/^neighbouring strike$/).some((h) => HOURLY.test(h.b.event)))
    assert.ok(reasons(/^\d+(am|pm) ET vs \d+(am|pm) ET$/).length > 0, 'another hour')
    assert.ok(reasons(/^map \d winner vs map \d winner$/).length > 0, 'another map')
    assert.ok(reasons(/^(map|game) handicap \(.+ -\d\.5\) vs map \d winner$/).length > 0, 'the handicap')
    assert.ok(reasons(/^draw vs win$/).length > 0, 'the draw and the home win')
    assert.ok(reasons(/^(winner|top \d+) vs (winner|top \d+)$/).length > 0, "a player's other finish")
    const truth = new Set(sim.world.truth.outcomePairs.map((p) => `${p.a.outcome}|${p.b.outcome}`))
    for (const h of negatives) {
      assert.ok(!truth.has(`${h.a.outcome}|${h.b.outcome}`), h.reason)
      assert.ok(vpTokens.has(h.a.outcome) && vkMarkets.has(h.b.outcome), 'both served')
    }
    // A handicap's outcome and a map's market of the same team: the token index says which team.
    const h = reasons(/handicap/)[0]!
    const outcome = (JSON.parse(vpTokens.get(h.a.outcome)!.market.outcomes) as string[])[h.a.outcomeIndex!]
    assert.ok(outcome !== undefined && vkMarkets.get(h.b.outcome)!.market.yes_sub_title.length > 0)
  })
})
