/**
 * Array helpers that take any length. A spread argument (`out.push(...items)`, `Math.max(...values)`) puts every
 * item on the call stack, so a list that grows with the catalog overflows it at the venues' real size (issue 35:
 * the simulator died at 80,000 questions on `rows.push(...prints)`). The lint forbids spread arguments in src/
 * (eslint.config.mjs); these are what to use instead.
 */

/** Appends every item of `items` to `out` (`out.push(...items)` for any length). */
export function pushAll<T>(out: T[], items: Iterable<T>): T[] {
  for (const item of items) out.push(item)
  return out
}

/** The least of `values`; undefined when there are none. */
export function minOf(values: Iterable<number>): number | undefined {
  let min: number | undefined
  for (const v of values) {
    // As Math.min: NaN wins, and -0 is less than 0.
    if (min === undefined || v < min || Number.isNaN(v) || (v === 0 && min === 0 && Object.is(v, -0))) min = v
  }
  return min
}

/** The greatest of `values`; undefined when there are none. */
export function maxOf(values: Iterable<number>): number | undefined {
  let max: number | undefined
  for (const v of values) {
    // As Math.max: NaN wins, and 0 is greater than -0.
    if (max === undefined || v > max || Number.isNaN(v) || (v === 0 && max === 0 && Object.is(max, -0))) max = v
  }
  return max
}

/** The first index of `sorted` (ascending by `compare`) whose item is not before `item`: where `item` goes. */
export function lowerBound<T>(sorted: readonly T[], item: T, compare: (x: T, y: T) => number): number {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (compare(sorted[mid] as T, item) < 0) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Up to this many items of `gone` not next to the one before, `withoutThenWith` finds each by a native scan. */
const FEW_SCANS = 16

/**
 * `list` without the items of `gone` and then the items of `added`, as a new array; `list` holds each item at most
 * once. The refreshed catalog's lists are rebuilt so, one per view and version, at 160,000 items and more: the
 * copy is one native `concat` of the right length (a copy then pushes would copy the list twice, growing it), closed
 * up over the items gone by `copyWithin`. Those are found by native scans (`lastIndexOf`: records that change often
 * were appended late), and an item of `gone` that sits just after the one before it in `list` (an event's markets
 * and outcomes were put in together) is found there without a scan: ~1 ms at 160,000 items where a set lookup per
 * item costs ~10 ms. Only when more than FEW_SCANS items need a scan is every item looked up in `gone` instead.
 */
export function withoutThenWith<T>(list: readonly T[], gone: ReadonlySet<T>, added: readonly T[]): T[] {
  const places = gone.size === 0 ? [] : placesIn(list, gone)
  if (places === undefined) {
    const out: T[] = []
    for (let i = 0; i < list.length; i++) if (!gone.has(list[i] as T)) out.push(list[i] as T)
    for (let i = 0; i < added.length; i++) out.push(added[i] as T)
    return out
  }
  // `concat` spreads its argument one level only: `added`'s items are appended as they are, arrays or not.
  const out = added.length === 0 ? list.slice() : list.concat(added)
  if (places.length > 0) {
    let write = places[0] as number
    for (let k = 0; k < places.length; k++) {
      const from = (places[k] as number) + 1
      const to = k + 1 < places.length ? (places[k + 1] as number) : out.length
      out.copyWithin(write, from, to)
      write += to - from
    }
    out.length = write
  }
  return out
}

/** Where `gone`'s items are in `list`, ascending; undefined when more than FEW_SCANS of them needed a scan. */
function placesIn<T>(list: readonly T[], gone: ReadonlySet<T>): number[] | undefined {
  const places: number[] = []
  let next = -1
  let scans = 0
  let sorted = true
  for (const item of gone) {
    let at = next >= 0 && list[next] === item ? next : -1
    if (at < 0) {
      if (++scans > FEW_SCANS) return undefined
      at = list.lastIndexOf(item)
    }
    if (at < 0) {
      next = -1
      continue
    }
    if (places.length > 0 && at < (places[places.length - 1] as number)) sorted = false
    places.push(at)
    next = at + 1
  }
  if (!sorted) places.sort((x, y) => x - y)
  return places
}
