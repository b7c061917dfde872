import { sortSteps } from '../core/array-steps.js'
import type { Steps } from '../core/slices.js'
import { SearchIndex } from './search-index.js'

/**
 * Filtered, sorted, paged reads over one immutable list of records, without work proportional to the whole
 * list per request:
 * - the common query (status, category, sort, order) walks a sorted array built lazily once per list (per
 *   catalog version) for that combination, so a page costs O(offset + limit) and `total` is its length;
 * - selective filters (ids, search) start from their matches (an id lookup or the trigram index) and sort only
 *   those.
 * Sort order: the key in the requested order, unknown keys last in both orders, ties by id ascending, so pages
 * are stable.
 *
 * Orderings and the search index are built on demand, which would put a 20,000-record sort (tens of ms) or a
 * trigram index (~0.1 s) inside the first request after every catalog rebuild. `warmSteps` builds, in event-loop
 * slices during the rebuild, what the previous index had been asked for.
 */
export interface Listable {
  readonly id: string
  readonly status: string
  readonly category: string
}

export interface ListQuery<E> {
  /** `all` or one status. */
  readonly status: string
  readonly category?: string | undefined
  readonly search?: string | undefined
  /** Restricts the list to these records (already resolved from id filters). */
  readonly only?: readonly E[] | undefined
  /** Extra predicate for filters with no index; applied after the others (a scan of the ordering). */
  readonly where?: ((e: E) => boolean) | undefined
  /** A lower bound on a sort key. When it is the sort key itself, the bound is found by binary search. */
  readonly atLeast?: { readonly key: string; readonly value: number } | undefined
  readonly sort: string
  readonly order: 'asc' | 'desc'
  readonly offset: number
  readonly limit: number
}

export interface ListPage<E> {
  readonly items: readonly E[]
  readonly total: number
}

export type SortKeys<E> = Readonly<Record<string, (e: E) => number | undefined>>

const MAX_CACHED_ORDERINGS = 512
/** Orderings a rebuilt index takes over from its predecessor: the most recently used ones. */
const WARM_ORDERINGS = 8
const CHECKPOINT_EVERY = 512

export class ListIndex<E extends Listable> {
  readonly #items: readonly E[]
  readonly #keys: SortKeys<E>
  readonly #searchText: (e: E) => string
  /** Built on the first search: most catalog versions are never searched, and the index is the costly part. */
  #search: SearchIndex<E> | undefined
  /** status → category ('' for any) → sort key → order → the ordering. */
  readonly #orderings = new Map<string, Map<string, Map<string, { asc?: readonly E[]; desc?: readonly E[] }>>>()
  #orderingCount = 0
  /** The orderings built so far, oldest first (what a rebuilt index warms up: the last few). */
  #built: OrderingKey[] = []
  #byId: Map<string, E> | undefined

  constructor(items: readonly E[], keys: SortKeys<E>, searchText: (e: E) => string) {
    this.#items = items
    this.#keys = keys
    this.#searchText = searchText
  }

  get size(): number {
    return this.#items.length
  }

