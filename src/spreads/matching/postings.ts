/**
 * The posting lists of the matcher's blocking indexes (contract-index.ts, contest-index.ts) and of its accepted pairs
 * by contract (matcher.ts): key → the values held under it. Most lists hold a few values, and an array grown by `push`
 * keeps room for about 17 more: a list of two took about 200 bytes instead of 70, and such lists were most of the
 * indexes' memory, a third of the matcher's. So a short list grows by a copy of exactly its size; a long one by
 * `push`, whose spare room is then a small share of it (copying it would make building the index quadratic in its
 * busiest keys).
 *
 * A list is replaced, not changed, while it is short: a caller that holds a list it got from the map sees the values
 * of that moment.
 */
const COPY_BELOW = 16

export function addPosting<K, V>(map: Map<K, readonly V[]>, key: K, value: V): void {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else if (list.length < COPY_BELOW) map.set(key, withOneMore(list, value))
  else (list as V[]).push(value)
}

/** A copy of `list` with `value` at its end, of exactly that size (as quick as a push; `concat` took twice as long). */
function withOneMore<V>(list: readonly V[], value: V): V[] {
  const n = list.length
  const out = new Array<V>(n + 1)
  for (let i = 0; i < n; i++) out[i] = list[i] as V
  out[n] = value
  return out
}

/** Removes one occurrence of `value` (order within a list does not matter); drops the key with its last value. */
export function removePosting<K, V>(map: Map<K, readonly V[]>, key: K, value: V): boolean {
  const list = map.get(key) as V[] | undefined
  if (list === undefined) return false
  const i = list.indexOf(value)
  if (i === -1) return false
  list[i] = list[list.length - 1] as V
  list.pop()
  if (list.length === 0) map.delete(key)
  return true
}

/**
 * The postings of a blocking index (contract-index.ts, contest-index.ts), where most keys hold one contract: a block is
 * a day and a threshold bucket, so each rung of a ladder has blocks of its own. A key holds its one value bare and a
 * list from the second value on: a list of one took 56 bytes beside the value it held, and such lists were most of
 * the indexes' postings. Values must not be arrays.
 */
export type Holders<V> = V | readonly V[]

export function hold<K, V>(map: Map<K, Holders<V>>, key: K, value: V): void {
  const held = map.get(key)
  if (held === undefined) map.set(key, value)
  else if (!Array.isArray(held)) map.set(key, [held as V, value])
  else if (held.length < COPY_BELOW) map.set(key, withOneMore(held as readonly V[], value))
  else (held as V[]).push(value)
}

/** Removes one occurrence of `value`; drops the key with its last value. */
export function release<K, V>(map: Map<K, Holders<V>>, key: K, value: V): boolean {
  const held = map.get(key)
  if (held === undefined) return false
  if (!Array.isArray(held)) {
    if (held !== value) return false
    map.delete(key)
    return true
  }
  const list = held as V[]
  const i = list.indexOf(value)
  if (i === -1) return false
  list[i] = list[list.length - 1] as V
  list.pop()
  if (list.length === 1) map.set(key, list[0] as V)
  return true
}

export function holderCount<V>(held: Holders<V> | undefined): number {
  return held === undefined ? 0 : Array.isArray(held) ? held.length : 1
}

/** Calls `visit` with each value held (none for undefined). */
export function eachHolder<V>(held: Holders<V> | undefined, visit: (v: V) => void): void {
  if (held === undefined) return
  if (!Array.isArray(held)) return visit(held as V)
  for (const v of held as readonly V[]) visit(v)
}

/** The value held last (the one `hold` added most recently while no release reordered them). */
export function lastHolder<V>(held: Holders<V> | undefined): V | undefined {
  return held === undefined ? undefined : Array.isArray(held) ? (held.at(-1) as V | undefined) : (held as V)
}
