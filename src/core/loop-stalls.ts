import { systemClock, type Clock, type TimerHandle } from './clock.js'

/**
 * How long this process's event loop was stalled (not running our callbacks) within a span of time.
 *
 * A socket's bytes wait in the kernel while the loop is busy elsewhere (a garbage collection, a long slice of work),
 * so a reply that arrived on time is read late. Whoever judges a peer by how late its replies are read (the venue
 * feeds' probes and stale checks, ws-connection.ts) subtracts this first: a stall of ours is not the peer's silence.
 */
export interface LoopStalls {
  /** Milliseconds of [from, to] during which the loop was stalled, the stall still going on at `to` included. */
  stalledWithin(from: number, to: number): number
}

/** A loop that never stalls: time that moves only when told (SimulatedClock), or no meter wanted. */
export const noLoopStalls: LoopStalls = { stalledWithin: () => 0 }

export interface LoopStallMeterOptions {
  /** How often the meter's timer should run. A stall shows as the part of a gap between its runs beyond this. */
  readonly tickMs?: number
  /** Gaps beyond the tick shorter than this are the timer's ordinary lateness, not stalls. */
  readonly minStallMs?: number
  /** Stalls remembered (the oldest dropped first): enough for the longest span anyone asks about. */
  readonly keep?: number
}

/**
 * Measures stalls with a timer that should run every `tickMs`: when it runs `gap` after its last run, the loop
 * was stalled for `gap - tickMs` before this run. The stall under way (the loop busy since the last run, the caller
 * itself running late) counts too: a socket read right after a long pause is handled before the timer runs again.
 * One timer per process, 20 runs a second: nothing beside the work it measures.
 */
export class LoopStallMeter implements LoopStalls {
  readonly #clock: Clock
  readonly #tickMs: number
  readonly #minStallMs: number
  /** Ring of stalls: start and end times, `#count` of them ending at `#next - 1`. */
  readonly #starts: Float64Array
  readonly #ends: Float64Array
  #next = 0
  #count = 0
  #lastTick: number
  #timer: TimerHandle | undefined

  constructor(clock: Clock, options: LoopStallMeterOptions = {}) {
    this.#clock = clock
    this.#tickMs = options.tickMs ?? 50
    this.#minStallMs = options.minStallMs ?? 10
    const keep = options.keep ?? 512
    this.#starts = new Float64Array(keep)
    this.#ends = new Float64Array(keep)
    this.#lastTick = clock.now()
  }

  start(): this {
    if (this.#timer !== undefined) return this
    this.#lastTick = this.#clock.now()
    this.#timer = this.#clock.setInterval(() => this.tick(this.#clock.now()), this.#tickMs)
    return this
  }

  stop(): void {
    this.#clock.clearInterval(this.#timer)
    this.#timer = undefined
  }

  /** The timer ran at `now` (public for tests that drive it by hand). */
  tick(now: number): void {
    const stallFrom = this.#lastTick + this.#tickMs
    if (now - stallFrom >= this.#minStallMs) {
      const slot = this.#next
      this.#starts[slot] = stallFrom
      this.#ends[slot] = now
      this.#next = (slot + 1) % this.#starts.length
      this.#count = Math.min(this.#count + 1, this.#starts.length)
    }
    this.#lastTick = now
  }

  stalledWithin(from: number, to: number): number {
    if (to <= from) return 0
    const ongoingFrom = this.#lastTick + this.#tickMs
    let stalled = to - ongoingFrom >= this.#minStallMs ? overlap(ongoingFrom, to, from, to) : 0
    const size = this.#starts.length
    // Newest first: stop at the first stall that ended before `from` (they are in time order).
    for (let i = 0, slot = this.#next; i < this.#count; i++) {
      slot = (slot - 1 + size) % size
      const end = this.#ends[slot] as number
      if (end <= from) break
      stalled += overlap(this.#starts[slot] as number, end, from, to)
    }
    return stalled
  }
}

function overlap(aFrom: number, aTo: number, bFrom: number, bTo: number): number {
  return Math.max(0, Math.min(aTo, bTo) - Math.max(aFrom, bFrom))
}

let processMeter: LoopStallMeter | undefined

/**
 * The stalls of the loop that runs `clock`'s timers: one meter for the whole process on the system clock, started
 * on first use; none on any other clock (a simulated clock's time moves only when told, so nothing stalls it).
 */
export function loopStallsOf(clock: Clock): LoopStalls {
  if (clock !== systemClock) return noLoopStalls
  processMeter ??= new LoopStallMeter(systemClock).start()
  return processMeter
}