  /**
   * Builds, in slices, the most recently used orderings of `previous` and its search index if it had one. The
   * results are the ones `query` would build on demand (same filter, same order: a stable merge sort with the
   * same total order as `#sort`).
   */
  *warmSteps(previous: ListIndex<E> | undefined): Steps<void> {
    if (previous === undefined) return
    for (const { status, category, sort, order } of previous.#built.slice(-WARM_ORDERINGS)) {
      const keyOf = this.#keys[sort]
      if (keyOf === undefined || this.#orderings.get(status)?.get(category)?.get(sort)?.[order] !== undefined) continue
      const decorated: { e: E; k: number | undefined }[] = []
      for (let i = 0; i < this.#items.length; i++) {
        const e = this.#items[i] as E
        if ((status === 'all' || e.status === status) && (category === '' || e.category === category)) decorated.push({ e, k: keyOf(e) })
        if (i % CHECKPOINT_EVERY === CHECKPOINT_EVERY - 1) yield
      }
      const sorted = yield* sortSteps(decorated, compareDecorated(order === 'asc' ? 1 : -1))
      const ordered = new Array<E>(sorted.length)
      for (let i = 0; i < sorted.length; i++) ordered[i] = (sorted[i] as { e: E }).e
      this.#store({ status, category, sort, order }, ordered)
      yield
    }
    if (previous.#search !== undefined && this.#search === undefined) this.#search = yield* SearchIndex.build(this.#items, this.#searchText)
  }

  /** The record with this id (built on first use). */
  byId(id: string): E | undefined {
    this.#byId ??= new Map(this.#items.map((e) => [e.id, e]))
    return this.#byId.get(id)
  }

  query(q: ListQuery<E>): ListPage<E> {
    const selective = q.only !== undefined || (q.search !== undefined && q.search.trim().length > 0)
    if (!selective) {
      const ordered = this.#ordering(q.status, q.category, q.sort, q.order)
      const range = q.atLeast === undefined ? [0, ordered.length] : this.#boundedRange(ordered, q.atLeast, q.sort, q.order)
      if (range !== undefined && q.where === undefined) {
        const [start, end] = range
        return { items: ordered.slice(start + q.offset, Math.min(end, start + q.offset + q.limit)), total: end - start }
      }
      // Filters with no index: one pass over this ordering.
      const keyOf = q.atLeast === undefined ? undefined : this.#keys[q.atLeast.key]
      const min = q.atLeast?.value ?? -Infinity
      return page(ordered.filter((e) => (keyOf === undefined || (keyOf(e) ?? -Infinity) >= min) && (q.where === undefined || q.where(e))), q)
    }
    let matches: readonly E[] = q.only ?? this.#items
    if (q.search !== undefined && q.search.trim().length > 0) {
      this.#search ??= new SearchIndex(this.#items, this.#searchText)
      const found = this.#search.search(q.search)
      if (q.only === undefined) matches = found
      else {
        const allowed = new Set(found)
        matches = matches.filter((e) => allowed.has(e))
      }
    }
    const bound = q.atLeast
    const boundKey = bound === undefined ? undefined : this.#keys[bound.key]
    const filtered = matches.filter(
      (e) =>
        (q.status === 'all' || e.status === q.status) &&
        (q.category === undefined || e.category === q.category) &&
        (q.where === undefined || q.where(e)) &&
        (bound === undefined || (boundKey?.(e) ?? -Infinity) >= bound.value),
    )
    return page(this.#sort(filtered, q.sort, q.order), q)
  }

  /**
   * The index range [start, end) of an ordering whose `bound.key` is at least `bound.value`, when the ordering is
   * by that key: a prefix (desc) or the stretch before the unknowns (asc), found by binary search. Undefined when
   * the ordering is by another key (the caller filters instead).
   */
  #boundedRange(ordered: readonly E[], bound: { readonly key: string; readonly value: number }, sort: string, order: 'asc' | 'desc'): [number, number] | undefined {
    const keyOf = this.#keys[bound.key]
    if (keyOf === undefined) throw new Error(`unknown key ${bound.key}`)
    if (bound.key !== sort) return undefined
    // Unknown keys sit at the end in both orders.
    const known = firstIndex(ordered, (e) => keyOf(e) === undefined)
    if (order === 'desc') return [0, firstIndex(ordered, (e, i) => i >= known || (keyOf(e) as number) < bound.value)]
    return [firstIndex(ordered, (e, i) => i >= known || (keyOf(e) as number) >= bound.value), known]
  }

  #ordering(status: string, category: string | undefined, sort: string, order: 'asc' | 'desc'): readonly E[] {
    // Nested maps, not one composite key: a key string built per request would be hashed per request.
    const bySort = nested(nested(this.#orderings, status), category ?? '')
    let byOrder = bySort.get(sort)
    if (byOrder === undefined) bySort.set(sort, (byOrder = {}))
    let ordered = byOrder[order]
    if (ordered === undefined) {
      const subset = this.#items.filter((e) => (status === 'all' || e.status === status) && (category === undefined || e.category === category))
      ordered = this.#sort(subset, sort, order)
      this.#store({ status, category: category ?? '', sort, order }, ordered, byOrder)
    }
    return ordered
  }

  #store(key: OrderingKey, ordered: readonly E[], byOrder?: { asc?: readonly E[]; desc?: readonly E[] }): void {
    // Bounded: there are at most statuses × categories × sort keys × orders combinations, but stay safe.
    if (++this.#orderingCount > MAX_CACHED_ORDERINGS) {
      this.#orderings.clear()
      this.#orderingCount = 0
      this.#built = []
      return
    }
    const slot = byOrder ?? this.#slot(key.status, key.category, key.sort)
    slot[key.order] = ordered
    this.#built.push(key)
  }

  #slot(status: string, category: string, sort: string): { asc?: readonly E[]; desc?: readonly E[] } {
    const bySort = nested(nested(this.#orderings, status), category)
    let byOrder = bySort.get(sort)
    if (byOrder === undefined) bySort.set(sort, (byOrder = {}))
    return byOrder
  }

  #sort(items: readonly E[], sort: string, order: 'asc' | 'desc'): E[] {
    const keyOf = this.#keys[sort]
    if (keyOf === undefined) throw new Error(`unknown sort key ${sort}`)
    const decorated = items.map((e) => ({ e, k: keyOf(e) }))
    decorated.sort(compareDecorated(order === 'asc' ? 1 : -1))
    return decorated.map((d) => d.e)
  }
}

interface OrderingKey {
  readonly status: string
  /** '' for any category. */
  readonly category: string
  readonly sort: string
  readonly order: 'asc' | 'desc'
}

/** The key in direction `dir`, unknown keys last in both directions, ties by id ascending: a total order. */
function compareDecorated(dir: 1 | -1): (a: { e: Listable; k: number | undefined }, b: { e: Listable; k: number | undefined }) => number {
  return (a, b) => {
    if (a.k === undefined || b.k === undefined) {
      if (a.k !== b.k) return a.k === undefined ? 1 : -1
    } else if (a.k !== b.k) {
      return (a.k - b.k) * dir
    }
    return a.e.id < b.e.id ? -1 : a.e.id > b.e.id ? 1 : 0
  }
}

/** First index in [0, n] for which `pred` holds, given that it holds for a suffix of the array (binary search). */
function firstIndex<E>(items: readonly E[], pred: (e: E, i: number) => boolean): number {
  let lo = 0
  let hi = items.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (pred(items[mid] as E, mid)) hi = mid
    else lo = mid + 1
  }
  return lo
}

function page<E>(items: readonly E[], q: { offset: number; limit: number }): ListPage<E> {
  return { items: items.slice(q.offset, q.offset + q.limit), total: items.length }
}

function nested<V>(map: Map<string, Map<string, V>>, key: string): Map<string, V> {
  let inner = map.get(key)
  if (inner === undefined) map.set(key, (inner = new Map()))
  return inner
}
