import assert from 'node:assert/strict'
import { test } from 'node:test'
import { venuekFrames } from '../../bench/scenarios.js'
import { dataFrame, deltaMsgs, snapshotMsg, tickerMsg, tradeMsg } from '../../src/sim/venuek/ws-frames.js'
import type { VkTrade } from '../../src/sim/venuek/trade-store.js'
import type { VkMarket } from '../../src/sim/venuek/types.js'
import { Rng } from '../../src/sim/world/random.js'
import type { FeedEvent } from '../../src/venues/types.js'
import { scanDataFrame } from '../../src/venues/venuek/frame-scan.js'
import { mapVenuekData } from '../../src/venues/venuek/map-message.js'
import type { KEnvelope } from '../../src/venues/venuek/wire.js'

/**
 * The venuek orderbook_delta, ticker and orderbook_snapshot fast paths against JSON.parse: for any text they either decline
 * (undefined) or give the envelope JSON.parse gives (type, sid, seq, id) with the same values for every msg
 * member the mappers read, so the feed maps it to the same events; and they take the frames the simulator sends.
 */
const RECEIVED = 1_763_726_400_123
const READ: Record<string, readonly string[]> = {
  orderbook_delta: ['market_ticker', 'price_dollars', 'delta_fp', 'side', 'ts_ms'],
  ticker: ['market_ticker', 'volume_fp', 'open_interest_fp', 'ts_ms'],
  orderbook_snapshot: ['market_ticker', 'yes_dollars_fp', 'no_dollars_fp'],
}

/** Checks one text both ways; returns whether the fast path took it. */
function check(text: string): boolean {
  const fast = scanDataFrame(text)
  if (fast === undefined) return false
  let parsed: KEnvelope
  try {
    parsed = JSON.parse(text) as KEnvelope
  } catch {
    assert.fail(`took a frame JSON.parse rejects: ${JSON.stringify(text)}`)
  }
  for (const k of ['type', 'sid', 'seq', 'id'] as const)
    assert.ok(Object.is(fast[k], parsed[k]), `${k} differs for ${text}`)
  const msg = parsed.msg as Record<string, unknown>
  const keys = READ[parsed.type as string]
  assert.ok(
    keys !== undefined && typeof msg === 'object' && msg !== null && !Array.isArray(msg),
    `took a frame outside the layouts: ${text}`,
  )
  for (const k of keys) {
    const got: unknown = (fast.msg as Record<string, unknown>)[k]
    // A snapshot's levels are lists: equal element for element.
    if (Array.isArray(msg[k])) assert.deepStrictEqual(got, msg[k], `msg.${k} differs for ${text}`)
    else assert.ok(Object.is(got, msg[k]), `msg.${k} differs for ${text}`)
  }
  const a: FeedEvent[] = []
  const b: FeedEvent[] = []
  assert.equal(
    mapVenuekData(fast.type as string, fast.msg, RECEIVED, a),
    mapVenuekData(parsed.type as string, parsed.msg, RECEIVED, b),
  )
  assert.deepStrictEqual(a, b, text)
  return true
}

const market = (ticker: string): VkMarket => ({ ticker, marketId: `id-${ticker}` }) as unknown as VkMarket

