import { framePump } from '../../src/venues/frame-pump.js'

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

/**
 * Lets in-flight socket frames arrive (a short real delay) and be handled: frames a burst left for later turns of
 * the event loop (src/venues/frame-pump.ts) are waited for too.
 */
export async function settle(ms = 30): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms))
  await waitFor(() => framePump.queued === 0, 5_000, 'the frame pump to drain')
}
