import type { HistoryPoint } from '../../store/spread-history-repo.js'

/**
 * The bounded queue between the history sampler (producer, on the spread engine's thread of control) and the batch
 * writer. Pushing is O(1) except on overflow, where it scans at most `EVICTION_SCAN_LIMIT` entries.
 *
 * Overflow policy (the store is slow or down and `capacity` points are waiting):
 * 1. **Thin**: evict the oldest queued point whose pair has a newer point queued. The pair loses an intermediate
 *    point but its series still ends at its latest value (counted in `thinned`).
 * 2. **Drop oldest**: when no superseded point is found within the scan limit, the oldest point goes (counted in
 *    `dropped`); that pair's stored series may then end one value early.
 * Points taken for a write that fails are put back at the front (`requeue`), under the same policy.
 */
export interface QueueCounters {
  /** Intermediate points evicted on overflow (their pair kept a newer point). */
  thinned: number
  /** Points lost on overflow that were their pair's latest. */
  dropped: number
}

/** A queued point knows its pair (`eventSlug|outcomeKey`, the spread engine's key): no string is built per push. */
export interface KeyedPoint extends HistoryPoint {
  readonly key: string
}

/** Entries examined for a superseded point before dropping the oldest: keeps `push` O(1). */
export const EVICTION_SCAN_LIMIT = 64

export class HistoryQueue<P extends KeyedPoint = KeyedPoint> {
  readonly capacity: number
  readonly counters: QueueCounters = { thinned: 0, dropped: 0 }
  #items: (P | undefined)[]
  #head = 0
  #size = 0
  /** Points queued per pair: more than one means the older ones are superseded. */
  readonly #perPair = new Map<string, number>()

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`capacity must be a positive integer, got ${capacity}`)
    this.capacity = capacity
    this.#items = new Array<P | undefined>(capacity)
  }

  get size(): number {
    return this.#size
  }

  /** Appends a point (newest), evicting one per the overflow policy when full. */
  push(point: P): void {
    if (this.#size === this.capacity) this.#evict()
    this.#items[this.#slot(this.#size)] = point
    this.#size++
    this.#count(point.key, 1)
  }

  /** Removes and returns up to `n` of the oldest points. */
  take(n: number): P[] {
    const out: P[] = []
    while (out.length < n && this.#size > 0) out.push(this.#removeAt(0))
    return out
  }

  /**
   * Puts points that could not be written back at the front, oldest first, as if they had never left. When there is
   * no room, a point whose pair has a newer one queued is itself the one thinned; otherwise room is made per the
   * policy.
   */
  requeue(points: readonly P[]): void {
    for (let i = points.length - 1; i >= 0; i--) {
      const p = points[i] as P
      if (this.#size === this.capacity) {
        if (this.#perPair.has(p.key)) {
          this.counters.thinned++
          continue
        }
        this.#evict()
      }
      this.#head = (this.#head - 1 + this.capacity) % this.capacity
      this.#items[this.#head] = p
      this.#size++
      this.#count(p.key, 1)
    }
  }

  /** The queued points, oldest first (tests and diagnostics). */
  *[Symbol.iterator](): IterableIterator<P> {
    for (let i = 0; i < this.#size; i++) yield this.#items[this.#slot(i)] as P
  }

  /** The oldest superseded point among the first EVICTION_SCAN_LIMIT, else the oldest point. */
  #evict(): void {
    const scan = Math.min(this.#size, EVICTION_SCAN_LIMIT)
    for (let i = 0; i < scan; i++) {
      if ((this.#perPair.get((this.#items[this.#slot(i)] as P).key) ?? 0) > 1) {
        this.#removeAt(i)
        this.counters.thinned++
        return
      }
    }
    this.#removeAt(0)
    this.counters.dropped++
  }

  /** Removes the entry at position `i` from the front, shifting the `i` entries before it: O(i). */
  #removeAt(i: number): P {
    const p = this.#items[this.#slot(i)] as P
    for (let j = i; j > 0; j--) this.#items[this.#slot(j)] = this.#items[this.#slot(j - 1)]
    this.#items[this.#head] = undefined
    this.#head = (this.#head + 1) % this.capacity
    this.#size--
    this.#count(p.key, -1)
    return p
  }

  #slot(i: number): number {
    return (this.#head + i) % this.capacity
  }

  #count(key: string, delta: number): void {
    const n = (this.#perPair.get(key) ?? 0) + delta
    if (n === 0) this.#perPair.delete(key)
    else this.#perPair.set(key, n)
  }
}
