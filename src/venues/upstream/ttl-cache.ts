import { LRUCache } from 'lru-cache'
import type { Clock } from '../../core/clock.js'

/**
 * An LRU of upstream answers with a TTL per entry, judged on the injected clock (so tests expire entries by
 * moving simulated time, and production uses the system clock). Bounded twice: by entry count and by an
 * estimated size, because one wallet's full activity can weigh as much as thousands of small book answers.
 * An expired entry is never served; it is dropped on the read that finds it expired.
 */
export interface TtlCacheOptions {
  readonly clock: Clock
  readonly maxEntries: number
  /** Upper bound on the sum of entries' estimated sizes (bytes). */
  readonly maxBytes: number
}

interface Entry {
  readonly value: unknown
  readonly expiresAt: number
}

export class TtlCache {
  readonly #clock: Clock
  readonly #lru: LRUCache<string, Entry>
  readonly counters = { hits: 0, misses: 0, sets: 0 }

  constructor(options: TtlCacheOptions) {
    this.#clock = options.clock
    this.#lru = new LRUCache<string, Entry>({ max: options.maxEntries, maxSize: options.maxBytes })
  }

  get<T>(key: string): T | undefined {
    return this.entry<T>(key)?.value
  }

  /** The live entry with its expiry (for callers that keep something derived from it no longer than it). */
  entry<T>(key: string): { readonly value: T; readonly expiresAt: number } | undefined {
    const e = this.#lru.get(key)
    if (e === undefined) {
      this.counters.misses++
      return undefined
    }
    if (e.expiresAt <= this.#clock.now()) {
      this.#lru.delete(key)
      this.counters.misses++
      return undefined
    }
    this.counters.hits++
    return e as { readonly value: T; readonly expiresAt: number }
  }

  /** When the entry under `key` expires, if there is one (not a read: no counters, no recency). */
  expiresAt(key: string): number | undefined {
    return this.#lru.peek(key)?.expiresAt
  }

  /** Stores `value` for `ttlMs` (nothing is stored for ttlMs ≤ 0). `sizeBytes` is an estimate. */
  set(key: string, value: unknown, ttlMs: number, sizeBytes = 1_024): void {
    if (ttlMs <= 0) return
    this.counters.sets++
    this.#lru.set(
      key,
      { value, expiresAt: this.#clock.now() + ttlMs },
      { size: Math.max(1, Math.min(sizeBytes, this.#lru.maxSize)) },
    )
  }

  delete(key: string): void {
    this.#lru.delete(key)
  }

  get size(): number {
    return this.#lru.size
  }
}
