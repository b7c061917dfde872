import { performance } from 'node:perf_hooks'
import { wallOffsetAtEdge } from '../../src/core/precise-time.js'

/**
 * A sub-millisecond reading of the wall clock that `Date.now()` reads (the service stamps `lts` and `pts` with it):
 * `performance.now()` at its offset to `Date.now()` found at millisecond edges (src/core/precise-time.ts), the
 * median of many, since the clients measure with it.
 */
export function fineWallClock(edges = 25): () => number {
  const offset = wallOffsetAtEdge(edges)
  return () => performance.now() + offset
}
