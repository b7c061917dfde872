import type { Steps } from '../core/slices.js'

/**
 * The total order of a list's records by one sort key (list-index.ts), and how a rebuilt list derives its
 * orderings from its predecessor's when few records came or went: each previous ordering without the records that
 * left, with the new ones (sorted among themselves) merged in by binary search. Records are immutable, so a record
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
 * in their places: exactly the ordering a sort of the new list gives, for O(n) copying and a binary search per new
 * record.
 */
export function* mergedOrderingSteps<E extends Identified>(
  ordered: readonly E[],
  changes: ListChanges<E>,
  keyOf: (e: E) => number | undefined,
  dir: 1 | -1,
): Steps<E[]> {
  const compare = compareDecorated<E>(dir)
  const added = changes.added.map((e) => ({ e, k: keyOf(e) })).sort(compare)
  // Of its final length (the removed records are all in `ordered`): an ordering is kept as long as its list, and one
  // grown by `push` would keep up to half its length again in spare room, besides the copies growing it.
  const merged = new Array<E>(Math.max(0, ordered.length - changes.removed.size) + added.length)
  let n = 0
  let from = 0
  for (const x of added) {
    // The first previous record that goes after x (records are distinct by id, so never equal).
    let lo = from
    let hi = ordered.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      const e = ordered[mid] as E
      if (compare({ e, k: keyOf(e) }, x) > 0) hi = mid
      else lo = mid + 1
    }
    for (let i = from; i < lo; i++) if (!changes.removed.has(ordered[i] as E)) merged[n++] = ordered[i] as E
    merged[n++] = x.e
    from = lo
    if (n % CHECKPOINT_EVERY === 0) yield
  }
  for (let i = from; i < ordered.length; i++) {
    if (!changes.removed.has(ordered[i] as E)) merged[n++] = ordered[i] as E
    if (i % CHECKPOINT_EVERY === CHECKPOINT_EVERY - 1) yield
  }
  // Only if `removed` held records `ordered` did not (never from listChangesSteps): no holes left.
  merged.length = n
  return merged
}
