import type { Clock } from '../../../core/clock.js'
import { TtlCache } from '../../upstream/ttl-cache.js'
import { Upstream, type UpstreamLimits } from '../../upstream/upstream.js'

/**
 * venuep's three hosts as the proxies use them, with the venue's published rate limits (venuep.md §5,
 * Cloudflare sliding 10 s windows) and our per-host timeouts and breaker settings.
 *
 * | host  | general / 10 s | per path / 10 s                                              | timeout |
 * |-------|----------------|--------------------------------------------------------------|---------|
 * | gamma | 4,000          | `/events` 500, `/markets` 300                                | 2,500 ms |
 * | clob  | 9,000          | `/book` 1,500, `/prices-history` 1,000                       | 2,000 ms |
 * | data  | 1,000          | `/trades` 200, `/positions` 150, `/closed-positions` 150     | 3,000 ms |
 *
 * Breaker (each host on its own): 5 consecutive venue failures open it; it stays open 30 s, then lets one
 * probe through (half-open). Timeouts are short on purpose: the venue normally answers in a few hundred ms,
 * and a client waiting on a live read is better served by a 504 than by a 10 s hang.
 *
 * One cache serves all three hosts (bounded at 20,000 answers and ~64 MiB estimated).
 */
export const VENUEP_LIMITS: Readonly<Record<'gamma' | 'clob' | 'data', UpstreamLimits>> = {
  gamma: { windowMs: 10_000, general: 4_000, routes: { '/events': 500, '/markets': 300 } },
  clob: { windowMs: 10_000, general: 9_000, routes: { '/book': 1_500, '/prices-history': 1_000 } },
  data: { windowMs: 10_000, general: 1_000, routes: { '/trades': 200, '/positions': 150, '/closed-positions': 150 } },
}

export const DEFAULT_TIMEOUTS_MS: Readonly<Record<'gamma' | 'clob' | 'data', number>> = {
  gamma: 2_500,
  clob: 2_000,
  data: 3_000,
}

export const DEFAULT_BREAKER = { failureThreshold: 5, openMs: 30_000 } as const

export interface VenuepUpstreamOptions {
  readonly urls: { readonly gamma: string; readonly clob: string; readonly data: string }
  readonly clock: Clock
  readonly timeoutsMs?: Partial<Record<'gamma' | 'clob' | 'data', number>>
  readonly breaker?: { readonly failureThreshold: number; readonly openMs: number }
  /** Overrides of the published limits (tests shrink them to exercise the limiter). */
  readonly limits?: Partial<Record<'gamma' | 'clob' | 'data', UpstreamLimits>>
  readonly cache?: { readonly maxEntries: number; readonly maxBytes: number }
}

export interface VenuepUpstreams {
  readonly gamma: Upstream
  readonly clob: Upstream
  readonly data: Upstream
  readonly cache: TtlCache
}

export function createVenuepUpstreams(options: VenuepUpstreamOptions): VenuepUpstreams {
  const cache = new TtlCache({
    clock: options.clock,
    maxEntries: options.cache?.maxEntries ?? 20_000,
    maxBytes: options.cache?.maxBytes ?? 64 * 1024 * 1024,
  })
  const make = (name: 'gamma' | 'clob' | 'data'): Upstream =>
    new Upstream({
      name,
      baseUrl: options.urls[name],
      timeoutMs: options.timeoutsMs?.[name] ?? DEFAULT_TIMEOUTS_MS[name],
      clock: options.clock,
      limits: options.limits?.[name] ?? VENUEP_LIMITS[name],
      breaker: options.breaker ?? DEFAULT_BREAKER,
      cache,
    })
  return { gamma: make('gamma'), clob: make('clob'), data: make('data'), cache }
}
