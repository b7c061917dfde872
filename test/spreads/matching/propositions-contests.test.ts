import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { ContractSpec } from '../../../src/spreads/matching/contract.js'
import { judge } from '../../../src/spreads/matching/judge.js'
import { aliasLookup } from '../../../src/spreads/matching/names.js'
import { propositionKind } from '../../../src/spreads/matching/proposition.js'
import { contract, contracts, venuekEvent, venuepEvent } from './wire-events.js'

/**
 * Head-to-head propositions (contest.ts) read from the venues' real texts and layouts, built through the real
 * adapters: one venue's game market whose two outcomes are the teams against the other's market per team, Yes/No
 * questions against team markets, draws, totals, handicaps, both-teams-to-score and exact scores. Each pairs when
 * the propositions are equal and never when one field differs.
 */
function same(a: ContractSpec, b: ContractSpec, aliases = aliasLookup([])): void {
  const j = judge(a, b, true, aliases)
  assert.ok(j.same, j.same ? '' : `${a.outcome.title} ~ ${b.outcome.title}: ${j.test}: ${j.reason}`)
}

function different(a: ContractSpec, b: ContractSpec, field: string): void {
  const j = judge(a, b)
  assert.ok(!j.same, `${a.outcome.title} ~ ${b.outcome.title} should differ on ${field}`)
  assert.equal(j.test, field, j.reason)
}

describe('esports map and game winners', () => {
  // One venue: ONE market per map whose outcomes are the teams; the other: one market per team, teams in the other order.
  const p = venuepEvent('cs2-mouzn-inox-2026-05-11', 'Counter-Strike: MOUZ NXT vs INOX Division', [
    { question: 'Counter-Strike: MOUZ NXT vs INOX Division - Map 1 Winner', outcomes: ['MOUZ NXT', 'INOX Division'] },
    { question: 'Counter-Strike: MOUZ NXT vs INOX Division - Map 2 Winner', outcomes: ['MOUZ NXT', 'INOX Division'] },
    { question: 'Map Handicap: INOX (-1.5) vs MOUZ NXT (+1.5)', outcomes: ['INOX', 'MOUZ NXT'] },
  ])
  const k1 = venuekEvent('KXCS2MAP-26MAY110700INOXMOUZN-1', 'INOX Division vs. MOUZ NXT: Map 1', [
    { suffix: 'INOX', yes_sub_title: 'INOX Division' },
    { suffix: 'MOUZN', yes_sub_title: 'MOUZ NXT' },
  ])
  const side = (market: number, index: 0 | 1) =>
    contracts(p).find(
      (c) => c.outcome.childMarketSlug === `cs2-mouzn-inox-2026-05-11-${market}` && c.outcome.outcomeIndex === index,
    ) as ContractSpec

  test('each team market pairs with the outcome that names its team, the second outcome included', () => {
    same(side(0, 0), contract(k1, 'MOUZN'))
    same(side(0, 1), contract(k1, 'INOX'))
    assert.equal(propositionKind(side(0, 1)), 'map-winner')
    const j = judge(side(0, 1), contract(k1, 'INOX'))
    assert.ok(j.same)
    assert.deepEqual(j.evidence.compared, [
      'kind: winner',
      'part: map 1',
      'discipline: counter-strike',
      'participants: MOUZ NXT = MOUZ NXT (same); INOX Division = INOX Division (same)',
      'side: INOX Division',
      'day: 2026-05-11',
    ])
  })
  test('the other team, map 2 and the handicap are different contracts', () => {
    different(side(0, 0), contract(k1, 'INOX'), 'side')
    different(side(1, 1), contract(k1, 'INOX'), 'part')
    different(side(2, 0), contract(k1, 'INOX'), 'kind')
  })
  test('"Game N Winner" is "Map N"; a sponsor prefix is the same team; another game title is not', () => {
    const lol = venuepEvent('lol-drxc-nsea-2026-05-11', 'LoL: Kiwoom DRX Challengers vs Nongshim Esports Academy', [
      {
        question: 'LoL: Kiwoom DRX Challengers vs Nongshim Esports Academy - Game 1 Winner',
        outcomes: ['Kiwoom DRX Challengers', 'Nongshim Esports Academy'],
      },
    ])
    const kLol = venuekEvent('KXLOLMAP-26MAY110100NSEADRXC-1', 'Nongshim Esports Academy vs. DRX Challengers: Map 1', [
      { suffix: 'DRXC', yes_sub_title: 'DRX Challengers' },
    ])
    const kVal = venuekEvent(
      'KXVALORANTMAP-26MAY110100NSEADRXC-1',
      'Nongshim Esports Academy vs. DRX Challengers: Map 1',
      [{ suffix: 'DRXC', yes_sub_title: 'DRX Challengers' }],
    )
    same(contract(lol, 'Kiwoom DRX Challengers'), contract(kLol, 'DRXC'))
    different(contract(lol, 'Kiwoom DRX Challengers'), contract(kVal, 'DRXC'), 'discipline')
  })
  test('the same teams on another day are another match', () => {
    const later = venuekEvent('KXCS2MAP-26MAY120700INOXMOUZN-1', 'INOX Division vs. MOUZ NXT: Map 1', [
      { suffix: 'INOX', yes_sub_title: 'INOX Division' },
    ])
    different(side(0, 1), contract(later, 'INOX'), 'day')
  })
})

