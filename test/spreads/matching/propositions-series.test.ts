import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { ContractSpec } from '../../../src/spreads/matching/contract.js'
import { judge } from '../../../src/spreads/matching/judge.js'
import { propositionKind } from '../../../src/spreads/matching/proposition.js'
import { contract, venuekEvent, venuepEvent } from './wire-events.js'

/**
 * Series propositions read from the venues' real texts (test/fixtures/real-venues/short-dated and the venues' public
 * listings), built through the real adapters: each kind pairs when the two contracts are the same and never when one
 * field differs (the near misses). Head-to-heads: propositions-contests.test.ts.
 */
function same(a: ContractSpec, b: ContractSpec): void {
  const j = judge(a, b)
  assert.ok(j.same, j.same ? '' : `${a.outcome.title} ~ ${b.outcome.title}: ${j.test}: ${j.reason}`)
}

function different(a: ContractSpec, b: ContractSpec, field: string): void {
  const j = judge(a, b)
  assert.ok(!j.same, `${a.outcome.title} ~ ${b.outcome.title} should differ on ${field}`)
  assert.equal(j.test, field, j.reason)
}

describe('a threshold at a date and hour (hourly crypto)', () => {
  const k10 = venuekEvent('KXBTCD-26MAY1010', 'Bitcoin price on May 10, 2026 at 10am EDT?', [
    { suffix: 'T78999.99', yes_sub_title: '$79,000 or above', close_time: '2026-05-10T14:00:00Z' },
    { suffix: 'T79399.99', yes_sub_title: '$79,400 or above', close_time: '2026-05-10T14:00:00Z' },
  ])
  const k11 = venuekEvent('KXBTCD-26MAY1011', 'Bitcoin price on May 10, 2026 at 11am EDT?', [
    { suffix: 'T78999.99', yes_sub_title: '$79,000 or above', close_time: '2026-05-10T15:00:00Z' },
  ])
  // The real API also sends the strike as fields: "greater" than 78999.99 is "$79,000 or above" to the cent.
  const kFields = venuekEvent('KXBTCD-26MAY1010', 'Bitcoin price on May 10, 2026 at 10am EDT?', [
    { suffix: 'T78999.99', yes_sub_title: '$79,000 or above', strike_type: 'greater', floor_strike: 78999.99 },
  ])
  const p10 = venuepEvent('bitcoin-above-on-may-10-2026-10am-et', 'Bitcoin above ___ on May 10, 10AM ET?', [
    { question: 'Bitcoin above 79,000 on May 10, 10AM ET?', groupItemTitle: '79,000', endDate: '2026-05-10T14:00:00Z' },
    { question: 'Bitcoin above 79,400 on May 10, 10AM ET?', groupItemTitle: '79,400', endDate: '2026-05-10T14:00:00Z' },
  ])
  const eth = venuepEvent('ethereum-above-on-may-10-2026-10am-et', 'Ethereum above ___ on May 10, 10AM ET?', [
    { question: 'Ethereum above 79,000 on May 10, 10AM ET?', groupItemTitle: '79,000' },
  ])

  test('"$79,000 or above" at 10am EDT is "above 79,000" at 10AM ET, from the text or from the strike fields', () => {
    same(contract(p10, '79,000'), contract(k10, 'T78999.99'))
    same(contract(p10, '79,000'), contract(kFields, 'T78999.99'))
    assert.equal(propositionKind(contract(p10, '79,000')), 'threshold')
    const j = judge(contract(p10, '79,000'), contract(k10, 'T78999.99'))
    assert.ok(j.same && j.evidence.compared.some((c) => c.startsWith('period: at 2026-05-10T14:00Z')))
  })
  test('the next strike, the next hour and another coin are different contracts', () => {
    different(contract(p10, '79,400'), contract(k10, 'T78999.99'), 'threshold')
    different(contract(p10, '79,000'), contract(k11, 'T78999.99'), 'when')
    different(contract(eth, '79,000'), contract(k10, 'T78999.99'), 'what')
  })
  test('a day without its hour is not an hourly contract', () => {
    const daily = venuepEvent('bitcoin-above-on-may-10', 'Bitcoin above ___ on May 10?', [
      {
        question: 'Will the price of Bitcoin be above $79,000 on May 10?',
        groupItemTitle: '79,000',
        endDate: '2026-05-10T16:00:00Z',
      },
    ])
    different(contract(daily, '79,000'), contract(k10, 'T78999.99'), 'when')
  })
})

