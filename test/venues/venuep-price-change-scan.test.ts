import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { venuepFrames } from '../../bench/scenarios.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { BookEventFrames } from '../../src/sim/venuep/ws-frames.js'
import { isVenuepEvent } from '../../src/sim/venuep/engine-moves.js'
import { SimEngine } from '../../src/sim/world/engine.js'
import { generateWorld } from '../../src/sim/world/generate.js'
import { Rng } from '../../src/sim/world/random.js'
import type { FeedEvent } from '../../src/venues/types.js'
import { mapVenuepFrame, mapVenuepMessages } from '../../src/venues/venuep/map-message.js'
import { scanPriceChangeFrame } from '../../src/venues/venuep/price-change-scan.js'
import { readFixture } from '../helpers/fixtures.js'
import { SIM_PEERS } from '../../src/sim/peers.js'

/**
 * The price_change fast path against the general path (JSON.parse + mapVenuepMessages): for any frame it
 * either declines (undefined, nothing appended) or gives exactly the same events and unreadable count; and it
 * must not decline the frames the simulator and the bench actually send.
 */

const RECEIVED = 1_757_908_900_123
const SENTINEL: FeedEvent = { type: 'stale', instrumentIds: ['sentinel'], reason: 'already in the list' }

type General = { events: FeedEvent[]; bad: number } | 'malformed'

function general(frame: string, receivedAt: number): General {
  let parsed: unknown
  try {
    parsed = JSON.parse(frame)
  } catch {
    return 'malformed'
  }
  const events: FeedEvent[] = []
  const bad = mapVenuepMessages(parsed, receivedAt, events)
  return { events, bad }
}

interface Tally {
  frames: number
  taken: number
  takenWithBad: number
  takenArrays: number
  malformed: number
}

const newTally = (): Tally => ({ frames: 0, taken: 0, takenWithBad: 0, takenArrays: 0, malformed: 0 })

/** Checks one frame both ways; returns whether the fast path took it. */
function check(frame: string, receivedAt: number, tally: Tally): boolean {
  tally.frames++
  const expected = general(frame, receivedAt)
  if (expected === 'malformed') tally.malformed++
  const out: FeedEvent[] = [SENTINEL]
  const fast = scanPriceChangeFrame(frame, receivedAt, out)
  assert.equal(out[0], SENTINEL, 'events already in the list are kept')
  if (fast === undefined) {
    assert.equal(out.length, 1, `declined but appended events: ${frame}`)
  } else {
    assert.notEqual(expected, 'malformed', `took a frame JSON.parse rejects: ${JSON.stringify(frame)}`)
    if (expected === 'malformed') return true
    assert.deepStrictEqual(out.slice(1), expected.events, `events differ for ${frame}`)
    assert.equal(fast, expected.bad, `unreadable count differs for ${frame}`)
    tally.taken++
    if (fast > 0) tally.takenWithBad++
    if (frame.trimStart().startsWith('[')) tally.takenArrays++
  }
  // The feed's frame step gives the general path's answer whichever way it goes.
  const events: FeedEvent[] = []
  const step = mapVenuepFrame(frame, receivedAt, events)
  if (expected === 'malformed') {
    assert.equal(step, 'malformed', frame)
    assert.equal(events.length, 0)
  } else {
    assert.equal(step, expected.bad, frame)
    assert.deepStrictEqual(events, expected.events, frame)
  }
  return fast !== undefined
}

// ---------------------------------------------------------------------------------------------------------
// Random frames. Objects are lists of [key, value] pairs so keys can repeat and come in any order; the writer
// controls whitespace, escapes and number spelling, then a frame may be corrupted.

type Value = null | boolean | Num | string | Value[] | Obj
/** A number as written on the wire (its text, so "1.50", "-0", "1E+2" survive). */
class Num {
  constructor(readonly text: string) {}
}
class Obj {
  constructor(readonly pairs: [string, Value][]) {}
}