describe('team games: names, codes and layouts', () => {
  // Nicknames on one venue, cities on the other: the identifiers' codes say which is which.
  const p = venuepEvent('nba-okc-sas-2026-10-20', 'Thunder vs. Spurs', [
    { question: 'Thunder vs. Spurs', outcomes: ['Thunder', 'Spurs'] },
  ])
  const k = venuekEvent('KXNBAGAME-26OCT20OKCSAS', 'Oklahoma City at San Antonio', [
    { suffix: 'OKC', title: 'Oklahoma City wins', yes_sub_title: 'Oklahoma City' },
    { suffix: 'SAS', title: 'San Antonio wins', yes_sub_title: 'San Antonio' },
  ])
  const kOther = venuekEvent('KXNBAGAME-26OCT20OKCDAL', 'Oklahoma City at Dallas', [
    { suffix: 'OKC', title: 'Oklahoma City wins', yes_sub_title: 'Oklahoma City' },
  ])
  test('nickname and city pair by their codes, each side to its own', () => {
    same(contract(p, 'Spurs'), contract(k, 'SAS'))
    same(contract(p, 'Thunder'), contract(k, 'OKC'))
    different(contract(p, 'Thunder'), contract(k, 'SAS'), 'side')
  })
  test("one team's game against another opponent is another game", () => {
    different(contract(p, 'Thunder'), contract(kOther, 'OKC'), 'participants')
  })
  test('a reviewed alias pairs names no rule connects', () => {
    const pSoccer = venuepEvent('bun-sge-fcb-2026-05-10', 'Eintracht Frankfurt vs. FC Bayern München', [
      { question: 'Will Eintracht Frankfurt win on 2026-05-10?', groupItemTitle: 'Eintracht Frankfurt' },
    ])
    const kSoccer = venuekEvent('KXBUNDESLIGAGAME-26MAY10SGEBMU', 'SGE vs Bayern Munich', [
      { suffix: 'SGE', title: 'SGE wins', yes_sub_title: 'SGE' },
    ])
    const aliases = aliasLookup([
      ['Eintracht Frankfurt', 'SGE'],
      ['Bayern Munich', 'FC Bayern München'],
    ])
    assert.equal(judge(contract(pSoccer, 'Eintracht Frankfurt'), contract(kSoccer, 'SGE')).same, false)
    same(contract(pSoccer, 'Eintracht Frankfurt'), contract(kSoccer, 'SGE'), aliases)
  })
})

