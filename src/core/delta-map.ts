/** Marks a key the delta removed from its base. */
const GONE: unique symbol = Symbol('gone')

/**
 * A read-only map that is a plain base map plus a small delta of keys set or removed since. A new version is made
 * from its predecessor by `with`, in time proportional to the delta, not the map: the base is shared, never copied
 * or changed, so every version stays valid for whoever still reads it (the read models serve the old version
 * while the new one is built). Lookups cost one delta lookup more than the base's.
 *
 * The delta only grows, so whoever makes versions compacts (`flatten`, O(size)) once `deltaSize` is no longer
 * small against `size`: a catalog's lookups are rebuilt whole when many events changed anyway.
 *
 * Values are never `undefined` (a lookup's undefined means absent).
 */
export class DeltaMap<K, V> implements ReadonlyMap<K, V> {
  readonly #base: ReadonlyMap<K, V>
  readonly #delta: ReadonlyMap<K, V | typeof GONE>
  readonly size: number

  private constructor(base: ReadonlyMap<K, V>, delta: ReadonlyMap<K, V | typeof GONE>, size: number) {
    this.#base = base
    this.#delta = delta
    this.size = size
  }

  /** `map` as the base of a version chain (itself when it is one already). */
  static over<K, V>(map: ReadonlyMap<K, V>): DeltaMap<K, V> {
    return map instanceof DeltaMap ? (map as DeltaMap<K, V>) : new DeltaMap(map, new Map(), map.size)
  }

  /** Keys set or removed since the base: what a lookup of a changed key walks, and what `with` copies. */
  get deltaSize(): number {
    return this.#delta.size
  }

  /** This map without the keys of `removed` and then with the entries of `set` (a key in both ends up set). */
  with(removed: Iterable<K>, set: Iterable<readonly [K, V]>): DeltaMap<K, V> {
    const delta = new Map(this.#delta)
    let size = this.size
    const present = (k: K) => {
      const d = delta.get(k)
      return d === undefined ? this.#base.has(k) : d !== GONE
    }
    for (const k of removed) {
      if (!present(k)) continue
      size--
      if (this.#base.has(k)) delta.set(k, GONE)
      else delta.delete(k)
    }
    for (const [k, v] of set) {
      if (!present(k)) size++
      delta.set(k, v)
    }
    return new DeltaMap(this.#base, delta, size)
  }

  /** The same entries in one plain map (a version with no delta). */
  flatten(): Map<K, V> {
    return new Map(this)
  }

  get(key: K): V | undefined {
    const d = this.#delta.get(key)
    if (d === undefined) return this.#base.get(key)
    return d === GONE ? undefined : d
  }

  has(key: K): boolean {
    const d = this.#delta.get(key)
    return d === undefined ? this.#base.has(key) : d !== GONE
  }

  /** The base's entries not in the delta, in the base's order, then the delta's, in the order they were set. */
  *entries(): MapIterator<[K, V]> {
    for (const entry of this.#base) if (!this.#delta.has(entry[0])) yield entry
    for (const [k, d] of this.#delta) if (d !== GONE) yield [k, d]
  }

  *keys(): MapIterator<K> {
    for (const [k] of this.entries()) yield k
  }

  *values(): MapIterator<V> {
    for (const [, v] of this.entries()) yield v
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries()
  }

  forEach(callback: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) callback.call(thisArg, v, k, this)
  }
}

/**
 * `map` without the `removed` entries and with the `added` ones, when that keeps every key one value's: each removed
 * key mapped to the value given, each added key free once those are out, and given once. Undefined otherwise, or when
 * the delta would pass `maxDeltaShare` of the map's size: the caller then builds its lookups whole (the whole build
 * settles a key claimed twice by its own order, which a patch cannot know).
 */
export function patchedMap<K, V>(
  map: ReadonlyMap<K, V>,
  removed: readonly (readonly [K, V])[],
  added: readonly (readonly [K, V])[],
  maxDeltaShare: number,
): DeltaMap<K, V> | undefined {
  const base = DeltaMap.over(map)
  for (const [key, value] of removed) if (base.get(key) !== value) return undefined
  const next = base.with(
    removed.map(([key]) => key),
    added,
  )
  if (next.size !== base.size - removed.length + added.length) return undefined
  if (next.deltaSize > maxDeltaShare * Math.max(next.size, 1)) return undefined
  return next
}
