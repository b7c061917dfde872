/**
 * The first `k` of `items` in the order of `compare` (a total order: ties must be broken by the caller's key),
 * without sorting them all: a bounded heap holding the best k seen so far, its worst at the root. O(n log k)
 * time and O(k) memory, against O(n log n) for sorting the whole set and slicing; the result equals exactly
 * that sort-and-slice (test/core/top-k.test.ts).
 */
export function topK<T>(items: readonly T[], k: number, compare: (a: T, b: T) => number): T[] {
  if (k <= 0) return []
  if (k >= items.length) return [...items].sort(compare)
  // heap[0] is the worst of the kept items: `worse(a, b)` puts a nearer the root.
  const heap: T[] = []
  const worse = (a: T, b: T) => compare(a, b) > 0
  for (const item of items) {
    if (heap.length < k) {
      heap.push(item)
      siftUp(heap, heap.length - 1, worse)
    } else if (compare(item, heap[0] as T) < 0) {
      heap[0] = item
      siftDown(heap, 0, worse)
    }
  }
  return heap.sort(compare)
}

function siftUp<T>(heap: T[], at: number, worse: (a: T, b: T) => boolean): void {
  const item = heap[at] as T
  while (at > 0) {
    const parent = (at - 1) >> 1
    if (!worse(item, heap[parent] as T)) break
    heap[at] = heap[parent] as T
    at = parent
  }
  heap[at] = item
}

function siftDown<T>(heap: T[], at: number, worse: (a: T, b: T) => boolean): void {
  const item = heap[at] as T
  const n = heap.length
  for (;;) {
    let child = 2 * at + 1
    if (child >= n) break
    if (child + 1 < n && worse(heap[child + 1] as T, heap[child] as T)) child++
    if (!worse(heap[child] as T, item)) break
    heap[at] = heap[child] as T
    at = child
  }
  heap[at] = item
}
