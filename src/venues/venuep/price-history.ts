import type { Clock } from '../../core/clock.js'
import { AppError } from '../../core/errors.js'
import { UpstreamProtocolError } from '../http-client.js'
import { upstreamAppError } from '../upstream/errors.js'
import type { Upstream } from '../upstream/upstream.js'

/**
 * The venue's price nearest a past instant, from CLOB `/prices-history` (venuep.md §2.4), cached. A lookup
 * fetches a window around a fixed 3-hour bucket at one-minute fidelity, so every instant in the bucket is served
 * by one upstream call; windows that closed more than five minutes ago cannot change and are kept for a day,
 * others for 30 s. Identical concurrent lookups share one request (single flight). Calls go through the
 * shared CLOB upstream (breaker, rate limits, timeout: src/venues/upstream).
 */
export interface HistoryPoint {
  /** Unix seconds. */
  readonly t: number
  readonly p: number
}

const BUCKET_SEC = 3 * 3_600
const FIDELITY_MIN = 1
const SETTLED_AFTER_SEC = 300
const LONG_TTL_MS = 86_400_000
const SHORT_TTL_MS = 30_000

export interface PriceHistoryOptions {
  /** The shared CLOB upstream, so history lookups count against the same rate limits and breaker as the proxies. */
  readonly clob: Upstream
  readonly clock: Clock
}

export class PriceHistory {
  readonly #clob: Upstream
  readonly #clock: Clock
  /** Upstream requests made (tests count them). */
  upstreamCalls = 0

  constructor(options: PriceHistoryOptions) {
    this.#clock = options.clock
    this.#clob = options.clob
  }

  /** The history point nearest `unixSec`, or undefined when the venue has none near it. */
  async nearest(tokenId: string, unixSec: number): Promise<HistoryPoint | undefined> {
    const points = await this.#window(tokenId, Math.floor(unixSec / BUCKET_SEC))
    let best: HistoryPoint | undefined
    for (const pt of points) if (best === undefined || Math.abs(pt.t - unixSec) < Math.abs(best.t - unixSec)) best = pt
    return best
  }

  async #window(tokenId: string, bucket: number): Promise<readonly HistoryPoint[]> {
    const nowSec = Math.floor(this.#clock.now() / 1000)
    const startTs = (bucket - 1) * BUCKET_SEC
    const endTs = Math.min(nowSec, (bucket + 2) * BUCKET_SEC)
    if (endTs <= startTs) return []
    const settled = (bucket + 2) * BUCKET_SEC < nowSec - SETTLED_AFTER_SEC
    try {
      return await this.#clob.get<readonly HistoryPoint[]>({
        path: '/prices-history',
        query: { market: tokenId, startTs, endTs, fidelity: FIDELITY_MIN },
        // Keyed by bucket, not URL: an open window's `endTs` moves with the clock, its cached answer should not.
        key: `price-history-window:${tokenId}:${bucket}`,
        parse: (body, url) => {
          this.upstreamCalls++
          return parsePoints(body, url)
        },
        ttlMs: () => (settled ? LONG_TTL_MS : SHORT_TTL_MS),
        sizeOf: (points) => 64 + points.length * 32,
      })
    } catch (err) {
      throw upstreamError(err)
    }
  }
}

/** Points with a numeric `t` and `p`; others are skipped (a bad point is not worth failing the lookup). */
function parsePoints(body: unknown, url: string): HistoryPoint[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new UpstreamProtocolError(url, 'expected {history: [...]}')
  const history = (body as { history?: unknown }).history
  const out: HistoryPoint[] = []
  for (const pt of Array.isArray(history) ? (history as { t?: unknown; p?: unknown }[]) : []) {
    const t = Number(pt?.t)
    const p = Number(pt?.p)
    if (Number.isFinite(t) && Number.isFinite(p)) out.push({ t, p })
  }
  return out
}

/** Maps upstream failures to the API's error contract (502 upstream_error with the status, 504 upstream_timeout). */
export function upstreamError(err: unknown): AppError {
  return upstreamAppError(err, 'clob')
}
