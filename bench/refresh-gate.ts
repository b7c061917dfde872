import { processCpuSeconds } from './cpu-usage.js'

/**
 * Keeps throughput runs out of the service's catalog refreshes. Each venue actor re-fetches its whole catalog
 * on a fixed interval from actor start (`venues.*.catalog.refreshMs`, 60 s by default); with 20,000 markets a
 * venue that keeps the service's core busy for 10–17 s (fetch, parse, index build, read-model rebuild). A
 * 10 s run that overlaps it measures the refresh, not the endpoint, and whether a run overlaps is luck, so the
 * bench schedules each (bare, service) pair in a quiet window and measures one run across a refresh on its own.
 */
export interface RefreshGateOptions {
  /** When the service process was spawned: refresh k starts about `startedAt + k * periodMs`. */
  readonly startedAt: number
  readonly periodMs: number
  readonly port: number
  readonly pid: number
  readonly log: (line: string) => void
}

/** Slack for actor start after spawn and timer drift under load. */
const MARGIN_MS = 4_000
/** Below this the service is idle apart from its live feeds (~0.03 cores at the simulator's default rates). */
const IDLE_CORES = 0.2
const SETTLE_TIMEOUT_MS = 120_000

export class RefreshGate {
  readonly #o: RefreshGateOptions
  /** Each venue's last sync (`versions`) at a moment no refresh was running, and that moment. */
  #settled: { at: number; versions: Record<string, number> } | undefined

  constructor(options: RefreshGateOptions) {
    this.#o = options
  }

  /** Start of the next refresh after `now`. */
  nextRefreshAt(now = Date.now()): number {
    const { startedAt, periodMs } = this.#o
    return startedAt + Math.max(1, Math.ceil((now - startedAt) / periodMs)) * periodMs
  }

  /**
   * When each venue's catalog was last synced (ms), from /readyz: every sync moves it, also one that installed nothing
   * (a refresh of changes that found none leaves the catalog version as it was, and a gate waiting for the version
   * waited out its whole timeout).
   */
  async versions(): Promise<Record<string, number>> {
    const res = await fetch(`http://127.0.0.1:${this.#o.port}/readyz`)
    const body = (await res.json()) as { venues: Record<string, { catalog: { synced_at: string | null } }> }
    return Object.fromEntries(
      Object.entries(body.venues).map(([venue, v]) => [venue, Date.parse(v.catalog.synced_at ?? '') || 0]),
    )
  }

  /**
   * Returns once `needMs` of quiet time lies ahead. A refresh that started since the last quiet moment, or
   * one due sooner than `needMs`, is waited out (with `duringRefresh` run across its start, when given) until
   * every venue has installed its new catalog and the service is idle again.
   */
  async clear(needMs: number, duringRefresh?: () => Promise<void>): Promise<void> {
    const deadline = Date.now() + SETTLE_TIMEOUT_MS + this.#o.periodMs
    this.#settled ??= { at: Date.now(), versions: await this.versions() }
    while (Date.now() < deadline) {
      const now = Date.now()
      const next = this.nextRefreshAt(now)
      if (next - this.#o.periodMs > this.#settled.at) {
        await this.#settle()
      } else if (next - now < needMs + MARGIN_MS) {
        if (duringRefresh !== undefined) {
          await sleep(Math.max(0, next - Date.now() - 1_000))
          await duringRefresh()
          duringRefresh = undefined
        } else {
          this.#o.log(
            `waiting ${((next - now) / 1000).toFixed(0)} s for the next catalog refresh, then for it to finish`,
          )
          await sleep(Math.max(0, next - Date.now()))
        }
        await this.#settle()
      } else if (await this.#idle()) {
        return
      }
    }
    this.#o.log('no quiet window found between catalog refreshes; measuring anyway')
  }

  /** Runs `fn` starting 1 s before the next refresh, then waits the refresh out. */
  async acrossNextRefresh(fn: () => Promise<void>): Promise<void> {
    this.#settled ??= { at: Date.now(), versions: await this.versions() }
    if (this.nextRefreshAt() - this.#o.periodMs > this.#settled.at) await this.#settle()
    await sleep(Math.max(0, this.nextRefreshAt() - Date.now() - 1_000))
    await fn()
    await this.#settle()
  }

  /** True when no venue's catalog version moved since the last quiet moment (no refresh landed in a run). */
  async unchanged(): Promise<boolean> {
    const now = await this.versions()
    return this.#settled !== undefined && Object.entries(this.#settled.versions).every(([venue, v]) => now[venue] === v)
  }

  /** Until every venue's catalog synced since the settled moment and the service was idle for 1.5 s running. */
  async #settle(): Promise<void> {
    const before = this.#settled?.versions ?? {}
    const deadline = Date.now() + SETTLE_TIMEOUT_MS
    let quiet = 0
    while (Date.now() < deadline && quiet < 3) {
      const bumped = Object.entries(await this.versions()).every(
        ([venue, v]) => before[venue] === undefined || v > (before[venue] as number),
      )
      if (!bumped) {
        quiet = 0
        await sleep(500)
        continue
      }
      quiet = (await this.#idle()) ? quiet + 1 : 0
    }
    if (quiet < 3) this.#o.log('service did not settle after a catalog refresh within 120 s; measuring anyway')
    this.#settled = { at: Date.now(), versions: await this.versions() }
  }

  /** Service CPU below IDLE_CORES over the next 500 ms. */
  async #idle(): Promise<boolean> {
    const t0 = Date.now()
    const c0 = processCpuSeconds(this.#o.pid)
    await sleep(500)
    return (processCpuSeconds(this.#o.pid) - c0) / ((Date.now() - t0) / 1000) < IDLE_CORES
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms))
}
