import type { Steps } from '../core/slices.js'
import { ChunkedList } from '../core/chunked-list.js'
import { compareIds, descendingSteps, mergedOrderingSteps, type Identified } from './ordering.js'
import { SearchIndex, type SearchSeed } from './search-index.js'

/**
 * A list's built indexes as a restart reads them back (list-file.ts): the records' ids in list order, each sort key's
 * ascending ordering as places in that order, and the search index's texts and postings. Building them from nothing
 * is most of a restart's read-model work at the venues' real size (a sort per key, every title read into trigrams);
 * checking them against the list is one pass per key.
 *
 * A seed is checked before anything of it is used: an ordering is taken only if it holds each record once and is in
 * the list's order (by the keys as this build computes them, so a record whose key changed fails the check and the
 * ordering is built anew; or, for a seed taken from the very listing the list is built from, by the keys it stored:
 * `seededOrderingSteps`); a search index only if every record's text is the one indexed. What this build's code
 * means by a key or a search text is the file's format version (LIST_FILE_VERSION).
 */
export interface ListSeed {
  /** The records' ids, in the order of the list the seed was taken from. */
  readonly ids: readonly string[]
  /** Sort key → the ascending ordering (places in `ids`) and each place's key there (NaN: unknown). */
  readonly orderings: ReadonlyMap<string, SeededOrdering>
  readonly search: SearchSeed | undefined
}

/** A seed offered to a list: `sameRecords` when it was taken from a list of the same catalog (seededOrderingSteps). */
export interface OfferedSeed {
  readonly seed: ListSeed
  readonly sameRecords: boolean
}

export interface SeededOrdering {
  readonly asc: Uint32Array
  readonly keys: Float64Array
}

const CHECKPOINT_EVERY = 512

/**
 * Past this share of a list's records not placed from the seed (new, gone from it, or changed), the list is built
 * anew instead: merging that many costs more than sorting (as ListIndex's MAX_MERGED_SHARE).
 */
const MAX_UNPLACED_SHARE = 0.25

/** Where the seed's records are in a list. */
export interface Placement {
  /** Seed place → the record's index in the list; -1 for a record the list no longer holds. */
  readonly at: Int32Array
  /** The list's records in the seed's places: its ids in the same order (a restart's lists from the same file). */
  readonly aligned: boolean
}

/**
 * Where each of the seed's records is in `items`: the identity when the ids are in the same order, else by id
 * lookup. Undefined when a list or the seed holds an id twice (nothing can be placed by id then).
 */
export function* placementSteps<E extends Identified>(
  items: readonly E[],
  seed: ListSeed,
): Steps<Placement | undefined> {
  const n = items.length
  const m = seed.ids.length
  const at = new Int32Array(m)
  let aligned = m === n
  for (let i = 0; aligned && i < n; i++) {
    if ((items[i] as E).id !== seed.ids[i]) aligned = false
    at[i] = i
    if (i % (CHECKPOINT_EVERY * 8) === 0) yield
  }
  if (aligned) return { at, aligned }
  const indexOf = new Map<string, number>()
  for (let i = 0; i < n; i++) {
    indexOf.set((items[i] as E).id, i)
    if (i % CHECKPOINT_EVERY === 0) yield
  }
  if (indexOf.size !== n) return undefined
  const placed = new Uint8Array(n)
  for (let p = 0; p < m; p++) {
    const i = indexOf.get(seed.ids[p] as string) ?? -1
    if (i >= 0 && placed[i]++ === 1) return undefined
    at[p] = i
    if (p % CHECKPOINT_EVERY === 0) yield
  }
  return { at, aligned }
}

/**
 * The list's ascending and descending orderings by `keyOf` from a seed's ascending one, or undefined when the seed's
 * ordering is not in order or too few of the list's records are placed from it. Each record the seed holds under the
 * same key keeps its place; the others (new, or with another key) are merged in by binary search
 * (mergedOrderingSteps), as a list rebuilt from its predecessor merges its new records. The descending ordering is
 * derived: the runs of equal known keys in reverse order, each still by id, the unknown keys last.
 *
 * `sameRecords`: the seed was taken from a list of these very records (its catalog is the one the list was built
 * from: the same listing, read back from its file). Then each record's key is the seed's (a key is a function of the
 * record; LIST_FILE_VERSION changes with the keys' meaning) and is not computed again.
 */
