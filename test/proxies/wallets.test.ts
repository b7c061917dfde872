import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { VpActivity } from '../../src/sim/venuep/ledger.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { mountProxies, pcall, pinvalid, pok, served, type ProxyHarness } from './harness.js'
import { venuepOf } from '../../src/sim/venuep/state.js'

/** Wallet endpoints: activity (paged to the end), positions, profile with metrics, realized PnL vs the ledger. */
type ActivityRow = {
  type: string
  timestamp: number
  transaction_hash: string | null
  condition_id: string
  side: string | null
  price: number | null
  size: number
  usdc_size: number
}
type ActivityPage = {
  wallet_address: string
  market: string | null
  data: ActivityRow[]
  count: number
  limit: number
  next_cursor: string | null
}
type Positions = {
  wallet_address: string
  size_threshold: number
  data: { token_id: string; size: number; current_value: number | null; condition_id: string }[]
  count: number
  total_value: number
  truncated: boolean
}
type Wallet = Record<string, unknown> & {
  volume: number
  trades: number
  markets_traded: number
  activity_count: number
  first_activity_at: string | null
  last_activity_at: string | null
}
type Pnl = {
  wallet_address: string
  realized_pnl: number
  markets: { condition_id: string; realized_pnl: number }[]
  series: { t: number; realized_pnl: number }[]
  activity_count: number
  skipped_rows: number
  complete: boolean
}

let s: TestService
let h: ProxyHarness

before(async () => {
  s = await startTestService({ questions: 100, wallets: 40 })
  h = await mountProxies(s)
})

after(async () => {
  await h?.close()
  await s?.close()
})

/** Money figures are printed in cents: half a cent, plus the float noise of the ledger's own sums. */
const TOLERANCE = 0.005 + 1e-9
const UNKNOWN = `0x${'7'.repeat(40)}`
const activityOf = (w: string): readonly VpActivity[] => venuepOf(s.sim.world).activity.activityOf(w)
const wallets = (): string[] => [...venuepOf(s.sim.world).ledger.wallets.keys()]
const busiest = (): string => wallets().sort((a, b) => activityOf(b).length - activityOf(a).length)[0]!
const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, -1)

