import { atLeast } from '../../core/typed-arrays.js'

/**
 * A priority index over values in [0, 1] with O(1) updates and top-k in O(k) (plus a constant-time skip over
 * empty buckets): values are quantized into 65,536 buckets, each bucket is a doubly linked list of its members,
 * and a two-level occupancy bitmap finds the next non-empty bucket below a given one with `Math.clz32`.
 *
 * Why not a heap: mnemonist's heaps (like most) cannot update a member's key in place, and top-k from a heap
 * costs O(k log n) plus copying. Spread scores change on every quote; the ranking must absorb that cheaply.
 * Within a bucket (values equal to 1/65,536) members are ordered exactly by value, then by id, when read.
 *
 * Layout: everything about one id (value, bucket, list links) is one 32-byte row of a Float64Array, and the list
 * heads are a typed array. A move touches the id's row, its two list neighbours' rows and the new bucket's head:
 * a handful of cache lines, none of them a separate heap object. At 100,000 pairs the earlier layout (a `Set`
 * per bucket) cost several dependent cache misses per move in each of the engine's two indexes.
 */
const BUCKETS = 65_536
const WORDS = BUCKETS / 32 // 2,048 level-0 words
const SUMMARY_WORDS = WORDS / 32 // 64 level-1 words

/** Row layout per id. Links and buckets are stored as doubles (exact for these integers); -1 means none. */
const ROW = 4
const VALUE = 0
const BUCKET = 1
const NEXT = 2
const PREV = 3

/** Ids are small dense integers (the engine numbers its pairs): per-id state lives in one typed array. */
export class BucketIndex {
  #rows = newRows(1_024)
  #size = 0
  /** First member of each bucket's list, -1 when empty. */
  readonly #head = new Int32Array(BUCKETS).fill(-1)
  readonly #level0 = new Uint32Array(WORDS)
  readonly #level1 = new Uint32Array(SUMMARY_WORDS)

  get size(): number {
    return this.#size
  }

  /** Inserts or moves `id` (a non-negative integer) to `value` (clamped to [0, 1]). */
  set(id: number, value: number): void {
    if (id * ROW >= this.#rows.length) this.#grow(id)
    const rows = this.#rows
    const at = id * ROW
    const v = value > 1 ? 1 : value > 0 ? value : 0
    const bucket = Math.min(BUCKETS - 1, Math.floor(v * BUCKETS))
    const prev = rows[at + BUCKET] as number
    rows[at + VALUE] = v
    if (prev === bucket) return
    if (prev >= 0) this.#unlink(id, prev)
    else this.#size++
    this.#link(id, bucket)
  }

  delete(id: number): void {
    const at = id * ROW
    const bucket = at < this.#rows.length ? (this.#rows[at + BUCKET] as number) : -1
    if (bucket < 0) return
    this.#unlink(id, bucket)
    this.#rows[at + BUCKET] = -1
    this.#size--
  }

  value(id: number): number | undefined {
    const at = id * ROW
    return at < this.#rows.length && (this.#rows[at + BUCKET] as number) >= 0 ? this.#rows[at + VALUE] : undefined
  }

  #grow(id: number): void {
    const from = this.#rows.length
    const rows = (this.#rows = atLeast(this.#rows, (id + 1) * ROW))
    for (let at = from + BUCKET; at < rows.length; at += ROW) rows[at] = -1
  }

  /**
   * Members from the highest value down (ties by id ascending), stopping when `visit` returns false or the
   * values fall below `minValue`.
   */
  forEachDescending(visit: (id: number, value: number) => boolean | void, minValue = 0): void {
    const rows = this.#rows
    const floor = Math.max(0, Math.min(BUCKETS - 1, Math.floor(minValue * BUCKETS)))
    const members: number[] = []
    for (let b = this.#highestAtOrBelow(BUCKETS - 1); b >= floor; b = b > 0 ? this.#highestAtOrBelow(b - 1) : -1) {
      members.length = 0
      for (let id = this.#head[b] as number; id >= 0; id = rows[id * ROW + NEXT] as number) members.push(id)
      if (members.length > 1)
        members.sort((x, y) => (rows[y * ROW + VALUE] as number) - (rows[x * ROW + VALUE] as number) || x - y)
      for (const id of members) {
        const v = rows[id * ROW + VALUE] as number
        if (v < minValue) return
        if (visit(id, v) === false) return
      }
    }
  }

  #link(id: number, bucket: number): void {
    const rows = this.#rows
    const at = id * ROW
    const first = this.#head[bucket] as number
    rows[at + BUCKET] = bucket
    rows[at + NEXT] = first
    rows[at + PREV] = -1
    if (first >= 0) rows[first * ROW + PREV] = id
    else {
      this.#level0[bucket >>> 5]! |= 1 << (bucket & 31)
      this.#level1[bucket >>> 10]! |= 1 << ((bucket >>> 5) & 31)
    }
    this.#head[bucket] = id
  }

  #unlink(id: number, bucket: number): void {
    const rows = this.#rows
    const at = id * ROW
    const next = rows[at + NEXT] as number
    const prev = rows[at + PREV] as number
    if (prev >= 0) rows[prev * ROW + NEXT] = next
    else this.#head[bucket] = next
    if (next >= 0) rows[next * ROW + PREV] = prev
    if (this.#head[bucket] !== -1) return
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

/** Rows for `ids` ids, every one absent (bucket -1). */
function newRows(ids: number): Float64Array {
  const rows = new Float64Array(ids * ROW)
  for (let at = BUCKET; at < rows.length; at += ROW) rows[at] = -1
  return rows
}