describe('soccer: win, draw, both teams to score, totals, spreads, exact score', () => {
  const p = venuepEvent('epl-ars-che-2026-09-05', 'Arsenal FC vs. Chelsea FC', [
    { question: 'Will Arsenal FC win on 2026-09-05?', groupItemTitle: 'Arsenal FC' },
    { question: 'Will Arsenal FC vs. Chelsea FC end in a draw?', groupItemTitle: 'Draw (Arsenal FC vs. Chelsea FC)' },
    { question: 'Will Chelsea FC win on 2026-09-05?', groupItemTitle: 'Chelsea FC' },
  ])
  const k = venuekEvent('KXEPLGAME-26SEP05ARSCHE', 'Arsenal vs Chelsea', [
    { suffix: 'ARS', title: 'Arsenal wins', yes_sub_title: 'Arsenal' },
    { suffix: 'TIE', title: 'Tie is the result', yes_sub_title: 'Tie' },
    { suffix: 'CHE', title: 'Chelsea wins', yes_sub_title: 'Chelsea' },
  ])
  const more = venuepEvent('epl-ars-che-2026-09-05-more-markets', 'Arsenal FC vs. Chelsea FC - More Markets', [
    { question: 'Arsenal FC vs. Chelsea FC: Both Teams to Score' },
    { question: 'Arsenal FC vs. Chelsea FC: O/U 2.5', outcomes: ['Over', 'Under'] },
    { question: 'Arsenal FC vs. Chelsea FC: O/U 3.5', outcomes: ['Over', 'Under'] },
    { question: 'Spread: Arsenal FC (-1.5)', outcomes: ['Arsenal FC', 'Chelsea FC'] },
    { question: 'Exact Score: Arsenal FC 2 - 1 Chelsea FC?' },
  ])
  const moreSide = (market: number, index: 0 | 1) =>
    contracts(more).find(
      (c) =>
        c.outcome.childMarketSlug === `epl-ars-che-2026-09-05-more-markets-${market}` &&
        (c.outcome.outcomeIndex ?? 0) === index,
    ) as ContractSpec
  const btts = venuekEvent('KXEPLBTTS-26SEP05ARSCHE', 'Arsenal vs Chelsea: BTTS', [
    { suffix: 'BTTS', yes_sub_title: 'Both Teams to Score' },
  ])
  const total = venuekEvent('KXEPLTOTAL-26SEP05ARSCHE', 'Arsenal vs Chelsea: Total Goals', [
    { suffix: '3', title: 'Will over 2.5 goals be scored?', yes_sub_title: 'Over 2.5 goals scored' },
  ])
  const spread = venuekEvent('KXEPLSPREAD-26SEP05ARSCHE', 'Arsenal vs Chelsea: Spread', [
    { suffix: 'ARS2', title: 'Arsenal wins by over 1.5 goals?', yes_sub_title: 'Arsenal wins by over 1.5 goals' },
    { suffix: 'ARS3', title: 'Arsenal wins by over 2.5 goals?', yes_sub_title: 'Arsenal wins by over 2.5 goals' },
  ])
  const score = venuekEvent('KXEPLSCORE-26SEP05ARSCHE', 'Arsenal vs Chelsea: Correct Score', [
    { suffix: 'ARS2CHE1', yes_sub_title: 'Arsenal wins 2-1' },
    { suffix: 'CHE2ARS1', yes_sub_title: 'Chelsea wins 2-1' },
  ])

  test('a Yes/No question per result pairs with the market per team and the tie', () => {
    same(contract(p, 'Arsenal FC'), contract(k, 'ARS'))
    same(contract(p, 'Chelsea FC'), contract(k, 'CHE'))
    same(contract(p, 'Draw (Arsenal FC vs. Chelsea FC)'), contract(k, 'TIE'))
    assert.equal(propositionKind(contract(k, 'TIE')), 'draw')
    different(contract(p, 'Draw (Arsenal FC vs. Chelsea FC)'), contract(k, 'ARS'), 'kind')
  })
  test('both teams to score, a total and a spread pair only with their own kind and line', () => {
    same(moreSide(0, 0), contract(btts, 'BTTS'))
    same(moreSide(1, 0), contract(total, '3'))
    different(moreSide(1, 1), contract(total, '3'), 'side')
    different(moreSide(2, 0), contract(total, '3'), 'side')
    same(moreSide(3, 0), contract(spread, 'ARS2'))
    different(moreSide(3, 0), contract(spread, 'ARS3'), 'side')
    different(moreSide(3, 1), contract(spread, 'ARS2'), 'side')
    for (const x of [moreSide(0, 0), moreSide(1, 0), moreSide(3, 0)]) different(x, contract(k, 'ARS'), 'kind')
  })
  test('an exact score pairs with the same score, never with the reverse or a win', () => {
    same(moreSide(4, 0), contract(score, 'ARS2CHE1'))
    different(moreSide(4, 0), contract(score, 'CHE2ARS1'), 'side')
    different(moreSide(4, 0), contract(k, 'ARS'), 'kind')
  })
})

