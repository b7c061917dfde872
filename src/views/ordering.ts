import type { ChunkedList } from '../core/chunked-list.js'
import type { Steps } from '../core/slices.js'

/**
 * The total order of a list's records by one sort key (list-index.ts), and how a rebuilt list derives its
 * orderings from its predecessor's when few records came or went: each previous ordering without the records that
 * left, with the new ones (sorted among themselves) put in by binary search. Records are immutable, so a record
 * of both lists (the same object) sits in the same order relative to the others in both.
 */
export interface Identified {
  readonly id: string
}

/** Between two checkpoints of the merge. */
const CHECKPOINT_EVERY = 512

/** The key in direction `dir`, unknown keys last in both directions, ties by id ascending: a total order. */
export function compareDecorated<E extends Identified>(
  dir: 1 | -1,
): (a: { e: E; k: number | undefined }, b: { e: E; k: number | undefined }) => number {
  return (a, b) => {
    if (a.k === undefined || b.k === undefined) {
      if (a.k !== b.k) return a.k === undefined ? 1 : -1
    } else if (a.k !== b.k) {
      return (a.k - b.k) * dir
    }
    return compareIds(a.e.id, b.e.id)
  }
}

export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** What changed between two lists: the records of the first the second no longer holds, and its new ones. */
export interface ListChanges<E> {
  readonly removed: ReadonlySet<E>
  readonly added: readonly E[]
}

/**
 * The changes from `before` to `after` (records compared as objects; a list holds each record once), or undefined
 * when more than `maxShare` of `after` came or went: then sorting anew costs less than merging.
 */
export function* listChangesSteps<E>(
  before: readonly E[],
  after: readonly E[],
  maxShare: number,
): Steps<ListChanges<E> | undefined> {
  // One set: `before`'s records; those `after` does not hold are added, and what is left once `after`'s are taken
  // out is what was removed.
  const removed = new Set<E>()
  for (let i = 0; i < before.length; i++) {
    removed.add(before[i] as E)
    if (i % CHECKPOINT_EVERY === CHECKPOINT_EVERY - 1) yield
  }
  const added: E[] = []
  for (let i = 0; i < after.length; i++) {
    const e = after[i] as E
    if (!removed.delete(e)) added.push(e)
    if (i % CHECKPOINT_EVERY === CHECKPOINT_EVERY - 1) yield
  }
  return added.length + removed.size > maxShare * after.length ? undefined : { removed, added }
}

/**
 * `ordered` (a previous ordering by `keyOf` in direction `dir`) without `changes.removed` and with `changes.added`
 * in their places: exactly the ordering a sort of the new list gives, for a binary search per record that came or
 * went and a copy of the chunks they touch (ChunkedList.edited: the rest is shared with `ordered`, which stays as it
 * was). A removed record is found where the order puts it (its key has not changed: records are immutable); one
 * `ordered` does not hold (a filtered ordering, a record of another status) is passed over.
 */
export function* mergedOrderingSteps<E extends Identified>(
  ordered: ChunkedList<E>,
  changes: ListChanges<E>,
  keyOf: (e: E) => number | undefined,
  dir: 1 | -1,
): Steps<ChunkedList<E>> {
  const compare = compareDecorated<E>(dir)
  /** The first place in `ordered` whose record does not go before `x`. */
  const placeOf = (x: { e: E; k: number | undefined }): number =>
    ordered.firstWhere((e) => compare({ e, k: keyOf(e) }, x) >= 0)
  const gone: number[] = []
  let n = 0
  for (const e of changes.removed) {
    const at = placeOf({ e, k: keyOf(e) })
    if (ordered.at(at) === e) gone.push(at)
    if (++n % CHECKPOINT_EVERY === 0) yield
  }
  // Sorted among themselves, so records put at one place go in their order.
  const added = changes.added.map((e) => ({ e, k: keyOf(e) })).sort(compare)
  const inserted: (readonly [number, E])[] = []
  for (const x of added) {
    inserted.push([placeOf(x), x.e])
    if (++n % CHECKPOINT_EVERY === 0) yield
  }
  return ordered.edited(gone, inserted)
}

/**
 * The descending ordering from the ascending one (`keys[j]`: the key of `asc[j]`, NaN for unknown): the runs of equal
 * known keys in reverse order, each still by id ascending, the unknown keys last as in `asc`.
 */
export function* descendingSteps<E>(asc: readonly E[], keys: Float64Array): Steps<E[]> {
  const n = asc.length
  let known = n
  while (known > 0 && Number.isNaN(keys[known - 1] as number)) known--
  const desc = new Array<E>(n)
  let d = 0
  for (let end = known; end > 0;) {
    const key = keys[end - 1] as number
    let start = end - 1
    while (start > 0 && keys[start - 1] === key) start--
    for (let i = start; i < end; i++) desc[d++] = asc[i] as E
    end = start
    if (d % CHECKPOINT_EVERY === 0) yield
  }
  for (let i = known; i < n; i++) desc[d++] = asc[i] as E
  return desc
}
