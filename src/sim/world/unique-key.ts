/** Per index, the next suffix to try for each base: repeated bases ("… by June 30, 2026") stay O(1). */
const nextSuffix = new WeakMap<Map<string, unknown>, Map<string, number>>()

/** `base`, or `base-2`, `base-3`, … : the first not in `taken` (the caller adds it). */
export function uniqueKey(taken: Map<string, unknown>, base: string): string {
  if (!taken.has(base)) return base
  let next = nextSuffix.get(taken)
  if (next === undefined) nextSuffix.set(taken, (next = new Map()))
  for (let i = next.get(base) ?? 2; ; i++) {
    const key = `${base}-${i}`
    if (!taken.has(key)) {
      next.set(base, i + 1)
      return key
    }
  }
}