describe('GET /api/v2/venuep/activity', () => {
  test("pages walk a wallet's whole activity, newest first, with the venue's rows", async () => {
    const w = busiest()
    const expected = [...activityOf(w)]
      .sort((a, b) => b.ts - a.ts || (a.txHash < b.txHash ? -1 : 1))
      .map((a) => a.txHash)
    const rows: ActivityRow[] = []
    let cursor: string | null = null
    do {
      const page: ActivityPage = await pok<ActivityPage>(
        h,
        'listVenuepActivity',
        `/api/v2/venuep/activity?wallet_address=${w.toUpperCase().replace('0X', '0x')}&limit=3${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
      )
      assert.equal(page.wallet_address, w, 'echoed in lower case')
      rows.push(...page.data)
      cursor = page.next_cursor
    } while (cursor !== null)
    assert.deepEqual(
      rows.map((r) => r.transaction_hash),
      expected,
    )
    const types = new Set(rows.map((r) => r.type))
    assert.ok(types.has('TRADE'))
    for (const r of rows) {
      if (r.type === 'TRADE') assert.ok(r.side !== null && r.price !== null)
      else assert.deepEqual([r.side, r.price], [null, null])
    }
  })

  test('market filter, defaults, and errors (422 malformed, 404 unknown wallet, cursor of another wallet)', async () => {
    const w = busiest()
    const cid = activityOf(w)[0]!.market.conditionId
    const page = await pok<ActivityPage>(
      h,
      'listVenuepActivity',
      `/api/v2/venuep/activity?wallet_address=${w}&market=${cid}`,
    )
    assert.equal(page.limit, 100)
    assert.equal(page.market, cid)
    assert.equal(page.data.length, activityOf(w).filter((a) => a.market.conditionId === cid).length)
    assert.ok(page.data.every((r) => r.condition_id === cid))
    const other = wallets().find((x) => !activityOf(x).some((a) => a.market.conditionId === cid))
    if (other !== undefined) {
      const empty = await pok<ActivityPage>(
        h,
        'listVenuepActivity',
        `/api/v2/venuep/activity?wallet_address=${other}&market=${cid}`,
      )
      assert.deepEqual(
        [empty.data, empty.next_cursor],
        [[], null],
        'a known wallet with nothing in that market: an empty page',
      )
    }
    await pinvalid(h, 'listVenuepActivity', '/api/v2/venuep/activity', [['query', 'wallet_address']])
    await pinvalid(h, 'listVenuepActivity', '/api/v2/venuep/activity?wallet_address=0x123', [
      ['query', 'wallet_address'],
    ])
    await pinvalid(h, 'listVenuepActivity', `/api/v2/venuep/activity?wallet_address=${w}&market=0x12`, [
      ['query', 'market'],
    ])
    await pinvalid(h, 'listVenuepActivity', `/api/v2/venuep/activity?wallet_address=${w}&limit=501`, [
      ['query', 'limit'],
    ])
    const nf = await pcall(h, 'listVenuepActivity', `/api/v2/venuep/activity?wallet_address=${UNKNOWN}`)
    assert.deepEqual([nf.status, nf.body.code], [404, 'not_found'])
    const first = await pok<ActivityPage>(
      h,
      'listVenuepActivity',
      `/api/v2/venuep/activity?wallet_address=${w}&limit=1`,
    )
    const another = wallets().find((x) => x !== w)!
    await pinvalid(
      h,
      'listVenuepActivity',
      `/api/v2/venuep/activity?wallet_address=${another}&cursor=${encodeURIComponent(first.next_cursor!)}`,
      [['query', 'cursor']],
    )
  })
})

describe('GET /api/v2/venuep/positions/wallet/{wallet_address}', () => {
  test("open positions at or above size_threshold, the ledger's sizes, largest value first", async () => {
    const w = busiest()
    const book = venuepOf(s.sim.world).ledger.wallets.get(w)!
    const open = [...book.tokens].filter(([, p]) => p.shares >= 0.01)
    const body = await pok<Positions>(h, 'getVenuepWalletPositions', `/api/v2/venuep/positions/wallet/${w}`)
    assert.equal(body.size_threshold, 0.01)
    assert.equal(body.truncated, false)
    assert.deepEqual(body.data.map((p) => p.token_id).sort(), open.map(([t]) => t).sort())
    for (const p of body.data) assert.ok(Math.abs(p.size - book.tokens.get(p.token_id)!.shares) < TOLERANCE)
    for (let i = 1; i < body.data.length; i++)
      assert.ok((body.data[i - 1]!.current_value ?? 0) >= (body.data[i]!.current_value ?? 0))
    assert.ok(Math.abs(body.total_value - body.data.reduce((x, p) => x + (p.current_value ?? 0), 0)) < TOLERANCE)
    const big = await pok<Positions>(
      h,
      'getVenuepWalletPositions',
      `/api/v2/venuep/positions/wallet/${w}?size_threshold=100`,
    )
    assert.deepEqual(
      big.data.map((p) => p.token_id).sort(),
      open
        .filter(([, p]) => p.shares >= 100)
        .map(([t]) => t)
        .sort(),
    )
    await pinvalid(h, 'getVenuepWalletPositions', '/api/v2/venuep/positions/wallet/0xnothex', [
      ['path', 'wallet_address'],
    ])
    await pinvalid(h, 'getVenuepWalletPositions', `/api/v2/venuep/positions/wallet/${w}?size_threshold=-1`, [
      ['query', 'size_threshold'],
    ])
    const nf = await pcall(h, 'getVenuepWalletPositions', `/api/v2/venuep/positions/wallet/${UNKNOWN}`)
    assert.deepEqual([nf.status, nf.body.code], [404, 'not_found'])
  })
})

describe('GET /api/v2/venuep/wallet/{wallet_address}', () => {
  test('profile, portfolio value and activity metrics', async () => {
    const w = busiest()
    const profile = venuepOf(s.sim.world).walletsByAddress.get(w)!
    const rows = activityOf(w)
    const trades = rows.filter((a) => a.type === 'TRADE')
    const body = await pok<Wallet>(h, 'getVenuepWallet', `/api/v2/venuep/wallet/${w}`)
    assert.equal(body.wallet_address, w)
    assert.equal(body.pseudonym, profile.pseudonym)
    assert.equal(body.name, profile.name === '' ? null : profile.name)
    assert.equal(body.created_at, new Date(profile.createdAt).toISOString().slice(0, -1))
    assert.equal(body.trades, trades.length)
    assert.equal(body.activity_count, rows.length)
    assert.ok(Math.abs(body.volume - trades.reduce((x, a) => x + a.usdcSize, 0)) < TOLERANCE)
    assert.equal(body.markets_traded, new Set(trades.map((a) => a.market.conditionId)).size)
    assert.equal(body.first_activity_at, iso(Math.min(...rows.map((a) => a.ts))))
    assert.equal(body.last_activity_at, iso(Math.max(...rows.map((a) => a.ts))))
    const value = ((await (await fetch(`${s.sim.venuep.urls.data}/value?user=${w}`)).json()) as { value: number }[])[0]!
      .value
    assert.equal(body.portfolio_value, value)
    assert.equal(body.complete, true)
    const nf = await pcall(h, 'getVenuepWallet', `/api/v2/venuep/wallet/${UNKNOWN}`)
    assert.deepEqual([nf.status, nf.body.code], [404, 'not_found'])
    await pinvalid(h, 'getVenuepWallet', '/api/v2/venuep/wallet/0xabc', [['path', 'wallet_address']])
  })
})

describe('GET /api/v2/venuep/wallet/{wallet_address}/pnl', () => {
  /** What kinds of history a wallet has, to make sure the compared wallets cover every accounting rule. */
  function features(w: string): Set<string> {
    const out = new Set<string>()
    const held = new Map<string, number>()
    for (const a of activityOf(w)) {
      if (a.type === 'MERGE') out.add('merge')
      if (a.type === 'SPLIT') out.add('split')
      if (a.type === 'REDEEM') out.add(a.usdcSize > 0 ? 'redeem-win' : 'redeem-loss')
      if (a.type === 'TRADE') {
        const key = `${a.market.conditionId}:${a.tokenIndex}`
        const after = (held.get(key) ?? 0) + (a.side === 'BUY' ? a.size : -a.size)
        held.set(key, after)
        if (a.side === 'SELL') out.add(after > 1e-9 ? 'partial-close' : 'full-close')
      }
    }
    const book = venuepOf(s.sim.world).ledger.wallets.get(w)!
    if ([...book.realizedByMarket.values()].some((v) => v > 0)) out.add('win')
    if ([...book.realizedByMarket.values()].some((v) => v < 0)) out.add('loss')
    return out
  }

  async function assertMatchesLedger(w: string): Promise<Pnl> {
    const body = await pok<Pnl>(h, 'getVenuepWalletPnl', `/api/v2/venuep/wallet/${w}/pnl`)
    const book = venuepOf(s.sim.world).ledger.wallets.get(w)!
    assert.ok(
      Math.abs(body.realized_pnl - book.realized) < TOLERANCE,
      `${w}: total ${body.realized_pnl} vs ledger ${book.realized}`,
    )
    const mine = new Map(body.markets.map((m) => [m.condition_id, m.realized_pnl]))
    for (const [cid, v] of book.realizedByMarket)
      assert.ok(Math.abs((mine.get(cid) ?? 0) - v) < TOLERANCE, `${w} ${cid}: ${mine.get(cid)} vs ledger ${v}`)
    for (const [cid, v] of mine)
      if (!book.realizedByMarket.has(cid))
        assert.ok(Math.abs(v) < TOLERANCE, `${w} ${cid}: realized ${v} where the ledger has none`)
    assert.equal(body.skipped_rows, 0)
    assert.equal(body.activity_count, activityOf(w).length)
    const last = body.series.at(-1)
    if (last !== undefined)
      assert.ok(Math.abs(last.realized_pnl - book.realized) < TOLERANCE, 'the series ends at the total')
    for (let i = 1; i < body.series.length; i++) assert.ok(body.series[i - 1]!.t < body.series[i]!.t)
    return body
  }

  test("every simulated wallet's realized PnL equals the ledger's, in total and per market", async () => {
    const covered = new Set<string>()
    for (const w of wallets()) {
      await assertMatchesLedger(w)
      for (const f of features(w)) covered.add(f)
    }
    for (const f of ['win', 'loss', 'partial-close', 'full-close', 'split', 'merge', 'redeem-win', 'redeem-loss'])
      assert.ok(covered.has(f), `the wallets cover ${f}`)
  })

  test('after live trading, the incremental refresh still matches the ledger', async () => {
    const calls0 = served(s, 'data', '/activity')
    s.advance(12_000, 50)
    for (const w of wallets()) await assertMatchesLedger(w)
    assert.ok(served(s, 'data', '/activity') - calls0 <= wallets().length * 2, 'one short tail fetch per wallet')
    const w = busiest()
    const c = served(s, 'data', '/activity')
    await assertMatchesLedger(w)
    assert.equal(served(s, 'data', '/activity'), c, 'fresh for 10 s: no venue call')
  })

  test('a long history read in short walks: partial answers say so, the next request resumes, the end matches', async () => {
    const slow = await mountProxies(s, { walletHistory: { pageSize: 4, walkBudgetMs: 0 } })
    try {
      const w = busiest()
      const total = activityOf(w).length
      let body: Pnl | undefined
      let partial = 0
      for (let i = 0; i < 100; i++) {
        body = await pok<Pnl>(slow, 'getVenuepWalletPnl', `/api/v2/venuep/wallet/${w}/pnl`)
        if (body.complete) break
        partial++
        assert.ok(
          body.activity_count < total && body.activity_count === Math.min(total, partial * 4),
          'each request reads one more page',
        )
      }
      assert.equal(partial, Math.ceil(total / 4) - (total % 4 === 0 ? 0 : 1))
      assert.ok(body?.complete)
      assert.equal(body.activity_count, total)
      assert.ok(Math.abs(body.realized_pnl - venuepOf(s.sim.world).ledger.wallets.get(w)!.realized) < TOLERANCE)
    } finally {
      await slow.close()
    }
  })

  test('unknown wallet 404, malformed 422', async () => {
    const nf = await pcall(h, 'getVenuepWalletPnl', `/api/v2/venuep/wallet/${UNKNOWN}/pnl`)
    assert.deepEqual([nf.status, nf.body.code], [404, 'not_found'])
    await pinvalid(h, 'getVenuepWalletPnl', '/api/v2/venuep/wallet/0xzz/pnl', [['path', 'wallet_address']])
  })
})
