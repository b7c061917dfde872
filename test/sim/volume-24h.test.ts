import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { loadConfig } from '../../src/config/load.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { startSimulator, type Simulator } from '../../src/sim/simulator.js'
import { venuepOf } from '../../src/sim/venuep/state.js'
import { venuekOf } from '../../src/sim/venuek/state.js'

/**
 * A venue's 24 h volume is the trades it reports for the last 24 hours: venuep Gamma `volume24hr` is the notional of
 * the Data API's `/trades` for the market in (now − 24 h, now], venuek `volume_24h_fp` the contracts of
 * `/markets/trades` in that window. Checked on every market of a world whose history, recent prints and live engine
 * trades all fall in the window, and again half a day later, when part of them has left it.
 */
const ANCHOR = Date.UTC(2026, 10, 21, 12)
const DAY = 86_400_000

let sim: Simulator
let clock: SimulatedClock

async function get(url: string): Promise<any> {
  const res = await fetch(url)
  assert.equal(res.status, 200, url)
  return res.json()
}

before(async () => {
  const config = loadConfig({ env: { NODE_ENV: 'test' } })
  clock = new SimulatedClock(ANCHOR)
  sim = await startSimulator({
    config: { ...config.sim, questions: 80, wallets: 20, venuekAuth: false, tradesPerSec: 20, quoteChangesPerSec: 50 },
    clock,
    anchorMs: ANCHOR,
    startEngine: false,
  })
  // Twenty minutes of live trading on top of the history.
  for (let i = 0; i < 1200; i++) {
    clock.increment(1000)
    sim.engine.step(clock.now())
  }
})

after(async () => {
  await sim?.close()
})

/**
 * Moves the clock to the last millisecond of a second, so the Data API's whole-second timestamps split exactly at the
 * window's start: (now − 24 h, now] is the seconds after (now − 24 h)'s and up to now's.
 */
function toSecondEnd(t: number): number {
  clock.set(Math.floor(t / 1000) * 1000 + 999)
  return clock.now()
}

/** venuep: per market, [volume24hr, Σ size × price of the Data API trades in the window, trades in it]. */
async function venuepDays(now: number): Promise<Map<string, [number, number, number]>> {
  const out = new Map<string, [number, number, number]>()
  const from = Math.floor((now - DAY) / 1000)
  for (const m of venuepOf(sim.world).markets) {
    const gamma = await get(`${sim.venuep.urls.gamma}/markets/slug/${m.slug}`)
    const trades = (await get(`${sim.venuep.urls.data}/trades?market=${m.conditionId}&limit=10000`)) as {
      size: number
      price: number
      timestamp: number
    }[]
    assert.ok(trades.length < 10_000, 'one page holds every trade')
    const inWindow = trades.filter((t) => t.timestamp > from && t.timestamp <= Math.floor(now / 1000))
    out.set(m.slug, [gamma.volume24hr, inWindow.reduce((s, t) => s + t.size * t.price, 0), inWindow.length])
    assert.ok(
      gamma.volumeNum >= gamma.volume24hr,
      `${m.slug}: all-time volume ${gamma.volumeNum} below the day's ${gamma.volume24hr}`,
    )
  }
  return out
}

/** venuek: per market, [volume_24h in hundredths, Σ count of /markets/trades in the window in hundredths, trades]. */
async function venuekDays(now: number): Promise<Map<string, [number, number, number]>> {
  const hundredths = (fp: string) => Math.round(Number(fp) * 100)
  const out = new Map<string, [number, number, number]>()
  for (const m of venuekOf(sim.world).markets) {
    const market = (await get(`${sim.venuek.urls.rest}/markets/${m.ticker}`)).market
    let sum = 0
    let count = 0
    for (let cursor = ''; ;) {
      const page = await get(`${sim.venuek.urls.rest}/markets/trades?ticker=${m.ticker}&limit=1000&cursor=${cursor}`)
      for (const t of page.trades as { count_fp: string; created_time: string }[]) {
        const ts = Date.parse(t.created_time)
        if (ts > now - DAY && ts <= now) {
          sum += hundredths(t.count_fp)
          count++
        }
      }
      cursor = page.cursor
      if (cursor === '') break
    }
    out.set(m.ticker, [hundredths(market.volume_24h_fp), sum, count])
  }
  return out
}

describe('24 h volume is the trades the venue reports', () => {
  let venuepNow: Map<string, [number, number, number]>
  let venuekNow: Map<string, [number, number, number]>

  test("venuep: volume24hr is the notional of the day's Data API trades, to the cent per trade", async () => {
    venuepNow = await venuepDays(toSecondEnd(clock.now()))
    let traded = 0
    for (const [slug, [volume, sum, n]] of venuepNow) {
      // Each trade's notional is its size × price rounded to the cent.
      assert.ok(Math.abs(volume - sum) <= 0.005 * n + 1e-6, `${slug}: volume24hr ${volume}, trades ${sum} (${n})`)
      if (n > 0) traded++
    }
    assert.ok(traded > venuepNow.size / 2, `${traded} of ${venuepNow.size} markets traded in the last day`)
  })

  test("venuek: volume_24h is the count of the day's /markets/trades, exactly", async () => {
    venuekNow = await venuekDays(clock.now())
    let traded = 0
    for (const [ticker, [volume, sum, n]] of venuekNow) {
      assert.equal(volume, sum, ticker)
      if (n > 0) traded++
    }
    assert.ok(traded > venuekNow.size / 2, `${traded} of ${venuekNow.size} markets traded in the last day`)
  })

  test('half a day later, the trades that left the window left the volume too', async () => {
    const later = toSecondEnd(clock.now() + 13 * 3_600_000)
    const venuep = await venuepDays(later)
    const venuek = await venuekDays(later)
    for (const [slug, [volume, sum, n]] of venuep)
      assert.ok(Math.abs(volume - sum) <= 0.005 * n + 1e-6, `${slug}: ${volume} vs ${sum}`)
    for (const [ticker, [volume, sum]] of venuek) assert.equal(volume, sum, ticker)
    const dropped = (a: Map<string, [number, number, number]>, b: Map<string, [number, number, number]>) =>
      [...b].filter(([k, [v]]) => v < a.get(k)![0]).length
    assert.ok(dropped(venuepNow, venuep) > 10 && dropped(venuekNow, venuek) > 10, 'volumes fell as trades aged out')
  })
})