const NUMBERS = [
  '0',
  '-0',
  '1',
  '42',
  '-7',
  '0.5',
  '1.50',
  '1e3',
  '1E+2',
  '2.5e-3',
  '123456789012345678901234567890',
  '0.000001',
]
const KEYS = [
  'fee_rate_bps',
  'x',
  '',
  'price_',
  'asset_idx',
  'Side',
  'side ',
  'sizes',
  'timestamp_ms',
  '__proto__',
  'a}b',
  'a]b',
  'é',
  '{',
  'market',
]
const TEXT = ['', 'abc', '0x5f65', 'a}b', 'a]b', '[', '{', 'é', '😀', 'a,b', 'a:b', 'null', '1']
const PRICES = [
  '0.5',
  '0.47',
  '.5',
  '5.',
  '0',
  '1',
  '0.001',
  '0.1234565',
  '0.9999995',
  '12345678901.5',
  '-0.5',
  '-0',
  '+0.5',
  '1e-3',
  ' 0.5',
  '0.5 ',
  'abc',
  '',
  '.',
  '-',
  '0x10',
  'Infinity',
  '007',
  '1.2.3',
]
const SIZES = ['200', '0', '10.25', '191.89', '5000', '1e2', '0.0000001', '99999999999', '-3', '', 'x', '1,5']
const SIDES = ['BUY', 'SELL', 'buy', 'sell', '', 'HOLD', 'BUYS', 'SEL']
const TIMESTAMPS = [
  '1757908892351',
  '0',
  '0017',
  '',
  'abc',
  '1.5',
  '1e3',
  ' 12',
  '12 ',
  '-5',
  '123456789012345678901',
  '99999999999999999999',
  '999999999999999',
  '9007199254740993',
]
const TYPES = ['book', 'last_trade_price', 'tick_size_change', 'best_bid_ask', 'price_changes', 'Price_change', '']

function digits(rng: Rng, n: number): string {
  let s = String(rng.int(1, 9))
  while (s.length < n) s += String(rng.int(0, 9))
  return s
}

function hex(rng: Rng, n: number): string {
  let s = ''
  while (s.length < n) s += '0123456789abcdef'[rng.int(0, 15)]
  return s
}

function randomValue(rng: Rng, depth: number): Value {
  const r = rng.next()
  if (r < 0.25) return rng.pick(TEXT)
  if (r < 0.45) return new Num(rng.pick(NUMBERS))
  if (r < 0.5) return true
  if (r < 0.55) return false
  if (r < 0.62) return null
  if (depth > 2 || r < 0.8) return rng.chance(0.5) ? hex(rng, 40) : rng.pick(TEXT)
  if (r < 0.9) return Array.from({ length: rng.int(0, 3) }, () => randomValue(rng, depth + 1))
  return new Obj(
    Array.from({ length: rng.int(0, 3) }, (): [string, Value] => [rng.pick(KEYS), randomValue(rng, depth + 1)]),
  )
}

/** A field value: mostly `good`, sometimes something else of any type. */
function field(rng: Rng, good: () => Value, oddity: number): Value | undefined {
  if (!rng.chance(oddity)) return good()
  const r = rng.next()
  if (r < 0.2) return undefined // missing
  if (r < 0.35) return new Num(rng.pick(NUMBERS))
  if (r < 0.45) return null
  return randomValue(rng, 1)
}

/** Another value of the same kind: the other side, another decimal, else the same value. */
function variant(v: Value): Value {
  if (v === 'BUY') return 'SELL'
  if (v === 'SELL') return 'BUY'
  if (typeof v === 'string' && /^[0-9]+(\.[0-9]+)?$/.test(v)) return String(Number(v) + 1)
  return v
}

function shuffle<T>(rng: Rng, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = rng.int(0, i)
    ;[items[i], items[j]] = [items[j] as T, items[i] as T]
  }
  return items
}

/** Pairs in canonical order (or shuffled), with extra members and occasionally a repeated key. */
function members(rng: Rng, fields: [string, Value | undefined][], o: FrameStyle): [string, Value][] {
  const pairs = fields.filter((f): f is [string, Value] => f[1] !== undefined)
  if (rng.chance(o.extras)) {
    for (let n = rng.int(1, 3); n > 0; n--) {
      if (o.venueLike) {
        // As a venue adding fields would: after the known members, scalar values.
        pairs.push([
          rng.pick(KEYS),
          rng.chance(0.5)
            ? new Num(rng.pick(NUMBERS))
            : rng.pick<Value>([true, false, null, hex(rng, 8), rng.pick(TEXT)]),
        ])
      } else {
        const extra: [string, Value] = [rng.pick(KEYS), randomValue(rng, 1)]
        if (rng.chance(0.7)) pairs.push(extra)
        else pairs.splice(rng.int(0, pairs.length), 0, extra)
      }
    }
  }
  if (rng.chance(o.shuffle)) shuffle(rng, pairs)
  if (pairs.length > 0 && rng.chance(o.repeat)) {
    const [key, value] = pairs[rng.int(0, pairs.length - 1)] as [string, Value]
    if (o.venueLike) {
      // A plausible second value at the end, where JSON.parse takes it over the first.
      pairs.push([key, variant(value)])
    } else {
      pairs.splice(rng.int(0, pairs.length), 0, [key, rng.chance(0.5) ? randomValue(rng, 1) : value])
    }
  }
  return pairs
}

