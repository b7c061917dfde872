import { processCpuSeconds } from '../cpu-usage.js'
import { median } from '../harness.js'
import { pct, type Ctx } from './context.js'

/** The service's feeds during a run (from /metrics) and the simulator's boost (sim-child.ts) switched around runs. */

/** Boosted runs: the boost's first second is not measured (the feed reaches its rate, the service catches up). */
export const BOOST_SETTLE_MS = 1_000
const FEED_SAMPLE_SEC = 4

/** What the service took in from its feeds during a run, from /metrics sampled once a second. */
export interface FeedRates {
  /**
   * Spread-pair recomputations per second: one per quote change of a matched instrument (the spread engine's
   * input). The median of the 1 s samples, because the once-a-minute re-score of every pair lands in one sample.
   */
  readonly recomputesPerSec: number
  /** Websocket frames received per second, both venues. */
  readonly framesPerSec: number
  /** Page-cache misses per second: in a run reading one list, how often its bytes were rebuilt. */
  readonly pageMissesPerSec: number
  /** Largest actor mailbox depth seen (a backlog means ingest fell behind). */
  readonly maxMailbox: number
  readonly samples: number
}

/** Feed rates over a few seconds with no HTTP load, and the CPU the simulator and the service used meanwhile. */
export interface IdleFeed extends FeedRates {
  readonly simCores: number
  readonly serviceCores: number
}

/** Switches the simulator's boost (sim-child.ts: SIGUSR2 toggles it) and waits for it to say so. */
export async function setBoost(ctx: Ctx, on: boolean): Promise<void> {
  if ((ctx.boosted === true) === on) return
  const word = on ? 'boost on' : 'boost off'
  const said = () =>
    ctx.sim
      .output()
      .split('\n')
      .filter((l) => l === word).length
  const before = said()
  ctx.sim.child.kill('SIGUSR2')
  const deadline = Date.now() + 10_000
  while (said() === before) {
    if (Date.now() > deadline)
      throw new Error(`the simulator did not switch its boost ${on ? 'on' : 'off'}:\n${ctx.sim.output().slice(-2000)}`)
    await new Promise((r) => setTimeout(r, 10))
  }
  ctx.boosted = on
  if (on) await new Promise((r) => setTimeout(r, BOOST_SETTLE_MS))
}

/** The samples of a metric in Prometheus text (every label set, or those whose labels contain `label`). */
function metricValues(text: string, name: string, label = ''): number[] {
  const labels = label === '' ? '(?:\\{[^}]*\\})?' : `\\{[^}]*${label}[^}]*\\}`
  return [...text.matchAll(new RegExp(`^${name}${labels} (\\S+)$`, 'gm'))].map((m) => Number(m[1]))
}

/** Scrapes the service's /metrics once a second until the returned function is called; FeedRates of that span. */
export function sampleFeed(ctx: Ctx): () => Promise<FeedRates> {
  interface Scrape {
    at: number
    recomputes: number
    frames: number
    misses: number
    mailbox: number
  }
  const scrape = async (): Promise<Scrape> => {
    const text = await (await fetch(`http://127.0.0.1:${ctx.port}/metrics`)).text()
    return {
      at: Date.now(),
      recomputes: sum(metricValues(text, 'predmkt_spread_recomputations_total')),
      frames: sum(metricValues(text, 'predmkt_feed_frames_total')),
      misses: sum(metricValues(text, 'predmkt_page_cache_lookups_total', 'result="miss"')),
      mailbox: Math.max(0, ...metricValues(text, 'predmkt_actor_mailbox_pending')),
    }
  }
  const scrapes: Scrape[] = []
  let stopped = false
  const loop = (async () => {
    scrapes.push(await scrape())
    while (!stopped) {
      await new Promise((r) => setTimeout(r, 1_000))
      scrapes.push(await scrape())
    }
  })()
  return async () => {
    stopped = true
    await loop
    const first = scrapes[0] as Scrape
    const last = scrapes[scrapes.length - 1] as Scrape
    const seconds = (last.at - first.at) / 1000
    const perSecond = scrapes
      .slice(1)
      .map((x, i) => (x.recomputes - (scrapes[i] as Scrape).recomputes) / ((x.at - (scrapes[i] as Scrape).at) / 1000))
    return {
      recomputesPerSec: perSecond.length === 0 ? Number.NaN : median(perSecond),
      framesPerSec: (last.frames - first.frames) / seconds,
      pageMissesPerSec: (last.misses - first.misses) / seconds,
      maxMailbox: Math.max(...scrapes.map((x) => x.mailbox)),
      samples: perSecond.length,
    }
  }
}

/**
 * The feeds with the boost off and on, no HTTP load, in a window clear of catalog refreshes: what the service
 * takes in at the simulator's default rates and boosted, and the simulator's CPU when boosted (its "busy" mark).
 */
export async function idleFeeds(ctx: Ctx): Promise<{ idle: IdleFeed; boosted: IdleFeed }> {
  const sample = async (): Promise<IdleFeed> => {
    const pids = { sim: ctx.sim.child.pid as number, service: ctx.service.child.pid as number }
    const before = { sim: processCpuSeconds(pids.sim), service: processCpuSeconds(pids.service), at: Date.now() }
    const stop = sampleFeed(ctx)
    await new Promise((r) => setTimeout(r, FEED_SAMPLE_SEC * 1000))
    const feed = await stop()
    const wall = (Date.now() - before.at) / 1000
    return {
      ...feed,
      simCores: (processCpuSeconds(pids.sim) - before.sim) / wall,
      serviceCores: (processCpuSeconds(pids.service) - before.service) / wall,
    }
  }
  await ctx.gate.clear(2 * FEED_SAMPLE_SEC * 1000 + BOOST_SETTLE_MS + 2_000)
  const idle = await sample()
  await setBoost(ctx, true)
  const boosted = await sample()
  await setBoost(ctx, false)
  for (const [name, f] of [
    ['default rates', idle],
    ['boosted', boosted],
  ] as const) {
    ctx.log(
      `feeds, ${name}, no HTTP load: ${f.framesPerSec.toFixed(0)} frames/s, ${f.recomputesPerSec.toFixed(0)} spread recomputations/s (median of ${f.samples} s), max mailbox ${f.maxMailbox}; simulator ${pct(f.simCores)}, service ${pct(f.serviceCores)}`,
    )
  }
  return { idle, boosted }
}

function sum(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0)
}
