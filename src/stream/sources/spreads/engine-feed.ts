import type { Logger } from '../../../core/logger.js'
import type { SpreadChange, SpreadEngine } from '../../../spreads/engine/spread-engine.js'

/** What the spread sources read of the spread actor. */
export type SpreadReader = Pick<SpreadEngine, 'subscribe' | 'record' | 'spec' | 'keyOfId' | 'ready'> &
  Pick<SpreadEngine, 'byConfidence' | 'bySpread' | 'byNetEdge' | 'withoutEdge' | 'topEpoch' | 'noteTopFloor'>

/**
 * The engine's change listener, held only while a source has an open stream: with nobody streaming, the spread
 * actor's steps call no stream code at all. The listener runs inside the actor's step that made the changes, so
 * frames are numbered there, in the order the records changed. A stream's failure is logged and contained: an
 * exception out of a listener would fail the spread actor itself.
 */
export class EngineFeed {
  readonly #engine: SpreadReader
  readonly #onChanges: (changes: readonly SpreadChange[]) => void
  #unsubscribe: (() => void) | undefined

  constructor(engine: SpreadReader, onChanges: (changes: readonly SpreadChange[]) => void, log?: Logger) {
    this.#engine = engine
    this.#onChanges = contained(onChanges, log)
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

/** `fn`, its exceptions logged instead of thrown (engine listeners and timers of the stream sources). */
export function contained<A extends unknown[]>(
  fn: (...args: A) => void,
  log: Logger | undefined,
): (...args: A) => void {
  return (...args) => {
    try {
      fn(...args)
    } catch (err) {
      log?.error({ err }, 'stream source failed on a spread change; its streams may be behind until resynced')
    }
  }
}