interface FrameStyle {
  /** Chance that a field is missing or of another type / another value. */
  readonly oddity: number
  readonly extras: number
  /** Extra members only after the known ones, with scalar values; otherwise anywhere, any value. */
  readonly venueLike: boolean
  readonly shuffle: number
  readonly repeat: number
  /** Chance of whitespace at each place JSON allows it. */
  readonly space: number
  /** Chance that a string is written with an escape. */
  readonly escape: number
}

function entry(rng: Rng, o: FrameStyle, assets: readonly string[]): Value {
  if (rng.chance(o.oddity / 4)) return randomValue(rng, 2) // not an object (or an unrelated one)
  const o2 = o.oddity / 2
  return new Obj(
    members(
      rng,
      [
        [
          'asset_id',
          field(rng, () => (rng.chance(0.9) ? rng.pick(assets) : rng.pick(['', 'abc', digits(rng, 12)])), o2),
        ],
        ['price', field(rng, () => (rng.chance(0.8) ? (rng.int(1, 99) / 100).toString() : rng.pick(PRICES)), o2)],
        ['size', field(rng, () => (rng.chance(0.8) ? String(rng.int(0, 5000)) : rng.pick(SIZES)), o2)],
        ['side', field(rng, () => (rng.chance(0.9) ? rng.pick(['BUY', 'SELL']) : rng.pick(SIDES)), o2)],
        ['hash', rng.chance(0.9) ? field(rng, () => hex(rng, 40), o2) : undefined],
        ['best_bid', rng.chance(0.9) ? field(rng, () => '0.49', o2) : undefined],
        ['best_ask', rng.chance(0.9) ? field(rng, () => '0.51', o2) : undefined],
      ],
      o,
    ),
  )
}

function messageValue(rng: Rng, o: FrameStyle, assets: readonly string[]): Value {
  const o2 = o.oddity / 3
  const top: FrameStyle = o.venueLike ? { ...o, extras: 0 } : o
  const changes = (): Value => Array.from({ length: rng.chance(0.1) ? 0 : rng.int(1, 4) }, () => entry(rng, o, assets))
  return new Obj(
    members(
      rng,
      [
        ['event_type', field(rng, () => (rng.chance(0.95) ? 'price_change' : rng.pick(TYPES)), o2)],
        ['market', field(rng, () => `0x${hex(rng, 64)}`, o2)],
        ['price_changes', field(rng, changes, o2)],
        [
          'timestamp',
          field(rng, () => (rng.chance(0.85) ? String(1_757_908_892_351 + rng.int(0, 1e6)) : rng.pick(TIMESTAMPS)), o2),
        ],
      ],
      top,
    ),
  )
}

const SPACES = [' ', '\n', '\t', '\r', '  ', '\r\n  ']

function write(rng: Rng, value: Value, o: FrameStyle): string {
  const ws = () => (rng.chance(o.space) ? rng.pick(SPACES) : '')
  const str = (s: string): string => {
    if (s.length === 0 || !rng.chance(o.escape)) return JSON.stringify(s)
    // The same string with one character escaped: JSON.parse reads the same value.
    const i = rng.int(0, s.length - 1)
    const c = s[i] as string
    const esc =
      c === '/'
        ? '\\/'
        : rng.chance(0.5)
          ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
          : JSON.stringify(c).slice(1, -1)
    return `"${JSON.stringify(s.slice(0, i)).slice(1, -1)}${esc}${JSON.stringify(s.slice(i + 1)).slice(1, -1)}"`
  }
  const go = (v: Value): string => {
    if (v === null) return 'null'
    if (typeof v === 'boolean') return String(v)
    if (typeof v === 'string') return str(v)
    if (v instanceof Num) return v.text
    if (Array.isArray(v)) return `[${ws()}${v.map((x) => go(x)).join(`${ws()},${ws()}`)}${ws()}]`
    return `{${ws()}${v.pairs.map(([k, x]) => `${str(k)}${ws()}:${ws()}${go(x)}`).join(`${ws()},${ws()}`)}${ws()}}`
  }
  return ws() + go(value) + ws()
}

