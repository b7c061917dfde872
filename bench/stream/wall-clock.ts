import { performance } from 'node:perf_hooks'

/**
 * A sub-millisecond reading of the wall clock that `Date.now()` reads (the service stamps `lts` and `pts` with it).
 * `performance.now()` is monotonic and fine-grained; its offset to `Date.now()` is found at the edges where
 * `Date.now()` ticks to the next millisecond (at an edge the wall clock is that integer, to within the few µs the
 * loop takes), the median of several edges.
 */
export function fineWallClock(edges = 25): () => number {
  const offsets: number[] = []
  for (let i = 0; i < edges; i++) {
    const start = Date.now()
    let now = start
    let before = performance.now()
    let t = before
    while (now === start) {
      before = t
      t = performance.now()
      now = Date.now()
    }
    // The tick happened between `before` and `t`.
    offsets.push(now - (before + t) / 2)
  }
  offsets.sort((a, b) => a - b)
  const offset = offsets[Math.floor(offsets.length / 2)] as number
  return () => performance.now() + offset
}
