/**
 * Serialized response bodies reused while nothing they contain has changed. An entry is valid for the same
 * view object (the same catalog version), the same records in the same order, and the same record versions
 * (bumped by quote changes). Checking that costs O(page size); building the body again would cost the same
 * order plus the serialization, which is what this saves.
 */
interface CachedPage {
  readonly owner: object
  readonly items: readonly object[]
  readonly versions: readonly number[]
  /** UTF-8 bytes: encoded once per page, not once per response. */
  readonly body: Uint8Array
}

export class PageCache {
  /**
   * A Map evicting in insertion order, not an LRU: a lookup is on every list read, and lru-cache's `get`
   * (options object, recency relinking) costs several times a Map's. Hot pages are re-inserted within moments of
   * being evicted, so recency buys little here.
   */
  readonly #pages = new Map<string, CachedPage>()
  /** Bound: `maxEntries` pages, each holding its bytes and its page of records (not the view: see `forget`). */
  readonly #maxEntries: number
  #hits = 0
  #misses = 0

  constructor(maxEntries = 2_000) {
    this.#maxEntries = maxEntries
  }

  get(key: string, owner: object, items: readonly object[], versions: readonly number[]): Uint8Array | undefined {
    const c = this.#pages.get(key)
    if (c === undefined || c.owner !== owner || c.items.length !== items.length) {
      this.#misses++
      return undefined
    }
    for (let i = 0; i < items.length; i++) {
      if (c.items[i] !== items[i] || c.versions[i] !== versions[i]) {
        this.#misses++
        return undefined
      }
    }
    this.#hits++
    return c.body
  }

  /** Reads answered from cached bytes (here, or by a reader keeping its own: see `countHit`). */
  get hits(): number {
    return this.#hits
  }

  get misses(): number {
    return this.#misses
  }

  /**
   * A reader that keeps bytes of its own (the top list, valid per engine epoch) counts its hits here, so the
   * page-cache metric covers every list read.
   */
  countHit(): void {
    this.#hits++
  }

  /**
   * Drops every page built from `owners` (views a rebuild replaced). Without it a page nobody asks for again would
   * keep its replaced view, and with it a whole older catalog, alive until 2,000 other keys pushed it out.
   */
  forget(owners: ReadonlySet<object>): void {
    if (owners.size === 0) return
    for (const [key, c] of this.#pages) if (owners.has(c.owner)) this.#pages.delete(key)
  }

  /** Stores a page and returns its bytes (send those: they are what the next hit returns too). */
  set(key: string, owner: object, items: readonly object[], versions: readonly number[], body: string): Uint8Array {
    const bytes = Buffer.from(body, 'utf8')
    if (!this.#pages.has(key) && this.#pages.size >= this.#maxEntries)
      this.#pages.delete(this.#pages.keys().next().value as string)
    this.#pages.set(key, { owner, items, versions, body: bytes })
    return bytes
  }

  /** The cached page, or a freshly built and cached one. */
  page(
    key: string,
    owner: object,
    items: readonly object[],
    versions: readonly number[],
    build: () => string,
  ): Uint8Array {
    return this.get(key, owner, items, versions) ?? this.set(key, owner, items, versions, build())
  }
}