const GARBAGE = ['{', '}', '[', ']', ',', ':', '"', '\\', ' ', '0', 'a', '\u0001', '\n', '-', '.', 'e', 't', 'n']

function corrupt(rng: Rng, frame: string): string {
  const i = rng.int(0, frame.length)
  const r = rng.next()
  if (r < 0.3) return frame.slice(0, i) // truncated
  if (r < 0.55) return frame.slice(0, i) + frame.slice(i + 1) // a character lost
  if (r < 0.8) return frame.slice(0, i) + rng.pick(GARBAGE) + frame.slice(i) // a character added
  if (r < 0.9) return frame + rng.pick(GARBAGE) // trailing garbage
  return frame.slice(0, i) + rng.pick(GARBAGE) + frame.slice(i + 1) // a character replaced
}

function randomFrame(rng: Rng, assets: readonly string[]): string {
  const clean = rng.chance(0.45)
  const o: FrameStyle = clean
    ? { oddity: rng.chance(0.3) ? 0.1 : 0, extras: 0.3, venueLike: true, shuffle: 0, repeat: 0.03, space: 0, escape: 0 }
    : {
        oddity: rng.pick([0, 0.1, 0.3]),
        extras: 0.3,
        venueLike: false,
        shuffle: 0.3,
        repeat: 0.15,
        space: rng.pick([0, 0, 0.05, 0.3]),
        escape: rng.pick([0, 0, 0.02, 0.1]),
      }
  let value: Value
  const r = rng.next()
  if (r < 0.7) value = messageValue(rng, o, assets)
  else if (r < 0.97) value = Array.from({ length: rng.int(clean ? 1 : 0, 3) }, () => messageValue(rng, o, assets))
  else value = randomValue(rng, 0)
  let frame = write(rng, value, o)
  // Corrupting frames of the fast path's own layout gives the nearest misses.
  if (rng.chance(0.12)) frame = corrupt(rng, frame)
  if (rng.chance(0.02)) frame = frame.replace('"0.', '"0.\u0001') // a raw control character inside a string
  return frame
}

