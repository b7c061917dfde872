/**
 * A fixed-capacity FIFO on a circular array. `push` returns false when full so every caller has to decide
 * its overflow policy explicitly (drop, fail, resync) instead of growing without bound.
 */
export class RingBuffer<T> {
  readonly capacity: number
  #items: (T | undefined)[]
  #head = 0
  #size = 0

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`capacity must be a positive integer, got ${capacity}`)
    this.capacity = capacity
    this.#items = new Array<T | undefined>(capacity)
  }

  get size(): number {
    return this.#size
  }

  get isFull(): boolean {
    return this.#size === this.capacity
  }

  push(item: T): boolean {
    if (this.#size === this.capacity) return false
    this.#items[(this.#head + this.#size) % this.capacity] = item
    this.#size++
    return true
  }

  shift(): T | undefined {
    if (this.#size === 0) return undefined
    const item = this.#items[this.#head]
    this.#items[this.#head] = undefined
    this.#head = (this.#head + 1) % this.capacity
    this.#size--
    return item
  }

  clear(): void {
    this.#items.fill(undefined)
    this.#head = 0
    this.#size = 0
  }

  *[Symbol.iterator](): IterableIterator<T> {
    for (let i = 0; i < this.#size; i++) yield this.#items[(this.#head + i) % this.capacity] as T
  }
}
