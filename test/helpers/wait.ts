/**
 * Waits for socket I/O (real time) until `condition` holds. Timers inside the system under test run on a
 * SimulatedClock that tests move explicitly; only the network is awaited here.
 */
export async function waitFor(condition: () => boolean, timeoutMs = 5_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

/** Lets in-flight socket frames arrive (a few event-loop turns with a short real delay). */
export async function settle(ms = 30): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms))
}
