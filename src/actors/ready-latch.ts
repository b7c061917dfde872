/**
 * A promise that resolves once a readiness condition holds, for work that should wait until the service is ready
 * (a restart's first venue listings: catalog-loader.ts). The condition is checked every `everyMs` of real time: it
 * waits on the state of other components (views built, spreads priced), not on a duration, and costs a few function
 * calls per check. `stop` ends the wait; the promise then never resolves.
 */
export class ReadyLatch {
  readonly promise: Promise<void>
  #resolve: () => void = () => {}
  #timer: NodeJS.Timeout | undefined
  #stopped = false

  constructor() {
    this.promise = new Promise((resolve) => (this.#resolve = resolve))
  }

  watch(ready: () => boolean, everyMs = 100): void {
    const check = (): void => {
      this.#timer = undefined
      if (this.#stopped) return
      if (ready()) this.#resolve()
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