describe('a bracket (daily temperature)', () => {
  const k = venuekEvent(
    'KXHIGHNY-26MAY10',
    'Highest temperature in NYC on May 10, 2026?',
    [
      { suffix: 'B78.5', yes_sub_title: '78° to 79°', strike_type: 'between', floor_strike: 78, cap_strike: 79 },
      { suffix: 'T80', yes_sub_title: '80° or above', strike_type: 'greater', floor_strike: 79 },
    ],
    { close_time: '2026-05-11T04:00:00Z' },
  )
  const p = venuepEvent(
    'highest-temperature-in-nyc-on-may-10-2026',
    'Highest temperature in NYC on May 10?',
    [
      {
        question: 'Will the highest temperature in New York City be between 78-79°F on May 10?',
        groupItemTitle: '78-79°F',
      },
      {
        question: 'Will the highest temperature in New York City be 80°F or higher on May 10?',
        groupItemTitle: '80°F or higher',
      },
    ],
    '2026-05-11T04:00:00Z',
  )
  const low = venuepEvent(
    'lowest-temperature-in-nyc-on-may-10-2026',
    'Lowest temperature in NYC on May 10?',
    [
      {
        question: 'Will the lowest temperature in New York City be between 78-79°F on May 10?',
        groupItemTitle: '78-79°F',
      },
    ],
    '2026-05-11T04:00:00Z',
  )
  const nextDay = venuepEvent(
    'highest-temperature-in-nyc-on-may-11-2026',
    'Highest temperature in NYC on May 11?',
    [
      {
        question: 'Will the highest temperature in New York City be between 78-79°F on May 11?',
        groupItemTitle: '78-79°F',
      },
    ],
    '2026-05-12T04:00:00Z',
  )
  test('"78° to 79°" is "between 78-79°F"; "80° or above" (greater than 79) is "80°F or higher"', () => {
    same(contract(p, '78-79°F'), contract(k, 'B78.5'))
    same(contract(p, '80°F or higher'), contract(k, 'T80'))
    assert.equal(propositionKind(contract(p, '78-79°F')), 'bracket')
  })
  test('another bracket, the low series and the next day are different contracts', () => {
    different(contract(p, '80°F or higher'), contract(k, 'B78.5'), 'threshold')
    different(contract(low, '78-79°F'), contract(k, 'B78.5'), 'what')
    different(contract(nextDay, '78-79°F'), contract(k, 'B78.5'), 'when')
  })
})

describe('a finishing position and a tournament winner (golf)', () => {
  const kTop10 = venuekEvent(
    'KXPGATOP10-PGC26',
    'PGA Championship: Top 10',
    [
      { suffix: 'ABHA', title: 'Akshay Bhatia finishes top 10', yes_sub_title: 'Akshay Bhatia' },
      { suffix: 'ZJOH', title: 'Zach Johnson finishes top 10', yes_sub_title: 'Zach Johnson' },
    ],
    { close_time: '2026-05-17T23:00:00Z' },
  )
  const kTop5 = venuekEvent(
    'KXPGATOP5-PGC26',
    'PGA Championship: Top 5',
    [{ suffix: 'ABHA', title: 'Akshay Bhatia finishes top 5', yes_sub_title: 'Akshay Bhatia' }],
    { close_time: '2026-05-17T23:00:00Z' },
  )
  const kWin = venuekEvent(
    'KXPGATOUR-PGC26',
    'PGA Championship Winner',
    [{ suffix: 'ABHA', title: 'Will Akshay Bhatia win the PGA Championship?', yes_sub_title: 'Akshay Bhatia' }],
    { close_time: '2026-05-17T23:00:00Z' },
  )
  const pTop10 = venuepEvent(
    'pga-championship-top-10',
    'PGA Championship: Top 10',
    [
      {
        question: 'Will Akshay Bhatia finish in the Top 10 at the 2026 PGA Championship?',
        groupItemTitle: 'Akshay Bhatia',
      },
      {
        question: 'Will Zachary Johnson finish in the Top 10 at the 2026 PGA Championship?',
        groupItemTitle: 'Zachary Johnson',
      },
    ],
    '2026-05-17T23:00:00Z',
  )
  const pWin = venuepEvent(
    'pga-championship-winner',
    'PGA Championship Winner',
    [{ question: 'Will Akshay Bhatia win the 2026 PGA Championship?', groupItemTitle: 'Akshay Bhatia' }],
    '2026-05-17T23:00:00Z',
  )
  test('the same player, tournament and N pair, a shortened first name included', () => {
    same(contract(pTop10, 'Akshay Bhatia'), contract(kTop10, 'ABHA'))
    same(contract(pTop10, 'Zachary Johnson'), contract(kTop10, 'ZJOH'))
    same(contract(pWin, 'Akshay Bhatia'), contract(kWin, 'ABHA'))
    assert.equal(propositionKind(contract(pTop10, 'Akshay Bhatia')), 'top-n')
  })
  test('top 5 vs top 10, winner vs top 10, and another player are different contracts', () => {
    different(contract(pTop10, 'Akshay Bhatia'), contract(kTop5, 'ABHA'), 'rank')
    different(contract(pWin, 'Akshay Bhatia'), contract(kTop10, 'ABHA'), 'rank')
    different(contract(pTop10, 'Zachary Johnson'), contract(kTop10, 'ABHA'), 'what')
  })
})

describe('a word said at an occasion (mentions)', () => {
  const k = venuekEvent('KXTRUMPMENTION-26MAY10', 'What will Trump say during his remarks in Michigan?', [
    { suffix: 'TARI', title: 'Will Trump say Tariff during his remarks in Michigan?', yes_sub_title: 'Tariff' },
    { suffix: 'CRYP', title: 'Will Trump say Crypto during his remarks in Michigan?', yes_sub_title: 'Crypto' },
  ])
  const p = venuepEvent(
    'what-will-trump-say-during-remarks-in-michigan',
    'What will Trump say during his remarks in Michigan?',
    [{ question: 'Will Trump say "Tariff" during his remarks in Michigan?', groupItemTitle: 'Tariff' }],
  )
  test('the same word at the same occasion pairs; another word does not', () => {
    same(contract(p, 'Tariff'), contract(k, 'TARI'))
    assert.equal(propositionKind(contract(p, 'Tariff')), 'mention')
    different(contract(p, 'Tariff'), contract(k, 'CRYP'), 'what')
  })
})