test('takes every delta, ticker and snapshot the simulator and the bench build, and the venue examples, with the values JSON.parse reads', () => {
  const frames: string[] = [...venuekFrames(5, ['KXA-26NOV21-T1', 'KXB-26DEC31-B2.5'], 500, 1)]
  const m = market('KXPRES-28-DJT')
  const ts = Date.UTC(2026, 10, 21, 12, 0, 0, 345)
  const changes = [
    { side: 'bid', price: 470_000, size: 1_250_000_000, prevSize: 1_000_000_000 },
    { side: 'ask', price: 530_000, size: 0, prevSize: 20_500_000 },
    { side: 'ask', price: 990_000, size: 1_000_000, prevSize: 0 },
  ] as const
  for (const yes of [false, true])
    for (const msg of deltaMsgs(m, changes, ts, yes)) frames.push(dataFrame('orderbook_delta', 7, 123, msg))
  // venuek.md §6.4, verbatim, and with the optional members an own order adds.
  const capture =
    '{"type":"orderbook_delta","sid":1,"seq":2,"msg":{"market_ticker":"KXWTACHALLENGERMATCH-26JUN11JIMLEP-LEP","market_id":"f5ed38e2-0991-4c8f-817e-08c4fd9cbfdb","price_dollars":"0.4700","delta_fp":"-3.00","side":"yes","ts":"2026-06-11T06:31:29.957081Z","ts_ms":1781159489957}}'
  frames.push(capture, capture.replace('}}', ',"client_order_id":"abc-1","subaccount":0}}'))
  // Tickers as the simulator builds them (tickerState's fields, market_ticker first) and as the venue's example
  // has them (market_id first), including a market that never traded (price_dollars "").
  const state = (head: string, price: string) =>
    `${head},"price_dollars":"${price}","yes_bid_dollars":"0.4500","yes_ask_dollars":"0.5300","volume_fp":"33896.00","open_interest_fp":"20422.00"` +
    ',"dollar_volume":16948,"dollar_open_interest":10211,"yes_bid_size_fp":"300.00","yes_ask_size_fp":"150.00","last_trade_size_fp":"25.00"'
  frames.push(
    dataFrame(
      'ticker',
      9,
      undefined,
      tickerMsg(state('"market_ticker":"KXPRES-28-DJT","market_id":"id-1"', '0.4800'), ts),
    ),
  )
  frames.push(
    dataFrame('ticker', 9, undefined, tickerMsg(state('"market_ticker":"KXPRES-28-DJT","market_id":"id-1"', ''), ts)),
  )
  frames.push(
    '{"type":"ticker","sid":11,"msg":{"market_id":"9b0f6b43-5b68-4f9f-9f02-9a2d1b8ac1a1","market_ticker":"FED-23DEC-T3.00","price_dollars":"0.4800","yes_bid_dollars":"0.4500","yes_ask_dollars":"0.5300","volume_fp":"33896.00","open_interest_fp":"20422.00","dollar_volume":16948,"dollar_open_interest":10211,"yes_bid_size_fp":"300.00","yes_ask_size_fp":"150.00","last_trade_size_fp":"25.00","ts":1669149841,"ts_ms":1669149841000,"time":"2022-11-22T20:44:01Z"}}',
  )
  // Snapshots as the simulator sends them (with the subscribe command's id, either side empty, either price
  // convention) and as venuek.md §6.4 has one, verbatim.
  const book = {
    yes: [
      [10_000, 2_000_000],
      [470_000, 3_000_000],
    ],
    no: [[480_000, 2_500_000]],
  } as const
  for (const yes of [false, true]) {
    frames.push(dataFrame('orderbook_snapshot', 3, 1, snapshotMsg(m, book, yes), 17))
    frames.push(dataFrame('orderbook_snapshot', 3, 1, snapshotMsg(m, { yes: book.yes, no: [] }, yes)))
    frames.push(dataFrame('orderbook_snapshot', 3, 1, snapshotMsg(m, { yes: [], no: book.no }, yes), 4))
    frames.push(dataFrame('orderbook_snapshot', 3, 1, snapshotMsg(m, { yes: [], no: [] }, yes)))
  }
  frames.push(
    '{"type":"orderbook_snapshot","sid":1,"seq":1,"msg":{"market_ticker":"KXWTACHALLENGERMATCH-26JUN11JIMLEP-LEP","market_id":"f5ed38e2-0991-4c8f-817e-08c4fd9cbfdb","yes_dollars_fp":[["0.4700","3.00"]],"no_dollars_fp":[["0.4800","2.00"]]}}',
  )
  for (const f of frames) assert.ok(check(f), `declined: ${f}`)
  // Other data frames take the general path.
  const trade: VkTrade = {
    tradeId: 't-1',
    market: m,
    ts,
    yesPrice: 0.47,
    count: 12.5,
    takerOutcomeSide: 'yes',
    takerBookSide: 'bid',
  }
  assert.equal(scanDataFrame(dataFrame('trade', 11, 4, tradeMsg(trade))), undefined)
  assert.equal(
    scanDataFrame(
      dataFrame('ticker', 9, undefined, tickerMsg('"market_ticker":"KX","market_id":"x","volume_fp":"12.00"', ts)),
    ),
    undefined,
  )
})

// ---------------------------------------------------------------------------------------------------------
// Random texts around the layout: members as [key, raw JSON text] so keys repeat and values keep their
// spelling; whitespace, escapes, nesting, other types and truncation break the layout some of the time.

