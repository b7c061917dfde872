import type { Clock, TimerHandle } from './clock.js'

/** Stops a check that joined a ticker; calling it again does nothing. */
export type LeaveTicker = () => void

/**
 * Periodic checks that share one timer per clock and period. A check that joins runs at the ticker's next tick and
 * every period after, until it leaves; the timer runs while at least one check is joined.
 *
 * Why: objects that each keep a short interval of their own wake the event loop once per interval each, every one
 * at its own phase. At the venues' real size venuep holds ~225 sockets, and their 250 ms liveness checks woke the
 * loop ~900 times a second, a context switch and a timer callback for one comparison each (docs/SCALE.md, "The
 * loop's wake-ups"). One timer checks them all in one wake-up, four times a second.
 *
 * A check's first run comes up to one period after it joins instead of exactly one period: a check that reads time
 * from the clock (as liveness checks do) judges the same either way.
 */
export class SharedTicker {
  static readonly #byClock = new WeakMap<Clock, Map<number, SharedTicker>>()

  readonly #clock: Clock
  readonly #periodMs: number
  /** Insertion order: checks run in the order they joined; one joined during a tick runs in that tick. */
  readonly #checks = new Set<() => void>()
  #timer: TimerHandle | undefined

  private constructor(clock: Clock, periodMs: number) {
    this.#clock = clock
    this.#periodMs = periodMs
  }

  /** Runs `check` every `periodMs` on `clock`'s shared timer for that period. */
  static join(clock: Clock, periodMs: number, check: () => void): LeaveTicker {
    let tickers = SharedTicker.#byClock.get(clock)
    if (tickers === undefined) SharedTicker.#byClock.set(clock, (tickers = new Map()))
    let ticker = tickers.get(periodMs)
    if (ticker === undefined) tickers.set(periodMs, (ticker = new SharedTicker(clock, periodMs)))
    return ticker.#join(check)
  }

  /** Checks joined to `clock`'s ticker of `periodMs` (for tests). */
  static joined(clock: Clock, periodMs: number): number {
    const ticker = SharedTicker.#byClock.get(clock)?.get(periodMs)
    return ticker === undefined ? 0 : ticker.#checks.size
  }

  #join(check: () => void): LeaveTicker {
    // A function object of its own, so one check joined twice is two members and leaves one at a time.
    const member = () => check()
    this.#checks.add(member)
    this.#timer ??= this.#clock.setInterval(() => this.#tick(), this.#periodMs)
    return () => {
      if (!this.#checks.delete(member) || this.#checks.size > 0) return
      this.#clock.clearInterval(this.#timer)
      this.#timer = undefined
    }
  }

  #tick(): void {
    // A check may leave (its connection lost) or join (a reconnect) during the tick: a Set's iteration skips
    // members deleted before they are reached and visits members added meanwhile.
    for (const check of this.#checks) check()
  }
}
