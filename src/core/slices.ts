/**
 * Long computations on the event loop, cut into slices so requests are served in between. A computation is
 * written once, as a generator that `yield`s at checkpoints (every few dozen items); `runToEnd` runs it in one
 * go (tests, small inputs), `runInSlices` gives the event loop back whenever a slice has used its budget.
 *
 * The inputs of a sliced computation must not change while it runs: in this codebase they are immutable
 * snapshots (catalogs, read models), and the result is installed in one synchronous step at the end.
 */
export type Steps<T> = Generator<void, T, void>

/** Default slice budget: a request waiting behind a slice waits at most about this long. */
export const SLICE_BUDGET_MS = 5

export function runToEnd<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next()
    if (r.done === true) return r.value
  }
}

/**
 * Runs `steps` between other work. All sliced computations share one scheduler: each turn of the event loop
 * (one `setImmediate`) gives them `SLICE_BUDGET_MS` in total, round-robin, a computation that ran going to the
 * back of the queue. With one budget per computation instead, several running at once (catalog pages mapped
 * while read models rebuild and pairs install) would hold one turn for several budgets.
 *
 * `budgetMs` caps this computation's slice below the turn's budget (0: one step per turn, for tests).
 */
export function runInSlices<T>(steps: Steps<T>, budgetMs = SLICE_BUDGET_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    queue.push({ steps, budgetMs, resolve: resolve as (value: unknown) => void, reject })
    scheduleTurn()
  })
}

interface Job {
  readonly steps: Steps<unknown>
  readonly budgetMs: number
  readonly resolve: (value: unknown) => void
  readonly reject: (err: unknown) => void
}

/** Computations waiting for a slice, next first. */
const queue: Job[] = []
let turnScheduled = false

function scheduleTurn(): void {
  if (turnScheduled) return
  turnScheduled = true
  setImmediate(turn)
}

function turn(): void {
  turnScheduled = false
  const turnEnd = performance.now() + SLICE_BUDGET_MS
  // Each computation waiting at the start of the turn gets at most one slice in it.
  for (let n = queue.length; n > 0 && queue.length > 0; n--) {
    const job = queue.shift() as Job
    const sliceEnd = Math.min(turnEnd, performance.now() + job.budgetMs)
    let done = false
    try {
      for (;;) {
        const r = job.steps.next()
        if (r.done === true) {
          job.resolve(r.value)
          done = true
          break
        }
        if (performance.now() >= sliceEnd) break
      }
    } catch (err) {
      job.reject(err)
      done = true
    }
    if (!done) queue.push(job)
    if (performance.now() >= turnEnd) break
  }
  if (queue.length > 0) scheduleTurn()
}
