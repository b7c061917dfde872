/**
 * A priority index over values in [0, 1] with O(1) updates and top-k in O(k) (plus a constant-time skip over
 * empty buckets): values are quantized into 65,536 buckets, each bucket holds its members, and a two-level
 * occupancy bitmap finds the next non-empty bucket below a given one with `Math.clz32`.
 *
 * Why not a heap: mnemonist's heaps (like most) cannot update a member's key in place, and top-k from a heap
 * costs O(k log n) plus copying. Spread scores change on every quote; the ranking must absorb that cheaply.
 * Within a bucket (values equal to 1/65,536) members are ordered exactly by value, then by id, when read.
 */
const BUCKETS = 65_536
const WORDS = BUCKETS / 32 // 2,048 level-0 words
const SUMMARY_WORDS = WORDS / 32 // 64 level-1 words

/** Ids are small dense integers (the engine numbers its pairs): per-id state lives in typed arrays. */
export class BucketIndex {
  #value = new Float64Array(1_024)
  /** bucket + 1 per id; 0 = absent. */
  #bucketOf = new Int32Array(1_024)
  #size = 0
  readonly #buckets: (Set<number> | undefined)[] = new Array(BUCKETS)
  readonly #level0 = new Uint32Array(WORDS)
  readonly #level1 = new Uint32Array(SUMMARY_WORDS)

  get size(): number {
    return this.#size
  }

  /** Inserts or moves `id` (a non-negative integer) to `value` (clamped to [0, 1]). */
  set(id: number, value: number): void {
    if (id >= this.#value.length) this.#grow(id)
    const v = value > 1 ? 1 : value > 0 ? value : 0
    const bucket = Math.min(BUCKETS - 1, Math.floor(v * BUCKETS))
    const prev = (this.#bucketOf[id] as number) - 1
    this.#value[id] = v
    if (prev === bucket) return
    if (prev >= 0) this.#remove(id, prev)
    else this.#size++
    let set = this.#buckets[bucket]
    if (set === undefined) this.#buckets[bucket] = set = new Set()
    set.add(id)
    this.#bucketOf[id] = bucket + 1
    this.#level0[bucket >>> 5]! |= 1 << (bucket & 31)
    this.#level1[bucket >>> 10]! |= 1 << ((bucket >>> 5) & 31)
  }

  delete(id: number): void {
    const bucket = id < this.#bucketOf.length ? (this.#bucketOf[id] as number) - 1 : -1
    if (bucket < 0) return
    this.#remove(id, bucket)
    this.#bucketOf[id] = 0
    this.#size--
  }

  value(id: number): number | undefined {
    return id < this.#bucketOf.length && (this.#bucketOf[id] as number) > 0 ? this.#value[id] : undefined
  }

  #grow(id: number): void {
    const length = Math.max(id + 1, this.#value.length * 2)
    const value = new Float64Array(length)
    value.set(this.#value)
    const bucketOf = new Int32Array(length)
    bucketOf.set(this.#bucketOf)
    this.#value = value
    this.#bucketOf = bucketOf
  }

  /**
   * Members from the highest value down (ties by id ascending), stopping when `visit` returns false or the
   * values fall below `minValue`.
   */
  forEachDescending(visit: (id: number, value: number) => boolean | void, minValue = 0): void {
    const floor = Math.max(0, Math.min(BUCKETS - 1, Math.floor(minValue * BUCKETS)))
    for (let b = this.#highestAtOrBelow(BUCKETS - 1); b >= floor; b = b > 0 ? this.#highestAtOrBelow(b - 1) : -1) {
      const members = [...(this.#buckets[b] as Set<number>)]
      if (members.length > 1) members.sort((x, y) => (this.#value[y] as number) - (this.#value[x] as number) || x - y)
      for (const id of members) {
        const v = this.#value[id] as number
        if (v < minValue) return
        if (visit(id, v) === false) return
      }
    }
  }

  #remove(id: number, bucket: number): void {
    const set = this.#buckets[bucket]
    if (set === undefined) return
    set.delete(id)
    if (set.size > 0) return
    const word = bucket >>> 5
    this.#level0[word]! &= ~(1 << (bucket & 31))
    if (this.#level0[word] === 0) this.#level1[word >>> 5]! &= ~(1 << (word & 31))
  }

  /** The highest non-empty bucket ≤ b, or -1. */
  #highestAtOrBelow(b: number): number {
    if (b < 0) return -1
    let word = b >>> 5
    // Bits at or below b's position in its word.
    const bit = b & 31
    let bits = (this.#level0[word] as number) & (bit === 31 ? 0xffffffff : (1 << (bit + 1)) - 1)
    if (bits !== 0) return (word << 5) + 31 - Math.clz32(bits)
    // Find the highest non-empty word below `word` through the summary.
    let s = word >>> 5
    let sbits = (this.#level1[s] as number) & ((1 << (word & 31)) - 1)
    while (sbits === 0) {
      if (--s < 0) return -1
      sbits = this.#level1[s] as number
    }
    word = (s << 5) + 31 - Math.clz32(sbits)
    bits = this.#level0[word] as number
    return (word << 5) + 31 - Math.clz32(bits)
  }
}
