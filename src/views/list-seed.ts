import type { Steps } from '../core/slices.js'
import { compareIds, descendingSteps, type Identified } from './ordering.js'
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
 * Each seed place's index in `items` (`undefined` when the seed does not hold exactly the list's records): the
 * identity when the ids are in the same order (a restart builds its lists from the same catalog file in the same
 * order), else by an id lookup.
 */
export function* seedPlacesSteps<E extends Identified>(
  items: readonly E[],
  seed: ListSeed,
): Steps<Uint32Array | undefined> {
  const n = items.length
  if (seed.ids.length !== n) return undefined
  const places = new Uint32Array(n)
  let aligned = true
  for (let i = 0; i < n; i++) {
    if ((items[i] as E).id !== seed.ids[i]) {
      aligned = false
      break
    }
    places[i] = i
    if (i % (CHECKPOINT_EVERY * 8) === 0) yield
  }
  if (aligned) return places
  const indexOf = new Map<string, number>()
  for (let i = 0; i < n; i++) {
    indexOf.set((items[i] as E).id, i)
    if (i % CHECKPOINT_EVERY === 0) yield
  }
  // A list with an id twice cannot be placed by id.
  if (indexOf.size !== n) return undefined
  for (let p = 0; p < n; p++) {
    const i = indexOf.get(seed.ids[p] as string)
    if (i === undefined) return undefined
    places[p] = i
    if (p % CHECKPOINT_EVERY === 0) yield
  }
  return places
}

/**
 * The list's ascending and descending orderings by `keyOf` from a seed's ascending one, if it holds each record
 * once and is in the list's total order (the key ascending with unknown keys last, ties by id ascending); else
 * undefined. The descending ordering is derived: the runs of equal known keys in reverse order, each still by id,
 * the unknown keys last.
 *
 * `sameRecords`: the seed was taken from a list of these very records (its catalog is the one the list was built
 * from: the same listing, read back from its file). Then each record's key is the seed's (a key is a function of the
 * record; LIST_FILE_VERSION changes with the keys' meaning), and only the keys' order and the permutation are checked,
 * not each key computed again.
 */
export function* seededOrderingSteps<E extends Identified>(
  items: readonly E[],
  places: Uint32Array,
  seeded: SeededOrdering,
  keyOf: (e: E) => number | undefined,
  sameRecords: boolean,
): Steps<{ asc: E[]; desc: E[] } | undefined> {
  const n = items.length
  if (seeded.asc.length !== n || seeded.keys.length !== n) return undefined
  if (sameRecords) return yield* trustedOrderingSteps(items, places, seeded)
  const order = seeded.asc
  const seen = new Uint8Array(n)
  const asc = new Array<E>(n)
  const keys = new Float64Array(n)
  for (let j = 0; j < n; j++) {
    const place = order[j] as number
    if (place >= n) return undefined
    const i = places[place] as number
    if (seen[i] === 1) return undefined
    seen[i] = 1
    const e = items[i] as E
    const k = keyOf(e)
    // + 0: -0 is 0, as the sort has it.
    const key = k === undefined ? NaN : k + 0
    if (j > 0 && !inOrder(keys[j - 1] as number, (asc[j - 1] as E).id, key, e.id)) return undefined
    asc[j] = e
    keys[j] = key
    if (j % CHECKPOINT_EVERY === CHECKPOINT_EVERY - 1) yield
  }
  return { asc, desc: yield* descendingSteps(asc, keys) }
}

/** The orderings of a seed over the same records: the permutation checked, and the stored keys' order. */
function* trustedOrderingSteps<E extends Identified>(
  items: readonly E[],
  places: Uint32Array,
  { asc: order, keys }: SeededOrdering,
): Steps<{ asc: E[]; desc: E[] } | undefined> {
  const n = items.length
  const seen = new Uint8Array(n)
  const asc = new Array<E>(n)
  let unknown = false
  for (let j = 0; j < n; j++) {
    const place = order[j] as number
    if (place >= n) return undefined
    const i = places[place] as number
    if (seen[i] === 1) return undefined
    seen[i] = 1
    asc[j] = items[i] as E
    const key = keys[j] as number
    if (key !== key) unknown = true
    else if (unknown || (j > 0 && key < (keys[j - 1] as number))) return undefined
    if (j % (CHECKPOINT_EVERY * 4) === 0) yield
  }
  return { asc, desc: yield* descendingSteps(asc, keys) }
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
  readonly orderings: ReadonlyMap<string, { asc: E[]; desc: E[] }>
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
  const orderings = new Map<string, { asc: E[]; desc: E[] }>()
  const parts = seed.orderings.size + (seed.search === undefined ? 0 : 1)
  const places = yield* seedPlacesSteps(items, seed)
  if (places === undefined) return { orderings, search: undefined, taken: 0, refused: parts }
  for (const [sort, seeded] of seed.orderings) {
    const keyOf = keys[sort]
    const ordering =
      keyOf === undefined ? undefined : yield* seededOrderingSteps(items, places, seeded, keyOf, sameRecords)
    if (ordering !== undefined) orderings.set(sort, ordering)
  }
  const search =
    seed.search === undefined ? undefined : yield* SearchIndex.fromSeed(items, places, seed.search, searchText)
  const taken = orderings.size + (search === undefined ? 0 : 1)
  return { orderings, search, taken, refused: parts - taken }
}

/** A built list as a seed: `base`, every sort key's orderings; `search`, its search index. */
export function* listSeedSteps<E extends Identified>(
  items: readonly E[],
  keys: Readonly<Record<string, (e: E) => number | undefined>>,
  base: ReadonlyMap<string, { readonly asc: readonly E[] }>,
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
    for (let j = 0; j < asc.length; j++) {
      const e = asc[j] as E
      places[j] = placeOf.get(e) as number
      const k = keyOf(e)
      sortKeys[j] = k === undefined ? NaN : k + 0
      if (j % CHECKPOINT_EVERY === CHECKPOINT_EVERY - 1) yield
    }
    orderings.set(sort, { asc: places, keys: sortKeys })
  }
  return { ids: items.map((e) => e.id), orderings, search: yield* search.seedSteps(items, searchText) }
}
