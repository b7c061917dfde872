/**
 * "Alert rules changed up to version N": how an in-process evaluator keeps its scope index current without
 * polling the table on every spread update. The repository publishes after each local commit; the store watcher
 * publishes versions written by other replicas (NOTIFY on Postgres, plus a periodic check). A listener receives
 * only versions newer than any it has seen, then calls `AlertRuleRepository.changesSince(cursor)` to read the
 * changed rules (tombstones included).
 *
 * @example
 * const stop = changes.subscribe(() => void index.catchUp())   // catchUp: changesSince(index.cursor) → apply
 */
export type AlertRuleListener = (version: number) => void

export class AlertRuleChanges {
  #version = 0
  readonly #listeners = new Set<AlertRuleListener>()

  /** Newest rule version known to this process (0 before any). */
  get version(): number {
    return this.#version
  }

  subscribe(listener: AlertRuleListener): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /** Records `version` and tells listeners when it is new. A throwing listener does not stop the others. */
  publish(version: number): void {
    if (!(version > this.#version)) return
    this.#version = version
    for (const listener of this.#listeners) {
      try {
        listener(version)
      } catch {
        // A listener's bug must not break the writer that published; listeners log their own errors.
      }
    }
  }
}
