import type { Steps } from './slices.js'

// Array operations as steps (src/core/slices.ts), for arrays too large to process in one block.

/** Items between two checkpoints of `mapSteps`: small enough for per-item work of ~0.1 ms (catalog mapping). */
const MAP_CHECKPOINT_EVERY = 16

/** `items.map(fn)` with a checkpoint every `every` items. */
export function* mapSteps<T, U>(items: readonly T[], fn: (item: T) => U, every = MAP_CHECKPOINT_EVERY): Steps<U[]> {
  const out: U[] = new Array<U>(items.length)
  for (let i = 0; i < items.length; i++) {
    out[i] = fn(items[i] as T)
    if (i % every === every - 1) yield
  }
  return out
}

/**
 * A stable sort as steps: runs of `run` items sorted by `Array.prototype.sort` (itself stable), then merged
 * bottom-up with a checkpoint every few thousand items. For a consistent comparator (a total order, or ties
 * that may keep input order) the result equals `[...items].sort(compare)`; sorting 100,000 items in one
 * `sort` call blocks the event loop for ~100 ms.
 */
export function* sortSteps<T>(items: readonly T[], compare: (a: T, b: T) => number, run = 512): Steps<T[]> {
  let src: T[] = items.slice()
  const n = src.length
  for (let start = 0; start < n; start += run) {
    const sorted = src.slice(start, start + run).sort(compare)
    for (let i = 0; i < sorted.length; i++) src[start + i] = sorted[i] as T
    yield
  }
  let dst: T[] = new Array<T>(n)
  let work = 0
  for (let width = run; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n)
      const hi = Math.min(lo + 2 * width, n)
      let i = lo
      let j = mid
      let k = lo
      while (i < mid && j < hi) {
        // Ties (and NaN, which `sort` reads as 0) take from the left: stable.
        dst[k++] = compare(src[i] as T, src[j] as T) > 0 ? (src[j++] as T) : (src[i++] as T)
        if (++work % 4096 === 0) yield
      }
      while (i < mid) dst[k++] = src[i++] as T
      while (j < hi) dst[k++] = src[j++] as T
    }
    const t = src
    src = dst
    dst = t
    yield
  }
  return src
}

/**
 * `values` sorted ascending as steps, into a new array: runs of `run` values sorted by `Float64Array.prototype.sort`
 * (numbers compared natively, no comparator called: several times faster than `sortSteps` with a numeric comparator),
 * then merged bottom-up with a checkpoint every few thousand values. NaN sorts last, as that sort puts it; -0 and 0
 * are equal, so give it no -0. The result equals `values.slice().sort()` (numbers have no identity to keep stable).
 */
export function* sortNumbersSteps(values: Float64Array, run = 8192): Steps<Float64Array> {
  const n = values.length
  let src = values.slice()
  for (let start = 0; start < n; start += run) {
    src.subarray(start, Math.min(start + run, n)).sort()
    yield
  }
  let dst = new Float64Array(n)
  let work = 0
  for (let width = run; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n)
      const hi = Math.min(lo + 2 * width, n)
      let i = lo
      let j = mid
      let k = lo
      while (i < mid && j < hi) {
        const a = src[i] as number
        const b = src[j] as number
        // NaN last: a NaN on the left waits for every number on the right.
        if (b < a || (a !== a && b === b)) ((dst[k++] = b), j++)
        else ((dst[k++] = a), i++)
        if (++work % 8192 === 0) yield
      }
      while (i < mid) dst[k++] = src[i++] as number
      while (j < hi) dst[k++] = src[j++] as number
    }
    const t = src
    src = dst
    dst = t
    yield
  }
  return src
}