const TICKER_CANONICAL: [string, string][] = [
  ['market_ticker', '"KXFED-27APR-T4.25"'],
  ['market_id', '"f5ed38e2-0991"'],
  ['price_dollars', '"0.4800"'],
  ['yes_bid_dollars', '"0.4500"'],
  ['yes_ask_dollars', '"0.5300"'],
  ['volume_fp', '"33896.00"'],
  ['open_interest_fp', '"20422.00"'],
  ['dollar_volume', '16948'],
  ['dollar_open_interest', '10211'],
  ['yes_bid_size_fp', '"300.00"'],
  ['yes_ask_size_fp', '"150.00"'],
  ['last_trade_size_fp', '"25.00"'],
  ['ts', '1669149841'],
  ['ts_ms', '1669149841000'],
  ['time', '"2022-11-22T20:44:01Z"'],
]
const SNAPSHOT_CANONICAL: [string, string][] = [
  ['market_ticker', '"KXFED-27APR-T4.25"'],
  ['market_id', '"f5ed38e2-0991"'],
  ['yes_dollars_fp', '[["0.0100","5.00"],["0.4700","3.00"]]'],
  ['no_dollars_fp', '[["0.4800","2.00"]]'],
]
const CANONICAL: [string, string][] = [
  ['market_ticker', '"KXFED-27APR-T4.25"'],
  ['market_id', '"f5ed38e2-0991"'],
  ['price_dollars', '"0.4700"'],
  ['delta_fp', '"-3.00"'],
  ['side', '"yes"'],
  ['ts', '"2026-06-11T06:31:29.957081Z"'],
  ['ts_ms', '1781159489957'],
]
const KEYS = [
  'market_ticker',
  'price_dollars',
  'delta_fp',
  'side',
  'ts_ms',
  'ts',
  'market_id',
  'volume_fp',
  'open_interest_fp',
  'time',
  'dollar_volume',
  'client_order_id',
  'subaccount',
  'x',
  '',
  'sid',
  'seq',
  'type',
  'msg',
  'é',
  'a,b',
  'a}b',
]
const SCALARS = [
  '"KX-1"',
  '"0.4700"',
  '"-12.00"',
  '"yes"',
  '"no"',
  '""',
  '"a}b,c"',
  '"é"',
  '"\\u0041"',
  '"a\\"b"',
  '0',
  '-0',
  '17',
  '-5',
  '1.5',
  '1e3',
  '2E-2',
  '123456789012345678',
  '1763726400123',
  'true',
  'false',
  'null',
]
const NESTED = [
  '[]',
  '[1,2]',
  '{}',
  '{"a":1}',
  '[["0.47","10.00"]]',
  '[["0.47",10]]',
  '[["0.47"]]',
  '[["0.47","1.00","x"]]',
  '[["0.47","1.00"],]',
  '[["0.4\\u0037","1.00"]]',
  '[["0.47","1.00"], ["0.48","2.00"]]',
]
const INTS = ['1', '2', '99', '0', '-1', '-0', '1.5', '1e2', '"3"', 'null', '12345678901234567890']

function object(rng: Rng, members: [string, string][], space: number): string {
  const ws = () => (rng.chance(space) ? rng.pick([' ', '\n', '\t ']) : '')
  return `{${ws()}${members.map(([k, v]) => `${JSON.stringify(k)}${ws()}:${ws()}${v}`).join(`${ws()},${ws()}`)}${ws()}}`
}

/** The documented delta, then a few random edits: values, extra or repeated members, order, whitespace, cuts. */
function randomText(rng: Rng): string {
  const edits = rng.chance(0.3) ? 0 : rng.int(1, 3)
  const kind = rng.pick(['delta', 'ticker', 'snapshot'] as const)
  const isTicker = kind === 'ticker'
  const canonical = isTicker ? TICKER_CANONICAL : kind === 'snapshot' ? SNAPSHOT_CANONICAL : CANONICAL
  const msg: [string, string][] = canonical.map(([k, v]) => [k, v])
  // A snapshot's sides are each absent when empty.
  if (kind === 'snapshot' && rng.chance(0.3)) msg.splice(rng.int(2, 3), 1)
  // The venue's ticker example has market_id first.
  if (isTicker && rng.chance(0.5)) msg.splice(0, 2, msg[1] as [string, string], msg[0] as [string, string])
  const env: [string, string][] = isTicker
    ? [
        ['type', '"ticker"'],
        ['sid', rng.pick(INTS.slice(0, 4))],
      ]
    : [
        ['type', kind === 'snapshot' ? '"orderbook_snapshot"' : '"orderbook_delta"'],
        ['sid', rng.pick(INTS.slice(0, 4))],
        ['seq', rng.pick(INTS.slice(0, 4))],
      ]
  // A snapshot that answers a subscribe carries its command's id, before sid.
  if (kind === 'snapshot' && rng.chance(0.5)) env.splice(1, 0, ['id', rng.pick(INTS.slice(0, 4))])
  let space = 0
  let cut = false
  for (let e = 0; e < edits; e++) {
    const r = rng.int(0, 9)
    if (r === 0) msg[rng.int(0, msg.length - 1)]![1] = rng.pick(SCALARS)
    else if (r === 1) msg.push([rng.pick(KEYS), rng.chance(0.2) ? rng.pick(NESTED) : rng.pick(SCALARS)])
    else if (r === 2) msg.splice(rng.int(0, msg.length), 0, [rng.pick(KEYS), rng.pick(SCALARS)])
    else if (r === 3 && msg.length > 0) msg.splice(rng.int(0, msg.length - 1), 1)
    else if (r === 4) env[rng.int(1, env.length - 1)]![1] = rng.pick(INTS)
    else if (r === 5)
      env[0]![1] = rng.pick([
        '"ticker"',
        '"orderbook_delta"',
        '"trade"',
        '"orderbook_snapshot"',
        '"Orderbook_delta"',
        '"tickers"',
        '1',
      ])
    else if (r === 6) env.splice(rng.int(0, env.length), 0, [rng.pick(['id', 'x', 'sid', 'seq']), rng.pick(INTS)])
    else if (r === 7) space = 0.2
    else if (r === 8) cut = true
    else {
      const a = rng.int(0, msg.length - 1)
      const b = rng.int(0, msg.length - 1)
      ;[msg[a], msg[b]] = [msg[b] as [string, string], msg[a] as [string, string]]
    }
  }
  env.push(['msg', object(rng, msg, space)])
  let text = object(rng, env, space / 2)
  if (cut) text = text.slice(0, rng.int(0, text.length - 1))
  if (rng.chance(0.1)) text = `${rng.pick([' ', '\n'])}${text}${rng.pick(['', ' ', '\r\n'])}`
  return text
}

