/**
 * Time is injected everywhere state depends on it (staleness, backoff, cooldowns), so tests can move time
 * explicitly instead of sleeping. `systemClock` is the production clock; `SimulatedClock` is for tests and the
 * simulator's deterministic runs.
 */
export type TimerHandle = { readonly id: number } | ReturnType<typeof setTimeout>

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number
  setTimeout(fn: () => void, delayMs: number): TimerHandle
  clearTimeout(handle: TimerHandle | undefined): void
  setInterval(fn: () => void, periodMs: number): TimerHandle
  clearInterval(handle: TimerHandle | undefined): void
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, delayMs) => {
    const t = setTimeout(fn, delayMs)
    unref(t)
    return t
  },
  clearTimeout: (handle) => {
    if (handle !== undefined) clearTimeout(handle as ReturnType<typeof setTimeout>)
  },
  setInterval: (fn, periodMs) => {
    const t = setInterval(fn, periodMs)
    unref(t)
    return t
  },
  clearInterval: (handle) => {
    if (handle !== undefined) clearInterval(handle as ReturnType<typeof setInterval>)
  },
}

/**
 * Node's timers keep the process alive unless unref'd. A browser's are numbers with nothing to unref (the stream
 * client runs there too, on this clock: src/dashboard/web/), so the call is made only where it exists.
 */
function unref(timer: unknown): void {
  ;(timer as { unref?: () => void }).unref?.()
}

interface PendingTimer {
  id: number
  due: number
  fn: () => void
  periodMs: number | undefined
}

/**
 * A clock that only moves when told to. Timers fire in due order (ties in creation order) during
 * `increment`/`set`, each seeing `now()` equal to its own due time.
 *
 * @example
 * const clock = new SimulatedClock(0)
 * clock.setTimeout(() => fired.push(clock.now()), 100)
 * clock.increment(250) // fired = [100]
 */
export class SimulatedClock implements Clock {
  #now: number
  #nextId = 1
  #timers = new Map<number, PendingTimer>()

  constructor(startMs = 0) {
    this.#now = startMs
  }

  now(): number {
    return this.#now
  }

  setTimeout(fn: () => void, delayMs: number): TimerHandle {
    return this.#add(fn, delayMs, undefined)
  }

  setInterval(fn: () => void, periodMs: number): TimerHandle {
    return this.#add(fn, periodMs, Math.max(1, periodMs))
  }

  clearTimeout(handle: TimerHandle | undefined): void {
    if (handle !== undefined && typeof handle === 'object' && 'id' in handle) this.#timers.delete(handle.id as number)
  }

  clearInterval(handle: TimerHandle | undefined): void {
    this.clearTimeout(handle)
  }

  /** Number of timers still scheduled. */
  get pendingTimers(): number {
    return this.#timers.size
  }

  increment(ms: number): void {
    this.set(this.#now + ms)
  }

  set(targetMs: number): void {
    if (targetMs < this.#now) throw new Error('Unable to travel back in time')
    for (;;) {
      const next = this.#nextDue(targetMs)
      if (next === undefined) break
      this.#now = next.due
      if (next.periodMs === undefined) this.#timers.delete(next.id)
      else next.due += next.periodMs
      next.fn()
    }
    this.#now = targetMs
  }

  #nextDue(limit: number): PendingTimer | undefined {
    let best: PendingTimer | undefined
    for (const t of this.#timers.values()) {
      if (t.due <= limit && (best === undefined || t.due < best.due || (t.due === best.due && t.id < best.id))) best = t
    }
    return best
  }

  #add(fn: () => void, delayMs: number, periodMs: number | undefined): TimerHandle {
    const id = this.#nextId++
    this.#timers.set(id, { id, due: this.#now + Math.max(0, delayMs), fn, periodMs })
    return { id }
  }
}
