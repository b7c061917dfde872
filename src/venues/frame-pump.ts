/**
 * Venue frames are handled as they arrive while the current turn of the event loop has budget left, and the rest
 * in later turns (`setImmediate`), in arrival order. Why: venues send in bursts (a simulator step, a news event:
 * hundreds of frames at once), and everything a frame triggers (parse, book, quote, spread recompute, alerts) runs
 * on the thread that serves HTTP. Handled in one go, a 5 ms burst makes every request that arrived meanwhile wait
 * 5 ms; handled in slices of `FRAME_BUDGET_MS`, requests are served between slices.
 *
 * One pump for every venue connection, so the budget is shared, and frames keep their global arrival order.
 * Bounded: past `MAX_QUEUED` waiting frames the pump stops deferring and works through the backlog at once
 * (the socket buffers then absorb the overload, as they would without the pump).
 */
export const FRAME_BUDGET_MS = 1
const MAX_QUEUED = 100_000

export interface FrameTarget<T> {
  /** Handles one frame; `token` is what the target passed to `deliver` (its socket, to drop a lost socket's frames). */
  handleFrame(token: T, data: string, receivedAt: number): void
}

interface Queued {
  readonly target: FrameTarget<unknown>
  readonly token: unknown
  readonly data: string
  readonly receivedAt: number
}

class FramePump {
  #queue: Queued[] = []
  #head = 0
  /** performance.now() deadline of the current turn's budget; 0 when no turn is open. */
  #turnEnd = 0
  #drainScheduled = false
  #turnResetScheduled = false
  /** Frames that waited for a later turn (for tests and metrics). */
  deferred = 0

  get queued(): number {
    return this.#queue.length - this.#head
  }

  deliver<T>(target: FrameTarget<T>, token: T, data: string, receivedAt: number): void {
    if (this.queued === 0) {
      const now = performance.now()
      if (this.#turnEnd === 0) this.#openTurn(now)
      if (now < this.#turnEnd) {
        target.handleFrame(token, data, receivedAt)
        return
      }
    }
    this.#queue.push({ target: target as FrameTarget<unknown>, token, data, receivedAt })
    this.deferred++
    if (this.queued >= MAX_QUEUED) return this.#drain(Number.POSITIVE_INFINITY)
    this.#scheduleDrain()
  }

  #openTurn(now: number): void {
    this.#turnEnd = now + FRAME_BUDGET_MS
    if (this.#turnResetScheduled) return
    this.#turnResetScheduled = true
    setImmediate(() => {
      this.#turnResetScheduled = false
      this.#turnEnd = 0
    })
  }

  #scheduleDrain(): void {
    if (this.#drainScheduled) return
    this.#drainScheduled = true
    setImmediate(() => {
      this.#drainScheduled = false
      this.#drain(performance.now() + FRAME_BUDGET_MS)
    })
  }

  #drain(deadline: number): void {
    const queue = this.#queue
    try {
      while (this.#head < queue.length) {
        const f = queue[this.#head++] as Queued
        f.target.handleFrame(f.token, f.data, f.receivedAt)
        if (performance.now() >= deadline) break
      }
    } finally {
      if (this.#head >= queue.length) {
        this.#queue = []
        this.#head = 0
      } else {
        if (this.#head > 4_096) {
          this.#queue = queue.slice(this.#head)
          this.#head = 0
        }
        this.#scheduleDrain()
      }
    }
  }
}

export const framePump = new FramePump()