test('random texts: declined, or read exactly as JSON.parse reads them', () => {
  const rng = new Rng(20261122)
  let taken = 0
  let declined = 0
  const takenByType = new Map<string, number>()
  for (let i = 0; i < 30_000; i++) {
    const text = randomText(rng)
    if (check(text)) {
      taken++
      const type = scanDataFrame(text)?.type as string
      takenByType.set(type, (takenByType.get(type) ?? 0) + 1)
    } else {
      declined++
    }
  }
  assert.ok(
    (takenByType.get('orderbook_delta') ?? 0) > 3_000 &&
      (takenByType.get('ticker') ?? 0) > 3_000 &&
      (takenByType.get('orderbook_snapshot') ?? 0) > 3_000,
    JSON.stringify([...takenByType]),
  )
  // Both ways are exercised: well-formed flat frames are taken, the rest are not.
  assert.ok(taken > 10_000, `took ${taken}`)
  assert.ok(declined > 5_000, `declined ${declined}`)
})

test('declines what the general path must see: other types, nesting, escapes, whitespace inside, other orders, repeats, missing members', () => {
  const ok =
    '{"type":"orderbook_delta","sid":1,"seq":2,"msg":{"market_ticker":"KX","market_id":"m","price_dollars":"0.47","delta_fp":"-1.00","side":"yes","ts":"t","ts_ms":5}}'
  assert.ok(scanDataFrame(ok) !== undefined)
  const tick =
    '{"type":"ticker","sid":3,"msg":{"market_ticker":"KX","market_id":"m","price_dollars":"","yes_bid_dollars":"0.1","yes_ask_dollars":"0.2","volume_fp":"2.00","open_interest_fp":"1.00",' +
    '"dollar_volume":1,"dollar_open_interest":0,"yes_bid_size_fp":"1.00","yes_ask_size_fp":"2.00","last_trade_size_fp":"0.00","ts":1,"ts_ms":5,"time":"t"}}'
  assert.ok(scanDataFrame(tick) !== undefined)
  for (const text of [
    ok.replace('orderbook_delta', 'orderbook_snapshot'),
    ok.replace('"side":"yes"', '"side":["yes"]'),
    ok.replace('"KX"', '"K\\u0058"'),
    ok.replace('"type":"', '"type": "'),
    ok.replace('"sid":1,"seq":2', '"seq":2,"sid":1'),
    ok.replace('"sid":1', '"sid":"1"'),
    ok.replace('"ts_ms":5', '"ts_ms":5.5'),
    ok.replace('}}', ',"side":"no"}}'),
    ok.replace('}}', ',"extra":{"a":1}}}'),
    ok.replace('}}', '},"x":1}'),
    ok.slice(0, -1),
    `${ok},`,
    tick.replace('"ts_ms":5', '"ts_ms":"5"'),
    tick.replace('}}', ',"volume_fp":"1.00"}}'),
    tick.replace(',"time":"t"', ''),
    tick.replace('"sid":3', '"sid":3,"seq":1'),
    tick.replace('"volume_fp":"2.00","open_interest_fp":"1.00"', '"open_interest_fp":"1.00","volume_fp":"2.00"'),
  ]) {
    assert.equal(scanDataFrame(text), undefined, text)
  }
})
