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

export async function runInSlices<T>(steps: Steps<T>, budgetMs = SLICE_BUDGET_MS): Promise<T> {
  let sliceStart = performance.now()
  for (;;) {
    const r = steps.next()
    if (r.done === true) return r.value
    if (performance.now() - sliceStart >= budgetMs) {
      await new Promise<void>((resolve) => setImmediate(resolve))
      sliceStart = performance.now()
    }
  }
}
