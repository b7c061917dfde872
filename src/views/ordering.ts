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
 * in their places: exactly the ordering a sort of the new list gives, for one copy of `ordered` and a binary search
 * per record that came or went. A removed record is found where the order puts it (its key has not changed: records
 * are immutable); one `ordered` does not hold (a filtered ordering, a record of another status) is passed over.
 */
export function* mergedOrderingSteps<E extends Identified>(
  ordered: readonly E[],
  changes: ListChanges<E>,
  keyOf: (e: E) => number | undefined,
  dir: 1 | -1,
): Steps<E[]> {
  const compare = compareDecorated<E>(dir)
  /** The first place in `ordered` whose record does not go before `x`. */
  const placeOf = (x: { e: E; k: number | undefined }): number => {
    let lo = 0
    let hi = ordered.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      const e = ordered[mid] as E
      if (compare({ e, k: keyOf(e) }, x) >= 0) hi = mid
      else lo = mid + 1
    }
    return lo
  }
  const gone: number[] = []
  for (const e of changes.removed) {
    const at = placeOf({ e, k: keyOf(e) })
    if (ordered[at] === e) gone.push(at)
  }
  gone.sort((a, b) => a - b)
  yield
  const added = changes.added.map((e) => ({ e, k: keyOf(e) })).sort(compare)
  // Of its final length: an ordering is kept as long as its list, and one grown by `push` would keep up to half its
  // length again in spare room, besides the copies growing it.
  const merged = new Array<E>(ordered.length - gone.length + added.length)
  let n = 0
  let from = 0
  let g = 0
  let copied = 0
  for (let a = 0; a <= added.length; a++) {
    const x = added[a]
    const to = x === undefined ? ordered.length : placeOf(x)
    for (let i = from; i < to; i++) {
      if (gone[g] === i) g++
      else merged[n++] = ordered[i] as E
    }
    copied += to - from
    from = to
    if (x !== undefined) merged[n++] = x.e
    if (copied >= CHECKPOINT_EVERY * 64 || a % CHECKPOINT_EVERY === CHECKPOINT_EVERY - 1) (yield, (copied = 0))
  }
  return merged
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