describe('venuep price_change fast path', () => {
  // Mostly the bench's ids (77 digits, a long common prefix), some 78-digit ones.
  const benchId = (i: number) =>
    `7132104567925221259462638553270691275033272857194253228963137931245558${String(i).padStart(7, '0')}`
  const assets = Array.from({ length: 20 }, (_, i) => (i % 4 === 3 ? digits(new Rng(i), 78) : benchId(i)))

  test('random frames: declined, or exactly the general path’s events and unreadable count', () => {
    const rng = new Rng(20_260_611)
    const tally = newTally()
    for (let n = 0; n < 20_000; n++)
      check(randomFrame(rng, assets), rng.chance(0.1) ? rng.int(0, 1000) : RECEIVED, tally)
    // The generator reaches every kind of outcome (otherwise this test would prove little).
    assert.ok(tally.taken > 4_000, `fast path taken ${tally.taken} times`)
    assert.ok(tally.takenWithBad > 800, `taken with unreadable entries ${tally.takenWithBad} times`)
    assert.ok(tally.takenArrays > 800, `taken for arrays ${tally.takenArrays} times`)
    assert.ok(tally.frames - tally.taken > 10_000, `declined ${tally.frames - tally.taken} times`)
    assert.ok(tally.malformed > 1_000, `${tally.malformed} malformed frames`)
  })

  test('every price_change frame the simulator sends takes the fast path', () => {
    const anchor = Date.UTC(2026, 10, 21, 12)
    const world = generateWorld({ anchorMs: anchor, questions: 40, wallets: 10 })
    const engine = new SimEngine(world, {
      peers: SIM_PEERS,
      clock: new SimulatedClock(anchor),
      quoteChangesPerSec: 2000,
      tradesPerSec: 0,
      stepMs: 100,
      dislocationsPerMin: 0,
    })
    const frames: string[] = []
    engine.on((e) => {
      if (!isVenuepEvent(e) || e.type !== 'vp_book') return
      // As the market channel builds them: one frame per subscription mask (token 0, token 1, both).
      const built = new BookEventFrames(world, e.market, e.book, e.changes, e.ts)
      for (const mask of [1, 2, 3] as const) frames.push(built.priceChange(mask))
    })
    for (let k = 1; k <= 6; k++) engine.step(anchor + k * 100)
    assert.ok(frames.length > 1_000, `${frames.length} frames`)
    const tally = newTally()
    for (const frame of frames) assert.ok(check(frame, RECEIVED, tally), `declined a simulator frame: ${frame}`)
    assert.ok(
      frames.some((f) => (JSON.parse(f) as { price_changes: unknown[] }).price_changes.length > 10),
      'some frames carry many entries',
    )
  })

  test('every frame of the ingest bench takes the fast path', () => {
    const tally = newTally()
    for (const frame of venuepFrames(2, assets, 500))
      assert.ok(check(frame, RECEIVED, tally), `declined a bench frame: ${frame}`)
  })

  describe('explicit cases', () => {
    const id0 = '71321045679252212594626385532706912750332728571942532289631379312455583992563'
    const id1 = '52114319501245915516055106046884209969926127482827954674443846427813813222426'
    const P = (x: number) => Math.round(x * 1e6)
    const docFrame = readFixture('venuep/ws-price-change.json')
    const compact = JSON.stringify(JSON.parse(docFrame))

    const scan = (frame: string, receivedAt = RECEIVED) => {
      const events: FeedEvent[] = []
      const bad = scanPriceChangeFrame(frame, receivedAt, events)
      return bad === undefined ? undefined : { bad, events }
    }

    test('the documented message, compact: taken, two level events at the venue timestamp', () => {
      assert.deepStrictEqual(scan(compact), {
        bad: 0,
        events: [
          { type: 'level', instrumentId: id0, side: 'bid', price: P(0.5), size: P(200), venueTs: 1757908892351 },
          { type: 'level', instrumentId: id1, side: 'ask', price: P(0.5), size: P(200), venueTs: 1757908892351 },
        ],
      })
      check(compact, RECEIVED, newTally())
    })

    test('the documented message as printed (with newlines): declined, and the frame step still reads it', () => {
      assert.equal(scan(docFrame), undefined)
      const events: FeedEvent[] = []
      assert.equal(mapVenuepFrame(docFrame, RECEIVED, events), 0)
      assert.equal(events.length, 2)
    })

    test('arrays of messages, entries without hash / best prices, unknown scalar members', () => {
      const m = (ts: string, extra = '') =>
        `{"event_type":"price_change","market":"0xab","price_changes":[{"asset_id":"${id0}","price":"0.47","size":"0","side":"SELL"${extra}}],"timestamp":"${ts}"}`
      const frame = `[${m('1', ',"fee_rate_bps":"0","n":-1.5e3,"t":true,"z":null')},${m('2', ',"hash":"ab}"')}]`
      // The second message has a `}` inside a member after side: declined as a whole.
      assert.equal(scan(frame), undefined)
      const ok = `[${m('1', ',"fee_rate_bps":"0","n":-1.5e3,"t":true,"z":null')},${m('2')}]`
      assert.deepStrictEqual(
        scan(ok)?.events.map((e) => (e.type === 'level' ? [e.side, e.price, e.size, e.venueTs] : e.type)),
        [
          ['ask', P(0.47), 0, 1],
          ['ask', P(0.47), 0, 2],
        ],
      )
      check(ok, RECEIVED, newTally())
      assert.deepStrictEqual(scan(`[${m('1')}]   \n`)?.events.length, 1)
      assert.deepStrictEqual(scan('[]'), undefined, 'an empty array is left to the general path')
    })

    test('unreadable numbers are counted like the general path; a bad side or a missing field is declined', () => {
      const e = (price: string, side = 'BUY') => `{"asset_id":"${id0}","price":"${price}","size":"1","side":"${side}"}`
      const frame = (...entries: string[]) =>
        `{"event_type":"price_change","market":"0xab","price_changes":[${entries.join(',')}],"timestamp":"5"}`
      assert.deepStrictEqual(scan(frame(e('abc'), e('0.5')))?.bad, 1)
      assert.deepStrictEqual(scan(frame(e('abc'), e('0.5')))?.events.length, 1)
      check(frame(e('abc'), e('0.5'), e('1e-3'), e(''), e('-0')), RECEIVED, newTally())
      assert.equal(scan(frame(e('0.5', 'HOLD'))), undefined)
      assert.equal(scan(frame(`{"asset_id":"${id0}","price":"0.5","side":"BUY"}`)), undefined)
      assert.equal(
        scan(frame(`{"asset_id":"${id0}","price":0.5,"size":"1","side":"BUY"}`)),
        undefined,
        'a JSON number where a string is read',
      )
    })

    test('ids that share length and last characters (one cache key), and very long ids, come out as themselves', () => {
      const ids = [
        '1111111111222222222233333333334444444444',
        '9999999999222222222233333333334444444444',
        'x111111111222222222233333333334444444444',
        '7'.repeat(300),
      ]
      const frame = (id: string) =>
        `{"event_type":"price_change","market":"0xab","price_changes":[{"asset_id":"${id}","price":"0.5","size":"1","side":"BUY"}],"timestamp":"5"}`
      for (let round = 0; round < 3; round++) {
        for (const id of [...ids, ids[0] as string, ids[0] as string]) {
          const got = scan(frame(id))?.events[0]
          assert.equal(got?.type === 'level' ? got.instrumentId : undefined, id)
        }
      }
    })

    test('timestamps: unreadable or missing fall back to receivedAt as in the general path', () => {
      for (const ts of ['', 'abc', '1.5', '1e3', '0017', '123456789012345678901', '99999999999999999999']) {
        const frame = `{"event_type":"price_change","market":"0xab","price_changes":[{"asset_id":"a","price":"0.5","size":"1","side":"BUY"}],"timestamp":"${ts}"}`
        assert.ok(check(frame, RECEIVED, newTally()), ts)
      }
      assert.equal(
        scan(`{"event_type":"price_change","market":"0xab","price_changes":[]}`),
        undefined,
        'no timestamp: general path',
      )
    })

    test('declined: other types, other key orders, repeated keys, escapes, control characters, invalid JSON', () => {
      const declined = [
        `{"event_type":"book","asset_id":"${id0}","market":"0xab","bids":[],"asks":[],"timestamp":"1"}`,
        `{"market":"0xab","event_type":"price_change","price_changes":[],"timestamp":"1"}`,
        `{"event_type":"price_change","market":"0xab","price_changes":[{"price":"0.5","asset_id":"a","size":"1","side":"BUY"}],"timestamp":"1"}`,
        `{"event_type":"price_change","market":"0xab","price_changes":[{"asset_id":"a","price":"0.5","size":"1","side":"BUY","price":"0.6"}],"timestamp":"1"}`,
        `{"event_type":"price_change","market":"0xab","price_changes":[{"asset_id":"a","price":"0.5","size":"1","side":"BUY","side":"SELL"}],"timestamp":"1"}`,
        `{"event_type":"price_change","market":"0xab","price_changes":[{"asset_id":"a","price":"0.5","size":"1","side":"BUY","asset_id":"b"}],"timestamp":"1"}`,
        `{"event_type":"price_change","market":"0xab","price_changes":[{"asset_id":"a\\u0030","price":"0.5","size":"1","side":"BUY"}],"timestamp":"1"}`,
        `{"event_type":"price_change","market":"0xab","price_changes":[{"asset_id":"a","price":"0.5\u0000","size":"1","side":"BUY"}],"timestamp":"1"}`,
        `{"event_type":"price_change","market":"0xab","price_changes":[{"asset_id":"a","price":"0.5","size":"1","side":"BUY","x":{"y":1}}],"timestamp":"1"}`,
        `{"event_type":"price_change","market":"0xab","price_changes":[{"asset_id":"a","price":"0.5","size":"1","side":"BUY","x":01}],"timestamp":"1"}`,
        `{"event_type":"price_change","market":"0xab","price_changes":[{"asset_id":"a","price":"0.5","size":"1","side":"BUY"}],"timestamp":"1"}x`,
        `{"event_type":"price_change","market":"0xab","price_changes":[{"asset_id":"a","price":"0.5","size":"1","side":"BUY"},],"timestamp":"1"}`,
        `{"event_type":"price_change","market":"0xab","price_changes":[{"asset_id":"a","price":"0.5","size":"1","side":"BUY"}],"timestamp":"1"`,
        `{"event_type": "price_change","market":"0xab","price_changes":[],"timestamp":"1"}`,
      ]
      for (const frame of declined) {
        assert.equal(scan(frame), undefined, frame)
        check(frame, RECEIVED, newTally())
      }
    })
  })
})
