import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { OrderBook } from '../../src/book/order-book.js'
import { mapVenuekEvent } from '../../src/venues/venuek/map-catalog.js'
import { mapVenuekData } from '../../src/venues/venuek/map-message.js'
import { venuekProbability } from '../../src/venues/venuek/probability.js'
import type { FeedEvent } from '../../src/venues/types.js'
import type { KEvent } from '../../src/venues/venuek/wire.js'
import { fixtureJson, readFixture } from '../helpers/fixtures.js'

const links = { eventUrl: (t: string) => `https://venuek.example/markets/${t}` }
const P = (x: number) => Math.round(x * 1e6)

describe('venuek REST → normalized catalog', () => {
  test('an event with a live market (real capture): one platform market, one outcome per binary market', () => {
    const series = new Map([
      ['KXFED', { ticker: 'KXFED', category: 'Economics', fee_type: 'quadratic', fee_multiplier: 1 }],
    ])
    const e = mapVenuekEvent(fixtureJson<KEvent>('venuek/event-kxfed-27apr.json'), series, links)
    assert.ok(e !== undefined)
    assert.equal(e.eventId, 'KXFED-27APR')
    assert.equal(e.category, 'economics')
    assert.equal(e.status, 'active')
    assert.equal(e.rawStatus, 'active')
    assert.equal(e.endTime, Date.parse('2027-04-28T18:00:00Z'))
    assert.equal(e.volumeTotal, 10155.43)
    assert.equal(e.openInterest, 2020.47)
    assert.equal(e.liquidity, undefined, 'liquidity_dollars is a deprecated constant 0: unknown')
    const o = e.markets[0]!.outcomes[0]!
    assert.deepEqual(
      {
        id: o.outcomeId,
        title: o.title,
        bid: o.catalogBestBid,
        ask: o.catalogBestAsk,
        last: o.catalogLastPrice,
        v24: o.volume24h,
        strike: o.strike,
        fees: o.fees,
      },
      {
        id: 'KXFED-27APR-T4.25',
        title: 'Above 4.25%',
        bid: 0.27,
        ask: 0.28,
        last: 0.28,
        v24: 0,
        strike: { type: 'greater', floor: 4.25, cap: undefined },
        fees: { kind: 'curve', rate: 0.07, exponent: 1 },
      },
    )
    assert.equal(o.closeTime, Date.parse('2027-04-28T17:55:00Z'))
    assert.deepEqual(o.details, {
      question:
        "Will the upper bound of the federal funds rate be above 4.25% following the Fed's Apr 28, 2027 meeting?",
      groupItemTitle: undefined,
      groupItemThreshold: undefined,
      yesSubTitle: 'Above 4.25%',
      noSubTitle: 'Above 4.25%',
      negRisk: undefined,
      rules: 'If the upper bound of the target federal funds rate ... resolves to Yes.',
      expectedExpiration: Date.parse('2027-04-28T18:05:00Z'),
    })
    assert.deepEqual(e.details, {
      seriesTicker: 'KXFED',
      strikeDate: Date.parse('2027-04-28T18:00:00Z'),
      strikePeriod: undefined,
      tags: ['Economics'],
      negRisk: undefined,
      description: undefined,
      // The ticker's series part; "27APR" is a month, not a day code.
      identifier: { day: undefined, minutes: undefined, league: 'fed', codes: undefined, codeRun: undefined },
    })
  })

  test("an outcome without yes_sub_title: its subtitle, else what its title says apart from its siblings, else the title without the event's words", () => {
    const raw = fixtureJson<KEvent>('venuek/event-kxfed-27apr.json')
    const m = raw.markets![0]!
    const market = (ticker: string, title: string, extra: Record<string, string> = {}) => ({
      ...m,
      ticker,
      title,
      yes_sub_title: '',
      subtitle: '',
      ...extra,
    })
    const group = mapVenuekEvent(
      {
        ...raw,
        title: 'Who will play the next Bond girl?',
        markets: [
          market('A', 'Will Emma Mackey perform as a Bond girl in the next James Bond film?'),
          market('B', 'Will Ana de Armas perform as a Bond girl in the next James Bond film?'),
          market('C', 'Will Zendaya perform as a Bond girl in the next James Bond film?', {
            subtitle: 'Zendaya (subtitle)',
          }),
        ],
      },
      new Map(),
      links,
    )!
    assert.deepEqual(
      group.markets[0]!.outcomes.map((o) => o.title),
      ['Emma Mackey', 'Ana de Armas', 'Zendaya (subtitle)'],
    )
    const single = mapVenuekEvent(
      { ...raw, title: 'Fed rate after the meeting', markets: [market('S', 'Fed rate above 4.25% after the meeting')] },
      new Map(),
      links,
    )!
    assert.equal(single.markets[0]!.outcomes[0]!.title, 'above 4.25%')
  })

  test('statuses map to the service model; "no quote" zeros are unknown', () => {
    const raw = fixtureJson<KEvent>('venuek/event-kxfed-27apr.json')
    const m = raw.markets![0]!
    const cases: [string, string][] = [
      ['initialized', 'active'],
      ['inactive', 'active'],
      ['closed', 'closed'],
      ['disputed', 'closed'],
      ['determined', 'resolved'],
      ['finalized', 'resolved'],
      ['something-new', 'closed'],
    ]
    for (const [raw_, expected] of cases) {
      const e = mapVenuekEvent(
        {
          ...raw,
          markets: [
            {
              ...m,
              status: raw_,
              result: 'yes',
              yes_bid_dollars: '0.0000',
              yes_ask_dollars: '1.0000',
              last_price_dollars: '0.0000',
            },
          ],
        },
        new Map(),
        links,
      )
      const o = e!.markets[0]!.outcomes[0]!
      assert.equal(o.status, expected, raw_)
      assert.equal(o.catalogBestBid, undefined)
      assert.equal(o.catalogBestAsk, undefined)
      assert.equal(o.catalogLastPrice, undefined)
      assert.equal(o.won, expected === 'resolved' ? true : undefined)
    }
  })
})

