import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { mapGammaEvent } from '../../src/venues/venuep/map-catalog.js'
import { mapVenuepMessages } from '../../src/venues/venuep/map-message.js'
import { venuepProbability } from '../../src/venues/venuep/probability.js'
import type { FeedEvent } from '../../src/venues/types.js'
import type { GammaEvent, GammaMarket } from '../../src/venues/venuep/wire.js'
import { fixtureJson, readFixture } from '../helpers/fixtures.js'

const links = { eventUrl: (slug: string) => `https://venuep.example/event/${slug}` }
const P = (x: number) => Math.round(x * 1e6)

describe('venuep Gamma → normalized catalog', () => {
  test('a resolved single binary market (real capture): two outcomes aligned with their tokens', () => {
    const e = mapGammaEvent(fixtureJson<GammaEvent>('venuep/gamma-event-btc-updown.json'), links)
    assert.ok(e !== undefined)
    assert.equal(e.eventId, 'btc-updown-5m-1774334100')
    assert.equal(e.category, 'crypto')
    assert.equal(e.status, 'resolved')
    assert.equal(e.rawStatus, 'resolved')
    assert.equal(e.markets.length, 1)
    const m = e.markets[0]!
    assert.equal(m.marketId, 'btc-updown-5m-1774334100')
    assert.equal(m.volumeTotal, 147043.20902699974)
    assert.equal(m.liquidity, undefined, 'the capture has no liquidity: unknown, not 0')
    assert.equal(m.url, 'https://venuep.example/event/btc-updown-5m-1774334100')
    assert.deepEqual(
      m.outcomes.map((o) => ({
        title: o.title,
        id: o.outcomeId,
        complement: o.complementInstrumentId,
        index: o.outcomeIndex,
        won: o.won,
        last: o.catalogLastPrice,
      })),
      [
        {
          title: 'Up',
          id: '76113456775305083620588924844077855692564580220877311373887058720584900078128',
          complement: '34812490117597092926676691594130607461359451376213032675677765803451137597140',
          index: 0,
          won: true,
          last: 1,
        },
        {
          title: 'Down',
          id: '34812490117597092926676691594130607461359451376213032675677765803451137597140',
          complement: '76113456775305083620588924844077855692564580220877311373887058720584900078128',
          index: 1,
          won: false,
          last: 0,
        },
      ],
    )
    // Token 1's catalog quotes mirror token 0's book: ask = 1 − bid(0.99) = 0.01; token 0's ask of 1 is Gamma's
    // "no ask", so token 1 has no bid (unknown, not 0).
    assert.equal(m.outcomes[0]!.catalogBestAsk, undefined)
    assert.equal(m.outcomes[1]!.catalogBestBid, undefined)
    assert.equal(m.outcomes[1]!.catalogBestAsk, 0.01)
    assert.deepEqual(m.outcomes[0]!.fees, { kind: 'curve', rate: 0.25, exponent: 2 })
    assert.equal(m.createdAt, Date.parse('2026-03-23T06:42:07.4836Z'))
    assert.equal(m.endTime, Date.parse('2026-03-24T06:40:00Z'))
  })

  test('a neg-risk event becomes one grouped market whose outcomes are the child markets', () => {
    const e = mapGammaEvent(fixtureJson<GammaEvent>('venuep/gamma-event-negrisk.json'), links)
    assert.ok(e !== undefined)
    assert.equal(e.mutuallyExclusive, true)
    assert.equal(e.category, 'economics', 'the "fed-rates" tag maps to economics')
    assert.equal(e.status, 'active')
    assert.equal(e.openInterest, 4512345.1)
    const m = e.markets[0]!
    assert.equal(m.marketId, 'fed-decision-in-december')
    assert.equal(m.volumeTotal, 41230011.9, 'only one child reports a volume: the sum of the known values')
    assert.deepEqual(
      m.outcomes.map((o) => [
        o.title,
        o.instrumentId.slice(0, 4),
        o.conditionId?.slice(-1),
        o.childMarketSlug?.slice(0, 12),
        o.status,
      ]),
      [
        ['25 bps decrease', '8764', '1', 'fed-decrease', 'active'],
        ['No change', '1111', '2', 'no-change-in', 'active'],
      ],
    )
    assert.equal(m.outcomes[0]!.catalogBestBid, 0.869)
    assert.equal(m.outcomes[1]!.catalogBestBid, undefined, 'absent in the payload: unknown')
    assert.deepEqual(e.details, {
      seriesTicker: undefined,
      strikeDate: undefined,
      strikePeriod: undefined,
      tags: ['Fed Rates'],
      negRisk: true,
      description: undefined,
    })
    assert.deepEqual(
      m.outcomes.map((o) => o.details),
      [
        {
          question: 'Fed decreases interest rates by 25 bps after December 2025 meeting?',
          groupItemTitle: '25 bps decrease',
          groupItemThreshold: '1',
          yesSubTitle: undefined,
          noSubTitle: undefined,
          negRisk: true,
          rules: undefined,
          expectedExpiration: undefined,
          sides: ['Yes', 'No'],
        },
        {
          question: 'No change in Fed interest rates after December 2025 meeting?',
          groupItemTitle: 'No change',
          groupItemThreshold: '2',
          yesSubTitle: undefined,
          noSubTitle: undefined,
          negRisk: true,
          rules: undefined,
          expectedExpiration: undefined,
          sides: ['Yes', 'No'],
        },
      ],
    )
    assert.equal(m.outcomes[0]!.closeTime, undefined, 'no market endDate in the payload')
  })

  test("a grouped child without groupItemTitle is titled by what its question says apart from its siblings'", () => {
    const raw = fixtureJson<GammaEvent>('venuep/gamma-event-negrisk.json')
    const question = (who: string) => `Will ${who} win the 2028 US Presidential Election?`
    const child = (i: number, who: string, extra: Partial<GammaMarket> = {}): GammaMarket => {
      const { groupItemTitle: _t, ...rest } = raw.markets![i % 2]!
      return {
        ...rest,
        question: question(who),
        conditionId: `0x${i}`,
        clobTokenIds: `["${i}1", "${i}2"]`,
        slug: `m${i}`,
        ...extra,
      }
    }
    const e = mapGammaEvent(
      {
        ...raw,
        markets: [
          child(0, 'JD Vance'),
          child(1, 'Gavin Newsom', { groupItemTitle: '' }),
          child(2, 'Alexandria Ocasio-Cortez'),
          // A placeholder the venue lists inactive, worded apart: it does not hide the named children's wording.
          child(3, 'Person K', { question: 'Will Person K win the 2028 Election?', active: false }),
          child(4, 'Marco Rubio', { groupItemTitle: ' Marco Rubio ' }),
        ],
      },
      links,
    )
    assert.deepEqual(
      e!.markets[0]!.outcomes.map((o) => o.title),
      ['JD Vance', 'Gavin Newsom', 'Alexandria Ocasio-Cortez', 'Person K win the 2028', 'Marco Rubio'],
    )
  })

  test("event times fall back to the markets' when the event has none; zero and one are not Gamma prices", () => {
    const raw = fixtureJson<GammaEvent>('venuep/gamma-event-negrisk.json')
    const { endDate: _end, ...event } = raw
    const markets = raw.markets!.map((m, i) => ({
      ...m,
      endDate: `2026-0${i + 1}-28T12:00:00Z`,
      createdAt: `2025-0${i + 1}-01T00:00:00Z`,
      bestBid: 0,
      bestAsk: 1,
      lastTradePrice: 0,
    }))
    const e = mapGammaEvent({ ...event, markets }, links)!
    assert.equal(e.endTime, Date.parse('2026-02-28T12:00:00Z'), 'the latest market end')
    assert.equal(e.createdAt, Date.parse('2025-01-01T00:00:00Z'), 'the earliest market creation')
    assert.equal(e.markets[0]!.endTime, e.endTime)
    for (const o of e.markets[0]!.outcomes) {
      assert.equal(o.catalogBestBid, undefined)
      assert.equal(o.catalogBestAsk, undefined)
    }
  })

  test('a closed market without a UMA status but with prices exactly 1 and 0 is resolved (captures drop the status)', () => {
    const raw = fixtureJson<GammaEvent>('venuep/gamma-event-btc-updown.json')
    const m = raw.markets![0]!
    const { umaResolutionStatus: _uma, ...noStatus } = m
    const settled = mapGammaEvent({ ...raw, markets: [{ ...noStatus, outcomePrices: '["0", "1"]' }] }, links)!
    assert.equal(settled.status, 'resolved')
    assert.equal(settled.rawStatus, 'closed', 'the venue said closed; resolution is read from the prices')
    assert.deepEqual(
      settled.markets[0]!.outcomes.map((o) => o.won),
      [false, true],
    )
    const trading = mapGammaEvent({ ...raw, markets: [{ ...noStatus, outcomePrices: '["0.0005", "0.9995"]' }] }, links)!
    assert.equal(trading.status, 'closed')
    const proposed = mapGammaEvent(
      { ...raw, markets: [{ ...m, umaResolutionStatus: 'proposed', outcomePrices: '["0", "1"]' }] },
      links,
    )!
    assert.equal(proposed.status, 'closed', 'a UMA status that is not "resolved" wins over the prices')
  })

  test('markets whose tokens do not line up with their outcomes are skipped, not guessed', () => {
    const raw = fixtureJson<GammaEvent>('venuep/gamma-event-negrisk.json')
    raw.markets![1]!.clobTokenIds = '["only-one"]'
    const e = mapGammaEvent(raw, links)
    assert.equal(e?.markets[0]?.outcomes.length, 1)
  })
})

