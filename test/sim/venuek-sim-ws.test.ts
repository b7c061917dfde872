import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { parseMicros } from '../../src/core/numbers.js'
import type { VkMarket } from '../../src/sim/venuek/types.js'
import { signRequest } from '../../src/venues/venuek/signing.js'
import { activeMarkets, getJson, price4, size2, startFixture, type VenuekFixture } from './venuek-fixture.js'
import { FrameClient, rejectedHandshake, type Frame } from './venuek-ws-client.js'

const WS_PATH = '/trade-api/ws/v2'
const DOLLARS = /^\d\.\d{4}$/
const FP = /^\d+\.\d{2}$/

/** A client-side venuek book: apply snapshot, then `size += delta`, dropping levels at 0 (venuek.md §6.4). */
class ClientBook {
  readonly yes = new Map<string, number>()
  readonly no = new Map<string, number>()

  snapshot(msg: Frame): void {
    this.yes.clear()
    this.no.clear()
    for (const [p, s] of msg['yes_dollars_fp'] ?? []) this.yes.set(p, parseMicros(s)!)
    for (const [p, s] of msg['no_dollars_fp'] ?? []) this.no.set(p, parseMicros(s)!)
  }

  delta(msg: Frame): void {
    const side = msg['side'] === 'yes' ? this.yes : this.no
    const size = (side.get(msg['price_dollars']) ?? 0) + parseMicros(msg['delta_fp'])!
    assert.ok(size >= 0, `negative level ${msg['price_dollars']}`)
    if (size === 0) side.delete(msg['price_dollars'])
    else side.set(msg['price_dollars'], size)
  }

  /** The REST `orderbook_fp` this book should equal. */
  rest(): { yes_dollars: string[][]; no_dollars: string[][] } {
    const render = (m: Map<string, number>) =>
      [...m.entries()].sort((a, b) => parseMicros(a[0])! - parseMicros(b[0])!).map(([p, s]) => [p, size2(s)])
    return { yes_dollars: render(this.yes), no_dollars: render(this.no) }
  }
}

