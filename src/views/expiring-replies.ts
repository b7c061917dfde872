/**
 * Serialized replies kept until a deadline, keyed by whatever names a reply completely: a proxy route's raw
 * query string (until the upstream cache entry it was rendered from expires), or the top list's parameters
 * (until time moves a listed record), with a version the reply must match (the engine's top-list epoch). A hit
 * costs one Map lookup and a clock read; numeric keys and the version let a hot route look up without building
 * a key string per request.
 *
 * Bounded by entry count, evicting in insertion order (PageCache's reasoning: a lookup is on every read, and
 * hot keys are re-inserted within moments of being evicted).
 */
interface Entry {
  readonly body: Uint8Array
  readonly expiresAt: number
  readonly version: number
}

export class ExpiringReplies<K extends string | number = string> {
  readonly #entries = new Map<K, Entry>()
  readonly #maxEntries: number

  constructor(maxEntries = 2_000) {
    this.#maxEntries = maxEntries
  }

  get size(): number {
    return this.#entries.size
  }

  /** The reply under `key` if it was kept with this `version` and has not expired. */
  get(key: K, now: number, version = 0): Uint8Array | undefined {
    const e = this.#entries.get(key)
    if (e === undefined || e.version !== version) return undefined
    if (e.expiresAt <= now) {
      this.#entries.delete(key)
      return undefined
    }
    return e.body
  }

  /** Keeps `body` under `key` (replacing any other version) until `expiresAt`; nothing is kept when that is not after `now`. */
  set(key: K, body: Uint8Array, expiresAt: number, now: number, version = 0): void {
    if (expiresAt <= now) return
    if (!this.#entries.has(key) && this.#entries.size >= this.#maxEntries)
      this.#entries.delete(this.#entries.keys().next().value as K)
    this.#entries.set(key, { body, expiresAt, version })
  }
}
