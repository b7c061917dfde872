import type { SpreadChange, SpreadEngine } from '../../../spreads/engine/spread-engine.js'

/** What the spread sources read of the spread actor. */
export type SpreadReader = Pick<SpreadEngine, 'subscribe' | 'record' | 'spec' | 'keyOfId' | 'ready'> &
  Pick<SpreadEngine, 'byConfidence' | 'bySpread' | 'byNetEdge' | 'withoutEdge' | 'topEpoch' | 'noteTopFloor'>

/**
 * The engine's change listener, held only while a source has an open stream: with nobody streaming, the spread
 * actor's steps call no stream code at all. The listener runs inside the actor's step that made the changes, so
 * frames are numbered there, in the order the records changed.
 */
export class EngineFeed {
  readonly #engine: SpreadReader
  readonly #onChanges: (changes: readonly SpreadChange[]) => void
  #unsubscribe: (() => void) | undefined

  constructor(engine: SpreadReader, onChanges: (changes: readonly SpreadChange[]) => void) {
    this.#engine = engine
    this.#onChanges = onChanges
  }

  /** Listens while `wanted` (some stream is open), not otherwise. */
  listen(wanted: boolean): void {
    if (wanted && this.#unsubscribe === undefined) this.#unsubscribe = this.#engine.subscribe(this.#onChanges)
    else if (!wanted && this.#unsubscribe !== undefined) {
      this.#unsubscribe()
      this.#unsubscribe = undefined
    }
  }
}
