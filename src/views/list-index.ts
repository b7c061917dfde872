import { sortNumbersSteps, sortSteps } from '../core/array-steps.js'
import { ChunkedList } from '../core/chunked-list.js'
import { PatchedList } from '../core/patched-list.js'
import { runToEnd, type Steps } from '../core/slices.js'
import {
  compareDecorated,
  compareIds,
  descendingSteps,
  listChangesSteps,
  mergedOrderingSteps,
  type ListChanges,
} from './ordering.js'
import { adoptSeedSteps, listSeedSteps, type ListSeed, type OfferedSeed } from './list-seed.js'
import { SearchIndex } from './search-index.js'

/**
 * Filtered, sorted, paged reads over one immutable list of records, without work proportional to the whole
 * list per request:
 * - the common query (status, category, sort, order) walks a sorted array for that combination, so a page costs
 *   O(offset + limit) and `total` is its length. The whole list's ordering by every sort key, in both orders, is
 *   built in the background when the list is (`prepareSteps`); a status or category ordering is that ordering
 *   filtered (one pass, no sort), made on its first request and kept;
 * - selective filters (ids, search) start from their matches (an id lookup or the trigram index, also built in
 *   the background) and sort only those.
 * Sort order: the key in the requested order, unknown keys last in both orders, ties by id ascending, so pages
 * are stable.
 *
 * So no first request after a catalog change sorts or indexes the whole list: at 100,000 records a sort is
 * ~100 ms and a trigram index ~0.5 s. `warmSteps` also makes the filtered orderings its predecessor was asked for.
 * Memory per list: two arrays of references per sort key, the id map and the trigram postings (Int32Arrays).
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
/**
 * Past this share of records come or gone, a rebuilt index sorts anew instead of merging into its predecessor's
 * orderings (a merge costs a binary search per new record besides the copy).
 */
const MAX_MERGED_SHARE = 0.25
/**
 * Up to this share of records taken out or added since a search index's postings were packed, a rebuilt list keeps
 * them and indexes the added records apart (SearchIndex.patched); past it the postings are packed anew. A search
 * costs a set lookup per packed match besides, and a search of the added records.
 */
const MAX_SEARCH_DELTA_SHARE = 1 / 16

export class ListIndex<E extends Listable> {
  /** The records (read whole only by a whole build, a seed, a rebuilt search index: patched-list.ts). */
  readonly #list: PatchedList<E>
  readonly #keys: SortKeys<E>
  readonly #searchText: (e: E) => string
  /** Built by `prepareSteps` (or on the first search of a list that was not prepared: tests, small lists). */
  #search: SearchIndex<E> | undefined
  /** The whole list by each sort key, both orders: built by `prepareSteps`, or on first use; never evicted. */
  readonly #base = new Map<string, { asc: ChunkedList<E>; desc: ChunkedList<E> }>()
  /**
   * status → category ('' for any) → sort key → order → the ordering (the base ordering filtered). Bounded by
   * MAX_CACHED_ORDERINGS: statuses × categories × sort keys × orders is small, but a category is client input.
   */
  readonly #orderings = new Map<string, Map<string, Map<string, { asc?: ChunkedList<E>; desc?: ChunkedList<E> }>>>()
  #orderingCount = 0
  /** The orderings built so far, oldest first (what a rebuilt index warms up: the last few). */
  #built: OrderingKey[] = []
  #byId: ReadonlyMap<string, E> | undefined
  /** Of a seed given to `prepareSteps`: its orderings and search index taken, and those refused (built anew). */
  seeded: { readonly taken: number; readonly refused: number } | undefined
  /** The records ranked by id, while some sort key has no base ordering yet (`#baseSteps`). */
  #ranks: IdRanks | undefined

  /**
   * `byId`: the records by id, when the caller already holds that map (a venue view's id lookups): the index reads it
   * instead of building a copy. It must map each record's id to the last record of `items` with that id.
   */
  constructor(
    items: readonly E[] | PatchedList<E>,
    keys: SortKeys<E>,
    searchText: (e: E) => string,
    byId?: ReadonlyMap<string, E>,
  ) {
    this.#list = items instanceof PatchedList ? items : PatchedList.of(items)
    this.#keys = keys
    this.#searchText = searchText
    this.#byId = byId
  }

