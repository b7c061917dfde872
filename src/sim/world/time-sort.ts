/**
 * Sorting a world's history rows by time. A large world prints millions of trades (up to 30 per market), and a
 * comparator sort of that many objects costs seconds at startup; an LSD radix sort on 16-bit digits of the time
 * costs a few sequential passes over typed arrays. Like the stable comparator sort it replaces, rows with equal
 * times keep their order.
 */
const DIGIT_BITS = 16
const DIGIT_MASK = 0xffff
const TWO_32 = 2 ** 32

/** Sorts `rows` in place by integer `ts`, ascending and stable; returns `rows`. */
export function sortByTime<T extends { readonly ts: number }>(rows: T[]): T[] {
  const n = rows.length
  if (n < 2) return rows
  let min = Number.POSITIVE_INFINITY
  let max = Number.NEGATIVE_INFINITY
  for (let i = 0; i < n; i++) {
    const ts = (rows[i] as T).ts
    if (!Number.isSafeInteger(ts)) return rows.sort((a, b) => a.ts - b.ts)
    if (ts < min) min = ts
    if (ts > max) max = ts
  }
  // The time since the earliest row, as two 32-bit halves carried along with each row's index.
  let lo = new Uint32Array(n)
  let hi = new Uint32Array(n)
  let order = new Uint32Array(n)
  for (let i = 0; i < n; i++) {
    const key = (rows[i] as T).ts - min
    lo[i] = key % TWO_32
    hi[i] = Math.floor(key / TWO_32)
    order[i] = i
  }
  let lo2 = new Uint32Array(n)
  let hi2 = new Uint32Array(n)
  let order2 = new Uint32Array(n)
  const counts = new Uint32Array((1 << DIGIT_BITS) + 1)
  const span = max - min
  for (let pass = 0; pass < 4 && 2 ** (pass * DIGIT_BITS) <= span; pass++) {
    const half = pass < 2 ? lo : hi
    const shift = (pass % 2) * DIGIT_BITS
    counts.fill(0)
    for (let i = 0; i < n; i++) (counts[(((half[i] as number) >>> shift) & DIGIT_MASK) + 1] as number)++
    for (let d = 0; d < 1 << DIGIT_BITS; d++) counts[d + 1] = (counts[d + 1] as number) + (counts[d] as number)
    for (let i = 0; i < n; i++) {
      const d = ((half[i] as number) >>> shift) & DIGIT_MASK
      const at = counts[d] as number
      counts[d] = at + 1
      lo2[at] = lo[i] as number
      hi2[at] = hi[i] as number
      order2[at] = order[i] as number
    }
    ;[lo, lo2] = [lo2, lo]
    ;[hi, hi2] = [hi2, hi]
    ;[order, order2] = [order2, order]
  }
  const sorted = new Array<T>(n)
  for (let i = 0; i < n; i++) sorted[i] = rows[order[i] as number] as T
  for (let i = 0; i < n; i++) rows[i] = sorted[i] as T
  return rows
}

/** Number of rows of `rows` (sorted by `ts`) with `ts <= t`: the upper bound by time, by binary search. */
export function countAtOrBefore(rows: readonly { readonly ts: number }[], t: number): number {
  let lo = 0
  let hi = rows.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((rows[mid] as { readonly ts: number }).ts <= t) lo = mid + 1
    else hi = mid
  }
  return lo
}