export function* seededOrderingSteps<E extends Identified>(
  items: readonly E[],
  seed: ListSeed,
  placement: Placement,
  seeded: SeededOrdering,
  keyOf: (e: E) => number | undefined,
  sameRecords: boolean,
): Steps<{ asc: ChunkedList<E>; desc: ChunkedList<E> } | undefined> {
  const n = items.length
  const m = seed.ids.length
  const { asc: order, keys } = seeded
  if (order.length !== m || keys.length !== m) return undefined
  const trusted = sameRecords && placement.aligned
  const kept = new Uint8Array(n)
  const asc: E[] = []
  const ascKeys = new Float64Array(m)
  let previous = -1
  for (let j = 0; j < m; j++) {
    if (j % CHECKPOINT_EVERY === CHECKPOINT_EVERY - 1) yield
    const place = order[j] as number
    if (place >= m) return undefined
    const stored = keys[j] as number
    // The seed's own order: by its keys, unknown last, ties by id.
    if (
      previous >= 0 &&
      !inOrder(keys[j - 1] as number, seed.ids[previous] as string, stored, seed.ids[place] as string)
    )
      return undefined
    previous = place
    const i = placement.at[place] as number
    if (i < 0) continue
    const e = items[i] as E
    if (!trusted && !sameKey(stored, keyOf(e))) continue
    if (kept[i] === 1) return undefined
    kept[i] = 1
    ascKeys[asc.length] = stored
    asc.push(e)
  }
  const desc = ChunkedList.from(yield* descendingSteps(asc, ascKeys.subarray(0, asc.length)))
  if (asc.length === n) return { asc: ChunkedList.from(asc), desc }
  const added: E[] = []
  for (let i = 0; i < n; i++) if (kept[i] === 0) added.push(items[i] as E)
  if (added.length > MAX_UNPLACED_SHARE * n) return undefined
  const changes = { removed: new Set<E>(), added }
  return {
    asc: yield* mergedOrderingSteps(ChunkedList.from(asc), changes, keyOf, 1),
    desc: yield* mergedOrderingSteps(desc, changes, keyOf, -1),
  }
}

/** A stored key (NaN: unknown) and a computed one are the same key (-0 is 0, as the sort has it). */
function sameKey(stored: number, k: number | undefined): boolean {
  return k === undefined ? stored !== stored : k + 0 === stored
}

/** (a, idA) strictly before (b, idB): known keys ascending, NaN (unknown) last, ties by id. */
function inOrder(a: number, idA: string, b: number, idB: string): boolean {
  const aKnown = a === a
  const bKnown = b === b
  if (aKnown !== bKnown) return aKnown
  if (aKnown && a !== b) return a < b
  return compareIds(idA, idB) < 0
}

/** What a list took from a seed: the orderings and search index that checked out, and how many parts were refused. */
export interface Adopted<E> {
  readonly orderings: ReadonlyMap<string, { asc: ChunkedList<E>; desc: ChunkedList<E> }>
  readonly search: SearchIndex<E> | undefined
  readonly taken: number
  readonly refused: number
}

/** Every ordering of `seed` by one of `keys`, and its search index, that check out against `items`. */
export function* adoptSeedSteps<E extends Identified>(
  items: readonly E[],
  keys: Readonly<Record<string, (e: E) => number | undefined>>,
  searchText: (e: E) => string,
  seed: ListSeed,
  sameRecords: boolean,
): Steps<Adopted<E>> {
  const orderings = new Map<string, { asc: ChunkedList<E>; desc: ChunkedList<E> }>()
  const parts = seed.orderings.size + (seed.search === undefined ? 0 : 1)
  const placement = yield* placementSteps(items, seed)
  if (placement === undefined) return { orderings, search: undefined, taken: 0, refused: parts }
  for (const [sort, seeded] of seed.orderings) {
    const keyOf = keys[sort]
    const ordering =
      keyOf === undefined ? undefined : yield* seededOrderingSteps(items, seed, placement, seeded, keyOf, sameRecords)
    if (ordering !== undefined) orderings.set(sort, ordering)
  }
  const search =
    seed.search === undefined
      ? undefined
      : yield* SearchIndex.fromSeed(items, placement, seed.search, searchText, MAX_UNPLACED_SHARE * items.length)
  const taken = orderings.size + (search === undefined ? 0 : 1)
  return { orderings, search, taken, refused: parts - taken }
}

/** A built list as a seed: `base`, every sort key's orderings; `search`, its search index. */
export function* listSeedSteps<E extends Identified>(
  items: readonly E[],
  keys: Readonly<Record<string, (e: E) => number | undefined>>,
  base: ReadonlyMap<string, { readonly asc: ChunkedList<E> }>,
  search: SearchIndex<E>,
  searchText: (e: E) => string,
): Steps<ListSeed> {
  const placeOf = new Map<E, number>()
  for (let i = 0; i < items.length; i++) {
    placeOf.set(items[i] as E, i)
    if (i % CHECKPOINT_EVERY === CHECKPOINT_EVERY - 1) yield
  }
  const orderings = new Map<string, SeededOrdering>()
  for (const [sort, { asc }] of base) {
    const keyOf = keys[sort]
    if (keyOf === undefined) continue
    const places = new Uint32Array(asc.length)
    const sortKeys = new Float64Array(asc.length)
    let j = 0
    for (const e of asc) {
      places[j] = placeOf.get(e) as number
      const k = keyOf(e)
      sortKeys[j] = k === undefined ? NaN : k + 0
      if (j++ % CHECKPOINT_EVERY === CHECKPOINT_EVERY - 1) yield
    }
    orderings.set(sort, { asc: places, keys: sortKeys })
  }
  return { ids: items.map((e) => e.id), orderings, search: yield* search.seedSteps(items, searchText) }
}
