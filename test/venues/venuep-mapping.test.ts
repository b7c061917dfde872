import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { mapGammaEvent } from '../../src/venues/venuep/map-catalog.js'
import { mapVenuepMessages } from '../../src/venues/venuep/map-message.js'
import { venuepProbability } from '../../src/venues/venuep/probability.js'
import type { FeedEvent } from '../../src/venues/types.js'
import type { GammaEvent } from '../../src/venues/venuep/wire.js'
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
      m.outcomes.map((o) => ({ title: o.title, id: o.outcomeId, complement: o.complementInstrumentId, index: o.outcomeIndex, won: o.won, last: o.catalogLastPrice })),
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
    // Token 1's catalog quotes mirror token 0's book: bid = 1 − ask(1) = 0, ask = 1 − bid(0.99) = 0.01.
    assert.equal(m.outcomes[1]!.catalogBestBid, 0)
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
      m.outcomes.map((o) => [o.title, o.instrumentId.slice(0, 4), o.conditionId?.slice(-1), o.childMarketSlug?.slice(0, 12), o.status]),
      [
        ['25 bps decrease', '8764', '1', 'fed-decrease', 'active'],
        ['No change', '1111', '2', 'no-change-in', 'active'],
      ],
    )
    assert.equal(m.outcomes[0]!.catalogBestBid, 0.869)
    assert.equal(m.outcomes[1]!.catalogBestBid, undefined, 'absent in the payload: unknown')
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
        bids: [[P(0.48), P(30)], [P(0.49), P(20)], [P(0.5), P(15)]],
        asks: [[P(0.54), P(10)], [P(0.53), P(60)], [P(0.52), P(25)]],
        venueTs: 1757908892351,
      },
    ])
  })

  test('price_change (current schema) gives absolute level sizes per asset; BUY is the bid side', () => {
    const out: FeedEvent[] = []
    assert.equal(mapVenuepMessages(JSON.parse(readFixture('venuep/ws-price-change.json')), 1, out), 0)
    assert.deepEqual(out, [
      { type: 'level', instrumentId: '71321045679252212594626385532706912750332728571942532289631379312455583992563', side: 'bid', price: P(0.5), size: P(200), venueTs: 1757908892351 },
      { type: 'level', instrumentId: '52114319501245915516055106046884209969926127482827954674443846427813813222426', side: 'ask', price: P(0.5), size: P(200), venueTs: 1757908892351 },
    ])
  })

  test('last_trade_price is a trade; arrays of messages map in order; unknown types change nothing', () => {
    const trade = JSON.parse(readFixture('venuep/ws-last-trade-price.json'))
    const out: FeedEvent[] = []
    const bad = mapVenuepMessages([trade, { event_type: 'tick_size_change', asset_id: 'x', old_tick_size: '0.01', new_tick_size: '0.001' }], 1, out)
    assert.equal(bad, 0)
    assert.deepEqual(out, [{ type: 'trade', instrumentId: trade.asset_id, price: P(0.456), size: P(219.217767), venueTs: 1750428146322 }])
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
  assert.equal(venuepProbability({ bestBid: 0.4, bestAsk: 0.5, lastTradePrice: 0.9 }), 0.45, 'exactly 0.10 still uses the midpoint')
  assert.equal(venuepProbability({ bestBid: 0.3, bestAsk: 0.6, lastTradePrice: 0.52 }), 0.52)
  assert.equal(venuepProbability({ bestBid: 0.3, bestAsk: undefined, lastTradePrice: 0.31 }), 0.31)
  assert.equal(venuepProbability({ bestBid: 0.3, bestAsk: 0.6, lastTradePrice: undefined }), undefined)
})
