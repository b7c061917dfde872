/**
 * A promise that resolves once a readiness condition holds, for work that should wait until the service is ready
 * (a restart's first venue listings: catalog-loader.ts). The condition is checked every `everyMs` of real time: it
 * waits on the state of other components (views built, spreads priced), not on a duration, and costs a few function
 * calls per check. It also resolves after `maxWaitMs` however things stand: a service that never gets ready (a venue
 * whose feed is refused) still gets on with that work. `stop` ends the wait; the promise then never resolves.
 */
export class ReadyLatch {
  readonly promise: Promise<void>
  #resolve: () => void = () => {}
  #timer: NodeJS.Timeout | undefined
  #stopped = false

  constructor() {
    this.promise = new Promise((resolve) => (this.#resolve = resolve))
  }

  watch(ready: () => boolean, maxWaitMs: number, everyMs = 100): void {
    const deadline = Date.now() + maxWaitMs
    const check = (): void => {
      this.#timer = undefined
      if (this.#stopped) return
      if (ready() || Date.now() >= deadline) this.#resolve()
      else this.#timer = setTimeout(check, everyMs).unref()
    }
    check()
  }

  stop(): void {
    this.#stopped = true
    if (this.#timer !== undefined) clearTimeout(this.#timer)
    this.#timer = undefined
  }
}
