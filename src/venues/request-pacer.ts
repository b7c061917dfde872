import { systemClock, type Clock, type TimerHandle } from '../core/clock.js'

/**
 * Requests leave in real time whatever clock the service's state runs on (a test's simulated clock does not move
 * the network), so a pacer in the service runs on this one: monotonic, with the system's timers.
 */
export const REAL_TIME: Clock = { ...systemClock, now: () => performance.now() }

/**
 * Spaces the starts of requests that share a venue's read budget at most `perSecond` a second, however many
 * callers ask at once: each `turn()` is given the next free start time (one interval after the previous one) and
 * waits for it. Evenly spaced starts never burst, so they stay under a token bucket of that refill rate whatever its
 * capacity (venuek's read bucket holds one second of budget, venuek.md §5).
 *
 * The first turn, and any turn after a pause longer than an interval, starts at once.
 */
export class RequestPacer {
  readonly #clock: Clock
  readonly #intervalMs: number
  #nextStart = Number.NEGATIVE_INFINITY

  constructor(clock: Clock, perSecond: number) {
    if (!(perSecond > 0)) throw new Error(`a request pace must be positive (got ${perSecond})`)
    this.#clock = clock
    this.#intervalMs = 1000 / perSecond
  }

  /** Resolves when the caller may start its request; rejects with the signal's reason if it is aborted first. */
  turn(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted()
    const now = this.#clock.now()
    const start = Math.max(now, this.#nextStart)
    this.#nextStart = start + this.#intervalMs
    if (start <= now) return Promise.resolve()
    return new Promise((resolve, reject) => {
      let timer: TimerHandle | undefined
      const onAbort = () => {
        this.#clock.clearTimeout(timer)
        reject(signal?.reason as Error)
      }
      // Never early: Node's timers round their delay down to whole milliseconds and measure it from the event loop's
      // cached time, so a timer can fire a little before `start`; it then waits out the rest.
      const wait = () => {
        const left = start - this.#clock.now()
        if (left > 0) {
          timer = this.#clock.setTimeout(wait, Math.ceil(left))
          return
        }
        signal?.removeEventListener('abort', onAbort)
        resolve()
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      wait()
    })
  }
}
