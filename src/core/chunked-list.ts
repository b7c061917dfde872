/** Items per chunk when a list is cut up (`from`); an edited chunk may hold up to twice as many before it is split. */
const CHUNK = 512

/**
 * An immutable list held as chunks of at most 2 × 512 items, so a new version with a few items taken out or put in
 * (`edited`) copies only the chunks those touch and the chunk index (n / 512 entries), sharing every other chunk with
 * its predecessor, which stays valid for whoever still reads it. At 160,000 items an edit costs a few thousand
 * copies where a copy of the list costs 160,000 — what a catalog refresh that changed one event pays per ordering
 * (issue 35). Reads: `at` is a binary search over the chunk index and an array read; `slice` and iteration walk the
 * chunks.
 */
export class ChunkedList<T> {
  readonly #chunks: readonly (readonly T[])[]
  /** `#starts[c]`: the index of chunk c's first item; one entry more than chunks, the list's length. */
  readonly #starts: Float64Array
  readonly length: number

  private constructor(chunks: readonly (readonly T[])[], starts: Float64Array) {
    this.#chunks = chunks
    this.#starts = starts
    this.length = starts[chunks.length] as number
  }

  static readonly #empty = new ChunkedList<never>([], new Float64Array(1))

  static empty<T>(): ChunkedList<T> {
    return ChunkedList.#empty
  }

  /** `items` cut into chunks (the array is copied: the list never shares a mutable array with its caller). */
  static from<T>(items: readonly T[]): ChunkedList<T> {
    const chunks: T[][] = []
    for (let i = 0; i < items.length; i += CHUNK) chunks.push(items.slice(i, i + CHUNK))
    return new ChunkedList(chunks, startsOf(chunks))
  }

  /** The item at `index` (undefined outside the list). */
  at(index: number): T | undefined {
    if (index < 0 || index >= this.length) return undefined
    const c = this.#chunkOf(index)
    return (this.#chunks[c] as readonly T[])[index - (this.#starts[c] as number)]
  }

  /** The items from `start` up to `end` (exclusive) as an array, as Array.prototype.slice with non-negative bounds. */
  slice(start = 0, end = this.length): T[] {
    const from = Math.max(0, Math.min(start, this.length))
    const to = Math.max(from, Math.min(end, this.length))
    const out: T[] = []
    if (from === to) return out
    for (let c = this.#chunkOf(from); c < this.#chunks.length; c++) {
      const chunk = this.#chunks[c] as readonly T[]
      const base = this.#starts[c] as number
      if (base >= to) break
      const a = Math.max(from - base, 0)
      const b = Math.min(to - base, chunk.length)
      for (let i = a; i < b; i++) out.push(chunk[i] as T)
    }
    return out
  }

  /** The items for which `keep` holds, in order. */
  filter(keep: (item: T) => boolean): T[] {
    const out: T[] = []
    for (const chunk of this.#chunks) for (const item of chunk) if (keep(item)) out.push(item)
    return out
  }

  toArray(): T[] {
    return this.slice()
  }

  *[Symbol.iterator](): IterableIterator<T> {
    for (const chunk of this.#chunks) yield* chunk
  }

  /**
   * The first index whose item `holds` for, given that it holds for a suffix of the list (binary search: over the
   * chunks by their last item, then within one); `length` when it holds for none.
   */
  firstWhere(holds: (item: T, index: number) => boolean): number {
    const chunks = this.#chunks
    let lo = 0
    let hi = chunks.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      const chunk = chunks[mid] as readonly T[]
      const last = chunk.length - 1
      if (holds(chunk[last] as T, (this.#starts[mid] as number) + last)) hi = mid
      else lo = mid + 1
    }
    if (lo === chunks.length) return this.length
    const chunk = chunks[lo] as readonly T[]
    const base = this.#starts[lo] as number
    let a = 0
    let b = chunk.length - 1
    while (a < b) {
      const mid = (a + b) >>> 1
      if (holds(chunk[mid] as T, base + mid)) b = mid
      else a = mid + 1
    }
    return base + a
  }

  /**
   * This list without the items at `removed` (indexes into this list) and with each of `inserted` put before the
   * item now at its index (`length`: at the end); items inserted at one index keep their order. Costs the chunks
   * touched and the chunk index; the rest is shared.
   */
  edited(removed: readonly number[], inserted: readonly (readonly [number, T])[]): ChunkedList<T> {
    if (removed.length === 0 && inserted.length === 0) return this
    if (this.#chunks.length === 0) return ChunkedList.from(inserted.map(([, item]) => item))
    // Per chunk touched: its removed offsets and its insertions (an index at a chunk's end goes to that chunk).
    const touched = new Map<number, { gone: Set<number>; put: (readonly [number, T])[] }>()
    const edit = (c: number) => {
      let e = touched.get(c)
      if (e === undefined) touched.set(c, (e = { gone: new Set(), put: [] }))
      return e
    }
    for (const i of removed) {
      if (i < 0 || i >= this.length) throw new RangeError(`no item at ${i} to remove`)
      const c = this.#chunkOf(i)
      edit(c).gone.add(i - (this.#starts[c] as number))
    }
    for (const entry of inserted) {
      const at = entry[0]
      if (at < 0 || at > this.length) throw new RangeError(`no place ${at} to insert at`)
      const c = at === this.length ? this.#chunks.length - 1 : this.#chunkOf(at)
      edit(c).put.push([at - (this.#starts[c] as number), entry[1]])
    }
    const chunks: (readonly T[])[] = []
    for (let c = 0; c < this.#chunks.length; c++) {
      const old = this.#chunks[c] as readonly T[]
      const e = touched.get(c)
      if (e === undefined) {
        chunks.push(old)
        continue
      }
      // Stable by place: insertions at one place keep the order they were given in.
      const put = e.put.map((p, n) => ({ at: p[0], n, item: p[1] })).sort((x, y) => x.at - y.at || x.n - y.n)
      const next: T[] = []
      let p = 0
      for (let i = 0; i <= old.length; i++) {
        while (p < put.length && (put[p] as { at: number }).at === i) next.push((put[p++] as { item: T }).item)
        if (i < old.length && !e.gone.has(i)) next.push(old[i] as T)
      }
      if (next.length === 0) continue
      if (next.length <= 2 * CHUNK) chunks.push(next)
      else for (let i = 0; i < next.length; i += CHUNK) chunks.push(next.slice(i, i + CHUNK))
    }
    return new ChunkedList(chunks, startsOf(chunks))
  }

  /** The chunk holding `index` (0 ≤ index < length): the last chunk starting at or before it. */
  #chunkOf(index: number): number {
    const starts = this.#starts
    let lo = 0
    let hi = this.#chunks.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1
      if ((starts[mid] as number) <= index) lo = mid
      else hi = mid - 1
    }
    return lo
  }
}

function startsOf<T>(chunks: readonly (readonly T[])[]): Float64Array {
  const starts = new Float64Array(chunks.length + 1)
  for (let c = 0; c < chunks.length; c++) starts[c + 1] = (starts[c] as number) + (chunks[c] as readonly T[]).length
  return starts
}
