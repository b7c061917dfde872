/**
 * A minimal typed event hub (no Node `EventEmitter`, so it also runs in a browser). A listener that throws does
 * not stop the others or the client: its error goes to `onListenerError`.
 */
export type Listener<T> = (value: T) => void

export class TypedEvents<M extends object> {
  readonly #listeners = new Map<keyof M, Set<Listener<never>>>()
  onListenerError: (error: unknown) => void = () => {}

  /** Registers `fn`; the returned function removes it. */
  on<K extends keyof M>(name: K, fn: Listener<M[K]>): () => void {
    let set = this.#listeners.get(name)
    if (set === undefined) this.#listeners.set(name, (set = new Set()))
    set.add(fn as Listener<never>)
    return () => set.delete(fn as Listener<never>)
  }

  emit<K extends keyof M>(name: K, value: M[K]): void {
    const set = this.#listeners.get(name)
    if (set === undefined) return
    for (const fn of [...set]) {
      try {
        ;(fn as Listener<M[K]>)(value)
      } catch (error) {
        this.onListenerError(error)
      }
    }
  }
}
