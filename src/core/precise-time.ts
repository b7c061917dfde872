import { performance } from 'node:perf_hooks'
import { systemClock, type Clock } from './clock.js'

/**
 * Timestamps with a fraction of a millisecond, for the stream's `lts` (frame received) and `pts` (frame published)
 * when the operator asks for them (`stream.preciseTimes`): at integer ms, a frame received at .9 and published at
 * 1.1 reads as 1 ms inside the service, and a latency measured from `lts` is an upper bound up to 1 ms high.
 *
 * On the system clock a stamp is the monotonic `performance.now()` at a known offset to `Date.now()`: the offset is
 * taken at a millisecond edge (a busy wait of ~1-3 ms, once, when the stamp is made) and corrected whenever a stamp
 * falls outside `Date.now()`'s current millisecond (NTP slews the wall clock; the monotonic one does not follow), so
 * `Math.floor(stamp)` is always what `Date.now()` said: a stamp never contradicts any other time in the service.
 * Microseconds, rounded down.
 */
export type Stamp = () => number

export function preciseStamp(clock: Clock): Stamp {
  const wall = preciseWallClock()
  if (clock === systemClock) return wall
  // A clock of its own (simulated time in tests): its ms, with the wall clock's place inside its ms as the fraction.
  return () => {
    const w = wall()
    return clock.now() + (w - Math.floor(w))
  }
}

/** The wall clock (`Date.now()`) with microseconds: monotonic between drift corrections, never off its ms. */
function preciseWallClock(): Stamp {
  let offset = wallOffsetAtEdge()
  return () => {
    let t = performance.now() + offset
    const ms = Date.now()
    // Outside the current wall ms: the clocks drifted apart (or the ms ticked between the two reads); re-anchor.
    if (t < ms) {
      offset += ms - t
      t = ms
    } else if (t >= ms + 1) {
      offset -= t - (ms + 0.999)
      t = ms + 0.999
    }
    return Math.floor(t * 1000) / 1000
  }
}

/** The integer stamp: `clock.now()`. */
export function wholeMsStamp(clock: Clock): Stamp {
  return () => clock.now()
}

/**
 * `Date.now() − performance.now()` at the moment `Date.now()` ticks (median of `edges` edges: about that many ms of
 * busy waiting). Also the bench clients' fine clock (bench/stream/wall-clock.ts).
 */
export function wallOffsetAtEdge(edges = 3): number {
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
    // The tick fell between `before` and `t`.
    offsets.push(now - (before + t) / 2)
  }
  offsets.sort((a, b) => a - b)
  return offsets[Math.floor(offsets.length / 2)] as number
}
