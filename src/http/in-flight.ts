import type { HttpResponse } from 'uWebSockets.js'

/** One request answered after an await: whether its client went away, and whether it is still counted. */
export interface AbortState {
  aborted: boolean
  /** Answered or aborted: no longer counted in flight. */
  settled: boolean
}

/**
 * The requests the server answers after an await, counted so a shutdown can wait for them (`drain`) before closing
 * what their handlers use (the store). A request answered inside the uWS callback is never counted: it cannot
 * outlive the callback. uWS requires an abort handler on every response written later (else a write to a closed
 * socket crashes the process), and attaching one is what starts the count.
 */
export class InFlightRequests {
  #count = 0
  #onDrained: (() => void) | undefined

  /** `onAborted`: called once per client that went away before its answer (the server's stats). */
  constructor(private readonly onAborted: () => void) {}

  get count(): number {
    return this.#count
  }

  /** Attaches the abort handler; the request counts until `settled` (written) or its client goes away. */
  attach(res: HttpResponse): AbortState {
    const state: AbortState = { aborted: false, settled: false }
    this.#count++
    res.onAborted(() => {
      state.aborted = true
      this.onAborted()
      this.settled(state)
    })
    return state
  }

  settled(state: AbortState): void {
    if (state.settled) return
    state.settled = true
    this.#count--
    if (this.#count === 0) this.#onDrained?.()
  }

  /** Waits until nothing is in flight, at most `timeoutMs`. Resolves with the number still in flight. */
  drain(timeoutMs: number): Promise<number> {
    if (this.#count === 0) return Promise.resolve(0)
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#onDrained = undefined
        resolve(this.#count)
      }, timeoutMs)
      this.#onDrained = () => {
        clearTimeout(timer)
        this.#onDrained = undefined
        resolve(0)
      }
    })
  }
}