describe('venuep market channel → feed events', () => {
  test('book snapshot keeps every level, in micro-units', () => {
    const out: FeedEvent[] = []
    assert.equal(mapVenuepMessages(JSON.parse(readFixture('venuep/ws-book.json')), 1, out), 0)
    assert.deepEqual(out, [
      {
        type: 'snapshot',
        instrumentId: '65818619657568813474341868652308942079804919287380422192892211131408793125422',
        bids: [
          [P(0.48), P(30)],
          [P(0.49), P(20)],
          [P(0.5), P(15)],
        ],
        asks: [
          [P(0.54), P(10)],
          [P(0.53), P(60)],
          [P(0.52), P(25)],
        ],
        venueTs: 1757908892351,
      },
    ])
  })

  test('price_change (current schema) gives absolute level sizes per asset; BUY is the bid side', () => {
    const out: FeedEvent[] = []
    assert.equal(mapVenuepMessages(JSON.parse(readFixture('venuep/ws-price-change.json')), 1, out), 0)
    assert.deepEqual(out, [
      {
        type: 'level',
        instrumentId: '71321045679252212594626385532706912750332728571942532289631379312455583992563',
        side: 'bid',
        price: P(0.5),
        size: P(200),
        venueTs: 1757908892351,
      },
      {
        type: 'level',
        instrumentId: '52114319501245915516055106046884209969926127482827954674443846427813813222426',
        side: 'ask',
        price: P(0.5),
        size: P(200),
        venueTs: 1757908892351,
      },
    ])
  })

  test('last_trade_price is a trade; arrays of messages map in order; unknown types change nothing', () => {
    const trade = JSON.parse(readFixture('venuep/ws-last-trade-price.json'))
    const out: FeedEvent[] = []
    const bad = mapVenuepMessages(
      [trade, { event_type: 'tick_size_change', asset_id: 'x', old_tick_size: '0.01', new_tick_size: '0.001' }],
      1,
      out,
    )
    assert.equal(bad, 0)
    assert.deepEqual(out, [
      { type: 'trade', instrumentId: trade.asset_id, price: P(0.456), size: P(219.217767), venueTs: 1750428146322 },
    ])
  })

  test('an unreadable entry is counted so the feed can resync; readable entries still map', () => {
    const msg = JSON.parse(readFixture('venuep/ws-price-change.json'))
    msg.price_changes[0].price = 'not-a-price'
    const out: FeedEvent[] = []
    assert.equal(mapVenuepMessages(msg, 1, out), 1)
    assert.equal(out.length, 1)
    assert.equal(mapVenuepMessages({ event_type: 'book', asset_id: 'a', bids: [{ price: '0.5' }] }, 1, []), 1)
    assert.equal(mapVenuepMessages('PONG', 1, []), 1)
  })
})

test('venuep probability: midpoint while the spread is at most 0.10, else the last trade, else unknown', () => {
  assert.equal(venuepProbability({ bestBid: 0.48, bestAsk: 0.52, lastTradePrice: 0.9 }), 0.5)
  assert.equal(
    venuepProbability({ bestBid: 0.4, bestAsk: 0.5, lastTradePrice: 0.9 }),
    0.45,
    'exactly 0.10 still uses the midpoint',
  )
  assert.equal(venuepProbability({ bestBid: 0.3, bestAsk: 0.6, lastTradePrice: 0.52 }), 0.52)
  assert.equal(venuepProbability({ bestBid: 0.3, bestAsk: undefined, lastTradePrice: 0.31 }), 0.31)
  assert.equal(venuepProbability({ bestBid: 0.3, bestAsk: 0.6, lastTradePrice: undefined }), undefined)
})