describe('venuek simulator WebSocket v2', () => {
  let fx: VenuekFixture
  const clients: FrameClient[] = []
  let markets: VkMarket[]

  before(async () => {
    fx = await startFixture()
    markets = activeMarkets(fx.world)
  })
  after(async () => {
    for (const c of clients) c.close()
    await fx.sim.close()
  })

  async function connect(): Promise<FrameClient> {
    const c = await FrameClient.connect(fx.sim.urls.ws, signRequest(fx.creds, 'GET', WS_PATH, fx.clock.now()))
    clients.push(c)
    return c
  }
  const restBook = async (ticker: string) =>
    (await getJson(fx.sim.urls.rest, `/markets/${ticker}/orderbook`)).body.orderbook_fp
  /** Moves `m`'s book until the engine reports a change (a move can leave a book as it was). */
  function move(m: VkMarket): void {
    for (let i = 0; i < 20; i++) {
      fx.clock.increment(100)
      const before = fx.engine.counters.bookChanges
      fx.engine.moveBook('venuek', m, fx.clock.now())
      if (fx.engine.counters.bookChanges > before) return
    }
    throw new Error(`book of ${m.ticker} did not move`)
  }

  it('rejects unsigned, badly signed and misrouted handshakes with the venue bodies', async () => {
    assert.deepEqual(await rejectedHandshake(fx.sim.urls.ws), {
      status: 401,
      body: { error: { code: 'signature_is_missing_from_headers', message: 'signature is missing from headers' } },
    })
    const wrongPath = signRequest(fx.creds, 'GET', '/trade-api/v2/markets', fx.clock.now())
    assert.deepEqual(await rejectedHandshake(fx.sim.urls.ws, wrongPath), {
      status: 401,
      body: {
        error: {
          code: 'authentication_error',
          message: 'authentication_error',
          details: 'INCORRECT_API_KEY_SIGNATURE',
        },
      },
    })
    const otherPath = fx.sim.urls.ws.replace(WS_PATH, '/trade-api/ws/v1')
    const notWs = await rejectedHandshake(otherPath, signRequest(fx.creds, 'GET', WS_PATH, fx.clock.now()))
    assert.equal(notWs.status, 404)
  })

  it('subscribes per channel, snapshots with seq 1..n, and deltas that rebuild the REST book exactly', async () => {
    const c = await connect()
    const chosen = markets.slice(0, 3)
    const tickers = chosen.map((m) => m.ticker)
    const id = c.send({ cmd: 'subscribe', params: { channels: ['orderbook_delta', 'trade'], market_tickers: tickers } })
    const [book, trade, ...snapshots] = await c.take(5)
    assert.equal(book!['type'], 'subscribed')
    assert.deepEqual(book, { type: 'subscribed', id, msg: { channel: 'orderbook_delta', sid: book!['msg']['sid'] } })
    assert.deepEqual(trade, { type: 'subscribed', id, msg: { channel: 'trade', sid: trade!['msg']['sid'] } })
    const bookSid = book!['msg']['sid']
    const tradeSid = trade!['msg']['sid']
    assert.notEqual(bookSid, tradeSid)
    const books = new Map<string, ClientBook>()
    for (const [i, s] of snapshots.entries()) {
      assert.equal(s['type'], 'orderbook_snapshot')
      assert.equal(s['sid'], bookSid)
      assert.equal(s['seq'], i + 1)
      assert.equal(s['msg']['market_ticker'], tickers[i])
      assert.equal(s['msg']['market_id'], chosen[i]!.marketId)
      const cb = new ClientBook()
      cb.snapshot(s['msg'])
      assert.deepEqual(cb.rest(), await restBook(tickers[i]!))
      books.set(tickers[i]!, cb)
    }

    for (let round = 0; round < 30; round++) {
      for (const m of chosen) move(m)
      if (round % 4 === 0) fx.engine.trade('venuek', chosen[round % 3]!, fx.clock.now())
      if (round % 3 === 0) fx.engine.churnTop('venuek', chosen[round % 3]!, fx.clock.now())
    }
    const frames = await c.sync()
    let seq = snapshots.length
    let tradeSeq = 0
    let deltas = 0
    for (const f of frames) {
      if (f['type'] === 'orderbook_delta') {
        assert.equal(f['sid'], bookSid)
        assert.equal(f['seq'], ++seq, 'contiguous seq on the order book sid')
        assert.match(f['msg']['price_dollars'], DOLLARS)
        assert.match(f['msg']['delta_fp'], /^-?\d+\.\d{2}$/)
        assert.equal(typeof f['msg']['ts_ms'], 'number')
        assert.equal(f['msg']['ts'], new Date(f['msg']['ts_ms']).toISOString())
        books.get(f['msg']['market_ticker'])!.delta(f['msg'])
        deltas++
      } else if (f['type'] === 'trade') {
        assert.equal(f['sid'], tradeSid)
        assert.equal(f['seq'], ++tradeSeq, 'contiguous seq on the trade sid')
      }
    }
    assert.ok(deltas > 30)
    assert.ok(tradeSeq > 0)
    for (const t of tickers) assert.deepEqual(books.get(t)!.rest(), await restBook(t), `book of ${t}`)

    const lastTrade = frames.filter((f) => f['type'] === 'trade').at(-1)!['msg']
    const rest = (await getJson(fx.sim.urls.rest, `/markets/trades?ticker=${lastTrade['market_ticker']}&limit=1`)).body
      .trades[0]
    assert.deepEqual(lastTrade, {
      trade_id: rest.trade_id,
      market_ticker: rest.ticker,
      yes_price_dollars: rest.yes_price_dollars,
      no_price_dollars: rest.no_price_dollars,
      count_fp: rest.count_fp,
      taker_side: rest.taker_side,
      taker_outcome_side: rest.taker_outcome_side,
      taker_book_side: rest.taker_book_side,
      is_block_trade: false,
      ts: Math.floor(Date.parse(rest.created_time) / 1000),
      ts_ms: Date.parse(rest.created_time),
    })
    c.close()
  })

  it('reports NO levels at the YES price with use_yes_price', async () => {
    const c = await connect()
    const m = markets[4]!
    c.send({
      cmd: 'subscribe',
      params: { channels: ['orderbook_delta'], market_ticker: m.ticker, use_yes_price: true },
    })
    const [, snapshot] = await c.take(2)
    const rest = await restBook(m.ticker)
    const atYes = rest.no_dollars.map(([p, s]: string[]) => [price4(1e6 - parseMicros(p)!), s]).reverse()
    assert.deepEqual(snapshot!['msg']['no_dollars_fp'], atYes)
    assert.deepEqual(snapshot!['msg']['yes_dollars_fp'], rest.yes_dollars)
    // yes_ask is then the lowest NO level.
    const market = (await getJson(fx.sim.urls.rest, `/markets/${m.ticker}`)).body.market
    assert.equal(snapshot!['msg']['no_dollars_fp'][0][0], market.yes_ask_dollars)
    c.close()
  })

  it('makes skipSequence visible as a seq gap', async () => {
    const c = await connect()
    const m = markets[5]!
    c.send({ cmd: 'subscribe', params: { channels: ['orderbook_delta'], market_tickers: [m.ticker] } })
    const [, snapshot] = await c.take(2)
    assert.equal(snapshot!['seq'], 1)
    fx.faults.skipSequence()
    move(m)
    move(m)
    const deltas = (await c.sync()).filter((f) => f['type'] === 'orderbook_delta')
    assert.equal(deltas[0]!['seq'], 3, 'seq 2 was skipped')
    for (let i = 1; i < deltas.length; i++) assert.equal(deltas[i]!['seq'], deltas[i - 1]!['seq'] + 1)
    c.close()
  })

  it('supports get_snapshot, add_markets, delete_markets, list_subscriptions and unsubscribe', async () => {
    const c = await connect()
    const [a, b] = [markets[6]!, markets[7]!]
    c.send({ cmd: 'subscribe', params: { channels: ['orderbook_delta'], market_tickers: [a.ticker] } })
    const [subscribed] = await c.take(2)
    const sid = subscribed!['msg']['sid']

    const snapId = c.send({
      cmd: 'update_subscription',
      params: { sids: [sid], market_tickers: [a.ticker], action: 'get_snapshot' },
    })
    const [again] = await c.take(1)
    const restA = await restBook(a.ticker)
    assert.deepEqual(again, {
      type: 'orderbook_snapshot',
      id: snapId,
      sid,
      seq: 2,
      msg: {
        market_ticker: a.ticker,
        market_id: a.marketId,
        yes_dollars_fp: restA.yes_dollars,
        no_dollars_fp: restA.no_dollars,
      },
    })

    const addId = c.send({
      cmd: 'update_subscription',
      params: { sid, market_tickers: [b.ticker], action: 'add_markets' },
    })
    const [ok, added] = await c.take(2)
    assert.deepEqual(ok, { id: addId, sid, seq: 2, type: 'ok', msg: { market_tickers: [a.ticker, b.ticker] } })
    assert.equal(added!['type'], 'orderbook_snapshot')
    assert.equal(added!['seq'], 3)
    assert.equal(added!['msg']['market_ticker'], b.ticker)

    const delId = c.send({
      cmd: 'update_subscription',
      params: { sids: [sid], market_tickers: [a.ticker], action: 'delete_markets' },
    })
    assert.deepEqual((await c.take(1))[0], { id: delId, sid, seq: 3, type: 'ok', msg: { market_tickers: [b.ticker] } })
    move(a)
    move(b)
    const after = await c.sync()
    assert.ok(after.length > 0)
    assert.ok(after.every((f) => f['msg']['market_ticker'] === b.ticker))

    const notIn = c.send({
      cmd: 'update_subscription',
      params: { sid, market_tickers: [a.ticker], action: 'get_snapshot' },
    })
    const notInReply = {
      id: notIn,
      type: 'error',
      msg: { code: 11, msg: 'Invalid parameter', market_tickers: [a.ticker] },
      sid,
    }
    assert.deepEqual((await c.take(1))[0], notInReply)

    const tradeSubId = c.send({ cmd: 'subscribe', params: { channels: ['trade'] } })
    const [tradeSub] = await c.take(1)
    assert.deepEqual(tradeSub, { type: 'subscribed', id: tradeSubId, msg: { channel: 'trade', sid: sid + 1 } })
    const listId = c.send({ cmd: 'list_subscriptions' })
    const listed = [
      { channel: 'orderbook_delta', sid },
      { channel: 'trade', sid: sid + 1 },
    ]
    assert.deepEqual((await c.take(1))[0], { id: listId, type: 'ok', msg: listed })

    const unsubId = c.send({ cmd: 'unsubscribe', params: { sids: [sid, sid + 1] } })
    const [u1, u2] = await c.take(2)
    assert.deepEqual(u1, { id: unsubId, sid, seq: after.at(-1)!['seq'], type: 'unsubscribed' })
    assert.deepEqual(u2, { id: unsubId, sid: sid + 1, seq: 0, type: 'unsubscribed' })
    move(b)
    fx.engine.trade('venuek', b, fx.clock.now())
    assert.deepEqual(await c.sync(), [])
    c.close()
  })

  it('answers malformed and invalid commands with the numbered errors', async () => {
    const c = await connect()
    const t = markets[0]!.ticker
    c.socket.send('this is not json')
    assert.deepEqual((await c.take(1))[0], { id: 0, type: 'error', msg: { code: 1, msg: 'Unable to process message' } })
    c.send({ cmd: 'subscribe', params: { channels: ['ticker'], market_tickers: [t] } })
    const sid = (await c.take(1))[0]!['msg']['sid']
    const cases: [Record<string, unknown>, number, string][] = [
      [{ cmd: 'subscribe' }, 2, 'Params required'],
      [{ cmd: 'subscribe', params: {} }, 3, 'Channels required'],
      [{ cmd: 'subscribe', params: { channels: ['ticker_v2'] } }, 8, 'Unknown channel name'],
      [
        { cmd: 'subscribe', params: { channels: ['ticker'], market_ticker: t, market_tickers: [t] } },
        11,
        'Invalid parameter',
      ],
      [{ cmd: 'subscribe', params: { channels: ['orderbook_delta'] } }, 14, 'Market Ticker required'],
      [{ cmd: 'dance', params: {} }, 5, 'Unknown command'],
      [{ cmd: 'unsubscribe', params: {} }, 4, 'Subscription IDs required'],
      [
        { cmd: 'update_subscription', params: { sids: [sid, sid + 1], market_tickers: [t], action: 'add_markets' } },
        12,
        'Exactly one subscription ID is required',
      ],
      [
        { cmd: 'update_subscription', params: { sid, market_tickers: [t], action: 'rename' } },
        13,
        'Unsupported action',
      ],
      [{ cmd: 'update_subscription', params: { sid, market_tickers: [t] } }, 15, 'Action required'],
    ]
    for (const [command, code, msg] of cases) {
      const id = c.send(command)
      assert.deepEqual((await c.take(1))[0], { id, type: 'error', msg: { code, msg } }, JSON.stringify(command))
    }
    const unknownSid = c.send({ cmd: 'unsubscribe', params: { sids: [999] } })
    assert.deepEqual((await c.take(1))[0], {
      id: unknownSid,
      type: 'error',
      msg: { code: 7, msg: 'Unknown subscription ID' },
      sid: 999,
    })
    const unknownMarket = c.send({
      cmd: 'subscribe',
      params: { channels: ['orderbook_delta'], market_tickers: [t, 'KXNOPE-00'] },
    })
    const unknownReply = {
      id: unknownMarket,
      type: 'error',
      msg: { code: 11, msg: 'Invalid parameter', market_tickers: ['KXNOPE-00'] },
    }
    assert.deepEqual((await c.take(1))[0], unknownReply)
    const getSnapshotOnTicker = c.send({
      cmd: 'update_subscription',
      params: { sid, market_tickers: [t], action: 'get_snapshot' },
    })
    assert.deepEqual((await c.take(1))[0], {
      id: getSnapshotOnTicker,
      type: 'error',
      msg: { code: 13, msg: 'Unsupported action' },
      sid,
    })
    c.close()
  })

  it('sends ticker frames without seq: initial snapshot, then on every change', async () => {
    const c = await connect()
    const m = markets[8]!
    const id = c.send({
      cmd: 'subscribe',
      params: { channels: ['ticker'], market_tickers: [m.ticker], send_initial_snapshot: true },
    })
    const [sub, initial] = await c.take(2)
    assert.deepEqual(sub, { type: 'subscribed', id, msg: { channel: 'ticker', sid: sub!['msg']['sid'] } })
    assert.equal('seq' in initial!, false)
    const msg = initial!['msg']
    assert.deepEqual(Object.keys(msg).sort(), [
      'dollar_open_interest',
      'dollar_volume',
      'last_trade_size_fp',
      'market_id',
      'market_ticker',
      'open_interest_fp',
      'price_dollars',
      'time',
      'ts',
      'ts_ms',
      'volume_fp',
      'yes_ask_dollars',
      'yes_ask_size_fp',
      'yes_bid_dollars',
      'yes_bid_size_fp',
    ])
    for (const k of ['yes_bid_dollars', 'yes_ask_dollars']) assert.match(msg[k], DOLLARS)
    for (const k of ['volume_fp', 'open_interest_fp', 'yes_bid_size_fp', 'yes_ask_size_fp', 'last_trade_size_fp'])
      assert.match(msg[k], FP)
    assert.ok(Number.isInteger(msg['dollar_volume']) && Number.isInteger(msg['ts']))

    fx.clock.increment(1000)
    fx.engine.trade('venuek', m, fx.clock.now())
    const frames = await c.sync()
    assert.ok(frames.length >= 1 && frames.every((f) => f['type'] === 'ticker' && !('seq' in f)))
    const last = frames.at(-1)!['msg']
    const market = (await getJson(fx.sim.urls.rest, `/markets/${m.ticker}`)).body.market
    const pairs: [string, string][] = [
      ['price_dollars', 'last_price_dollars'],
      ['yes_bid_dollars', 'yes_bid_dollars'],
      ['yes_ask_dollars', 'yes_ask_dollars'],
      ['yes_bid_size_fp', 'yes_bid_size_fp'],
      ['yes_ask_size_fp', 'yes_ask_size_fp'],
      ['volume_fp', 'volume_fp'],
      ['open_interest_fp', 'open_interest_fp'],
    ]
    for (const [wsField, restField] of pairs) assert.equal(last[wsField], market[restField], wsField)
    assert.equal(last['ts_ms'], fx.clock.now())
    c.close()
  })

  it('pings with a heartbeat payload on the clock', async () => {
    const c = await connect()
    const before = c.pings.length
    fx.clock.increment(10_000)
    await c.waitFor(() => c.pings.length > before, 2000, 'a heartbeat ping')
    assert.equal(c.pings.at(-1), 'heartbeat')
    c.close()
  })

  it('goes silent while stalled and shows the lost frames as a seq gap afterwards', async () => {
    const c = await connect()
    const m = markets[9]!
    c.send({ cmd: 'subscribe', params: { channels: ['orderbook_delta'], market_tickers: [m.ticker] } })
    await c.take(2)
    const pings = c.pings.length
    fx.faults.stall()
    try {
      move(m)
      c.send({ cmd: 'list_subscriptions' })
      fx.clock.increment(20_000)
      await new Promise((r) => setTimeout(r, 300))
      assert.equal(c.pending, 0, 'no data and no command replies while stalled')
      assert.equal(c.pings.length, pings, 'no heartbeats while stalled')
    } finally {
      fx.faults.resume()
    }
    move(m)
    const deltas = (await c.sync()).filter((f) => f['type'] === 'orderbook_delta')
    assert.ok(deltas.length > 0)
    assert.ok(deltas[0]!['seq'] > 2, 'frames produced during the stall are missing from the sequence')
    c.close()
  })

  it('drops every socket on demand', async () => {
    const c = await connect()
    const other = await connect()
    await c.waitFor(() => fx.sim.connections() >= 2, 2000, 'two connections')
    fx.faults.dropSockets()
    await c.waitFor(() => c.closed, 2000, 'close')
    await other.waitFor(() => other.closed, 2000, 'close')
    await c.waitFor(() => fx.sim.connections() === 0, 2000, 'the server to forget the sockets')
  })
})