describe('venuek WS → feed events on the YES book', () => {
  test('snapshot and delta (verbatim demo capture): NO bids become YES asks at 1 − price', () => {
    const [snap, delta] = readFixture('venuek/ws-orderbook-noleg.jsonl')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    const out: FeedEvent[] = []
    assert.ok(mapVenuekData(snap.type, snap.msg, 5, out))
    assert.ok(mapVenuekData(delta.type, delta.msg, 6, out))
    const ticker = 'KXWTACHALLENGERMATCH-26JUN11JIMLEP-LEP'
    assert.deepEqual(out, [
      { type: 'snapshot', instrumentId: ticker, bids: [[P(0.47), P(3)]], asks: [[P(0.52), P(2)]], venueTs: 5 },
      { type: 'delta', instrumentId: ticker, side: 'bid', price: P(0.47), delta: P(-3), venueTs: 1781159489957 },
    ])
    // Applied to a book: YES ask = 1 − best NO bid = 0.52; the delta empties the YES bid.
    const book = new OrderBook()
    const s = out[0] as Extract<FeedEvent, { type: 'snapshot' }>
    book.applySnapshot(s.bids, s.asks)
    assert.equal(book.bestAsk(), P(0.52))
    const d = out[1] as Extract<FeedEvent, { type: 'delta' }>
    book.addToLevel(d.side, d.price, d.delta)
    assert.equal(book.bestBid(), undefined)
  })

  test('a NO-side delta moves the YES ask; an absent snapshot side is empty', () => {
    const out: FeedEvent[] = []
    mapVenuekData('orderbook_snapshot', { market_ticker: 'T', yes_dollars_fp: [['0.1000', '5.00']] }, 1, out)
    mapVenuekData(
      'orderbook_delta',
      { market_ticker: 'T', price_dollars: '0.8500', delta_fp: '12.50', side: 'no', ts_ms: 2 },
      2,
      out,
    )
    assert.deepEqual(out, [
      { type: 'snapshot', instrumentId: 'T', bids: [[P(0.1), P(5)]], asks: [], venueTs: 1 },
      { type: 'delta', instrumentId: 'T', side: 'ask', price: P(0.15), delta: P(12.5), venueTs: 2 },
    ])
  })

  test('trade and ticker (spec examples)', () => {
    const trade = JSON.parse(readFixture('venuek/ws-trade.json'))
    const ticker = JSON.parse(readFixture('venuek/ws-ticker.json'))
    const out: FeedEvent[] = []
    assert.ok(mapVenuekData(trade.type, trade.msg, 1, out))
    assert.ok(mapVenuekData(ticker.type, ticker.msg, 1, out))
    assert.deepEqual(out, [
      { type: 'trade', instrumentId: 'HIGHNY-22DEC23-B53.5', price: P(0.36), size: P(136), venueTs: 1669149841000 },
      { type: 'stats', instrumentId: 'FED-23DEC-T3.00', volume: 33896, openInterest: 20422, venueTs: 1669149841000 },
    ])
  })

  test('unreadable messages are reported', () => {
    assert.equal(
      mapVenuekData('orderbook_delta', { market_ticker: 'T', price_dollars: '0.5', delta_fp: 'x', side: 'yes' }, 1, []),
      false,
    )
    assert.equal(mapVenuekData('orderbook_snapshot', { market_ticker: 'T', yes_dollars_fp: [['0.5']] }, 1, []), false)
    assert.equal(mapVenuekData('orderbook_delta', null, 1, []), false)
  })
})

test('venuek probability: YES midpoint, else last price, else unknown', () => {
  assert.equal(venuekProbability({ bestBid: 0.27, bestAsk: 0.28, lastTradePrice: 0.5 }), 0.275)
  assert.equal(venuekProbability({ bestBid: undefined, bestAsk: 0.28, lastTradePrice: 0.3 }), 0.3)
  assert.equal(venuekProbability({ bestBid: undefined, bestAsk: undefined, lastTradePrice: undefined }), undefined)
})