describe('tennis and fights: full names against surnames', () => {
  const p = venuepEvent('atp-tiafoe-buse-2026-05-10', "Internazionali BNL d'Italia: Frances Tiafoe vs Ignacio Buse", [
    {
      question: "Internazionali BNL d'Italia: Frances Tiafoe vs Ignacio Buse",
      outcomes: ['Frances Tiafoe', 'Ignacio Buse'],
    },
    { question: 'Set 1 Winner: Tiafoe vs Buse', outcomes: ['Tiafoe', 'Buse'] },
  ])
  const kMatch = venuekEvent('KXATPMATCH-26MAY10TIABUS', 'Tiafoe vs Buse', [
    {
      suffix: 'TIA',
      title: 'Will Frances Tiafoe win the Tiafoe vs Buse : Round Of 32 match?',
      yes_sub_title: 'Frances Tiafoe',
    },
  ])
  const kSet = venuekEvent('KXATPSETWINNER-26MAY10TIABUS-1', 'Frances Tiafoe vs Ignacio Buse: Set 1 Winner', [
    { suffix: 'BUS', yes_sub_title: 'Ignacio Buse' },
  ])
  const side = (market: number, index: 0 | 1) =>
    contracts(p).find(
      (c) => c.outcome.childMarketSlug === `atp-tiafoe-buse-2026-05-10-${market}` && c.outcome.outcomeIndex === index,
    ) as ContractSpec
  test('match and set winners pair; a set never pairs with the match', () => {
    same(side(0, 0), contract(kMatch, 'TIA'))
    same(side(1, 1), contract(kSet, 'BUS'))
    different(side(0, 1), contract(kSet, 'BUS'), 'part')
  })
  test('a fight by full names on both venues', () => {
    const ufc = venuepEvent('ufc-bel-jac-2026-05-10', 'UFC 315: Belal Muhammad vs. Jack Della Maddalena', [
      {
        question: 'UFC 315: Belal Muhammad vs. Jack Della Maddalena',
        outcomes: ['Belal Muhammad', 'Jack Della Maddalena'],
      },
    ])
    const kUfc = venuekEvent('KXUFCFIGHT-26MAY10MUHDEL', 'Muhammad vs Della Maddalena', [
      { suffix: 'DEL', title: 'Jack Della Maddalena wins', yes_sub_title: 'Jack Della Maddalena' },
    ])
    same(contract(ufc, 'Jack Della Maddalena'), contract(kUfc, 'DEL'))
    different(contract(ufc, 'Belal Muhammad'), contract(kUfc, 'DEL'), 'side')
  })
})