  get size(): number {
    return this.#list.length
  }
  get #items(): readonly E[] {
    return this.#list.array()
  }

  /**
   * Builds, in slices, everything a first request would otherwise build: the base ordering of every sort key (one
   * sort each, the descending order derived from the ascending one), the id map and the search index.
   *
   * `previous` is the index this one replaces (the same list's, so the same search text), over the same keys. Records are immutable, so a record of both lists
   * (the same object: an unchanged event's entries are reused, venue-view.ts) sits in the same order relative to the
   * others in both: when few records came or went, each base ordering is the previous one without the records that
   * left, with the new ones (sorted among themselves) merged in by binary search. That is O(n) copying instead of an
   * O(n log n) sort per key, and exactly the ordering a sort would give (test/views/list-index-reuse.property.test.ts).
   * The search index likewise reads only the new records' texts (SearchIndex.rebuild), or, when few records changed
   * since its postings were packed, keeps them and indexes the new records apart (SearchIndex.patched).
   *
   * `changes`: what came and went since `previous`, when the caller knows (a venue view patched from its
   * predecessor): then nothing here is proportional to the list but copying the orderings.
   *
   * `seed`: a restart's list file (list-seed.ts): what of it checks out is taken first, and only the rest is made.
   */
  *prepareSteps(previous?: ListIndex<E>, known?: ListChanges<E>, seed?: OfferedSeed): Steps<void> {
    if (seed !== undefined) yield* this.#adoptSteps(seed)
    if (this.#byId === undefined) {
      const n = this.#items.length
      const ids = new Map<string, E>()
      for (let i = 0; i < n; i++) {
        const e = this.#items[i] as E
        ids.set(e.id, e)
        if (i % CHECKPOINT_EVERY === CHECKPOINT_EVERY - 1) yield
      }
      this.#byId = ids
    }
    const changes =
      previous === undefined || previous.#keys !== this.#keys
        ? undefined
        : (known ?? (yield* listChangesSteps(previous.#items, this.#items, MAX_MERGED_SHARE)))
    for (const sort of Object.keys(this.#keys)) {
      if (this.#base.has(sort)) continue
      const before = previous === undefined ? undefined : previous.#base.get(sort)
      if (changes !== undefined && before !== undefined) {
        const keyOf = this.#keys[sort] as (e: E) => number | undefined
        this.#base.set(sort, {
          asc: yield* mergedOrderingSteps(before.asc, changes, keyOf, 1),
          desc: yield* mergedOrderingSteps(before.desc, changes, keyOf, -1),
        })
        continue
      }
      this.#base.set(sort, yield* this.#baseSteps(sort))
    }
    const search = previous === undefined ? undefined : previous.#search
    if (this.#search !== undefined) return
    if (changes === undefined || search === undefined)
      this.#search = yield* SearchIndex.build(this.#items, this.#searchText)
    else if (search.deltaSize + changes.removed.size + changes.added.length <= MAX_SEARCH_DELTA_SHARE * this.size)
      this.#search = yield* SearchIndex.patched(search, changes, this.#searchText)
    else this.#search = yield* SearchIndex.rebuild(this.#items, this.#searchText, search)
  }

  /** Takes from `seed` every ordering and the search index that check out against this list (list-seed.ts). */
  *#adoptSteps({ seed, sameRecords }: OfferedSeed): Steps<void> {
    const adopted = yield* adoptSeedSteps(this.#items, this.#keys, this.#searchText, seed, sameRecords)
    for (const [sort, ordering] of adopted.orderings) this.#base.set(sort, ordering)
    this.#search = adopted.search
    this.seeded = { taken: adopted.taken, refused: adopted.refused }
  }

  /** The list's indexes as a seed for a restart (list-file.ts): undefined until `prepareSteps` has built them all. */
  *seedSteps(): Steps<ListSeed | undefined> {
    const search = this.#search
    if (search === undefined || Object.keys(this.#keys).some((sort) => !this.#base.has(sort))) return undefined
    return yield* listSeedSteps(this.#items, this.#keys, this.#base, search, this.#searchText)
  }

  /** Each record's rank by id (`rank[i]`: record i's place in id order), and the records in id order (`byRank`). */
  *#idRanksSteps(): Steps<IdRanks> {
    const n = this.#items.length
    const ids = this.#items.map((e) => e.id)
    const byRank = yield* sortSteps(
      Array.from({ length: n }, (_, i) => i),
      (a, b) => compareIds(ids[a] as string, ids[b] as string),
    )
    const rank = new Uint32Array(n)
    for (let r = 0; r < n; r++) rank[byRank[r] as number] = r
    return { rank, byRank: Uint32Array.from(byRank) }
  }

  /**
   * The whole list by `sort`, ascending and descending (unknown keys last in both, ties by id ascending). Each record
   * becomes one number, its key's place among the list's distinct known keys (unknown: past them all) times n plus its
   * rank by id, and those numbers are sorted natively (sortNumbersSteps): no comparator is called per comparison.
   */
  *#baseSteps(sort: string): Steps<{ asc: ChunkedList<E>; desc: ChunkedList<E> }> {
    const keyOf = this.#keys[sort]
    if (keyOf === undefined) throw new Error(`unknown sort key ${sort}`)
    const n = this.#items.length
    const keys = new Float64Array(n)
    for (let i = 0; i < n; i++) {
      const k = keyOf(this.#items[i] as E)
      // + 0: a -0 key is the 0 key (sortNumbersSteps needs no -0).
      keys[i] = k === undefined ? NaN : k + 0
      if (i % CHECKPOINT_EVERY === CHECKPOINT_EVERY - 1) yield
    }
    // Ties are broken by id: the ids are ranked once per list, so each key's sort compares numbers only; the ranks
    // are let go once every key has its base ordering.
    const { rank, byRank } = (this.#ranks ??= yield* this.#idRanksSteps())
    if (this.#base.size + 1 >= Object.keys(this.#keys).length) this.#ranks = undefined
    // The distinct known keys, ascending (the sort puts NaN last).
    const sortedKeys = yield* sortNumbersSteps(keys)
    let distinct = 0
    for (let i = 0; i < n; i++) {
      const k = sortedKeys[i] as number
      if (k !== k) break
      if (distinct === 0 || k !== sortedKeys[distinct - 1]) sortedKeys[distinct++] = k
    }
    const places = new Float64Array(n)
    for (let i = 0; i < n; i++) {
      const k = keys[i] as number
      places[i] = (k !== k ? distinct : lowerBound(sortedKeys, distinct, k)) * n + (rank[i] as number)
      if (i % CHECKPOINT_EVERY === CHECKPOINT_EVERY - 1) yield
    }
    const sorted = yield* sortNumbersSteps(places)
    const items = this.#items
    const asc = new Array<E>(n)
    const ascKeys = new Float64Array(n)
    for (let j = 0; j < n; j++) {
      const i = byRank[(sorted[j] as number) % n] as number
      asc[j] = items[i] as E
      ascKeys[j] = keys[i] as number
      if (j % CHECKPOINT_EVERY === CHECKPOINT_EVERY - 1) yield
    }
    const desc = yield* descendingSteps(asc, ascKeys)
    return { asc: ChunkedList.from(asc), desc: ChunkedList.from(desc) }
  }

  /**
   * Builds, in slices, the most recently used orderings of `previous` and its search index if it had one. The
   * results are the ones `query` would build on demand (same filter, same order: a stable merge sort with the
   * same total order as `#sort`).
   */
  *warmSteps(previous: ListIndex<E> | undefined, known?: ListChanges<E>): Steps<void> {
    if (previous === undefined) return
    for (const { status, category, sort, order } of previous.#built.slice(-WARM_ORDERINGS)) {
      if (
        this.#keys[sort] === undefined ||
        this.#orderings.get(status)?.get(category)?.get(sort)?.[order] !== undefined
      )
        continue
      const selected = (e: E) =>
        (status === 'all' || e.status === status) && (category === '' || e.category === category)
      const before = previous.#orderings.get(status)?.get(category)?.get(sort)?.[order]
      if (known !== undefined && before !== undefined && previous.#keys === this.#keys) {
        // The previous filtered ordering with the changes that pass its filter: no pass over the whole list.
        const changes = { removed: known.removed, added: known.added.filter(selected) }
        const keyOf = this.#keys[sort] as (e: E) => number | undefined
        this.#store(
          { status, category, sort, order },
          yield* mergedOrderingSteps(before, changes, keyOf, order === 'asc' ? 1 : -1),
        )
        continue
      }
      let base = this.#base.get(sort)
      if (base === undefined) this.#base.set(sort, (base = yield* this.#baseSteps(sort)))
      const ordered: E[] = []
      let i = 0
      for (const e of base[order]) {
        if (selected(e)) ordered.push(e)
        if (i++ % CHECKPOINT_EVERY === CHECKPOINT_EVERY - 1) yield
      }
      this.#store({ status, category, sort, order }, ChunkedList.from(ordered))
      yield
    }
    if (previous.#search !== undefined && this.#search === undefined)
      this.#search = yield* SearchIndex.build(this.#items, this.#searchText)
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
      const range =
        q.atLeast === undefined ? [0, ordered.length] : this.#boundedRange(ordered, q.atLeast, q.sort, q.order)
      if (range !== undefined && q.where === undefined) {
        const [start, end] = range
        return { items: ordered.slice(start + q.offset, Math.min(end, start + q.offset + q.limit)), total: end - start }
      }
      // Filters with no index: one pass over this ordering.
      const keyOf = q.atLeast === undefined ? undefined : this.#keys[q.atLeast.key]
      const min = q.atLeast?.value ?? -Infinity
      return page(
        ordered.filter(
          (e) => (keyOf === undefined || (keyOf(e) ?? -Infinity) >= min) && (q.where === undefined || q.where(e)),
        ),
        q,
      )
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
  #boundedRange(
    ordered: ChunkedList<E>,
    bound: { readonly key: string; readonly value: number },
    sort: string,
    order: 'asc' | 'desc',
  ): [number, number] | undefined {
    const keyOf = this.#keys[bound.key]
    if (keyOf === undefined) throw new Error(`unknown key ${bound.key}`)
    if (bound.key !== sort) return undefined
    // Unknown keys sit at the end in both orders.
    const known = ordered.firstWhere((e) => keyOf(e) === undefined)
    if (order === 'desc') return [0, ordered.firstWhere((e, i) => i >= known || (keyOf(e) as number) < bound.value)]
    return [ordered.firstWhere((e, i) => i >= known || (keyOf(e) as number) >= bound.value), known]
  }

  #ordering(status: string, category: string | undefined, sort: string, order: 'asc' | 'desc'): ChunkedList<E> {
    // Nested maps, not one composite key: a key string built per request would be hashed per request.
    const bySort = nested(nested(this.#orderings, status), category ?? '')
    let byOrder = bySort.get(sort)
    if (byOrder === undefined) bySort.set(sort, (byOrder = {}))
    let ordered = byOrder[order]
    if (ordered === undefined) {
      let base = this.#base.get(sort)
      if (base === undefined) this.#base.set(sort, (base = runToEnd(this.#baseSteps(sort))))
      const all = base[order]
      ordered =
        status === 'all' && category === undefined
          ? all
          : ChunkedList.from(
              all.filter(
                (e) => (status === 'all' || e.status === status) && (category === undefined || e.category === category),
              ),
            )
      this.#store({ status, category: category ?? '', sort, order }, ordered, byOrder)
    }
    return ordered
  }

  #store(key: OrderingKey, ordered: ChunkedList<E>, byOrder?: { asc?: ChunkedList<E>; desc?: ChunkedList<E> }): void {
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

  #slot(status: string, category: string, sort: string): { asc?: ChunkedList<E>; desc?: ChunkedList<E> } {
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

/** A list's records by id: `rank[i]` is record i's place in id order, `byRank[r]` the record at place r. */
interface IdRanks {
  readonly rank: Uint32Array
  readonly byRank: Uint32Array
}

/** The first index below `length` of ascending `sorted` whose value is not below `value`. */
function lowerBound(sorted: Float64Array, length: number, value: number): number {
  let lo = 0
  let hi = length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((sorted[mid] as number) < value) lo = mid + 1
    else hi = mid
  }
  return lo
}

interface OrderingKey {
  readonly status: string
  /** '' for any category. */
  readonly category: string
  readonly sort: string
  readonly order: 'asc' | 'desc'
}

function page<E>(items: readonly E[], q: { offset: number; limit: number }): ListPage<E> {
  return { items: items.slice(q.offset, q.offset + q.limit), total: items.length }
}

function nested<V>(map: Map<string, Map<string, V>>, key: string): Map<string, V> {
  let inner = map.get(key)
  if (inner === undefined) map.set(key, (inner = new Map()))
  return inner
}
