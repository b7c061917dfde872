import { RingBuffer } from '../core/ring-buffer.js'

/**
 * A minimal single-writer actor runtime (after xstate's Mailbox): messages are processed one at a time by a
 * synchronous `process`, so no `await` can interleave two state changes. A message sent while the actor is
 * idle is processed at once; one sent from inside `process` (or from a subscriber called by it) is queued and
 * processed right after. Async work runs outside the actor and comes back as a message.
 *
 * Overflow policy: the mailbox is bounded. A full mailbox fails the actor (status `failed`), because silently
 * dropping a book delta would corrupt state; the supervisor then restarts it, which resyncs from the venue.
 */
export type ActorStatus = 'not_started' | 'running' | 'stopped' | 'failed'

export interface ActorCounters {
  /** Messages accepted into the mailbox. */
  received: number
  /** Messages whose `process` returned normally. */
  processed: number
  /** Messages refused: sent while stopped/failed, or on overflow. */
  dropped: number
  /** Exceptions thrown by `process`. */
  failures: number
}

export interface ActorSnapshot {
  readonly name: string
  readonly status: ActorStatus
  readonly pending: number
  readonly counters: Readonly<ActorCounters>
  readonly lastError: string | undefined
}

export type FailureListener = (actor: Actor<unknown>, error: unknown) => void

const DEFAULT_MAILBOX_CAPACITY = 100_000

export abstract class Actor<M> {
  readonly name: string
  #status: ActorStatus = 'not_started'
  #mailbox: RingBuffer<M>
  #draining = false
  #lastError: string | undefined
  #failureListeners: FailureListener[] = []
  readonly counters: ActorCounters = { received: 0, processed: 0, dropped: 0, failures: 0 }

  constructor(name: string, mailboxCapacity = DEFAULT_MAILBOX_CAPACITY) {
    this.name = name
    this.#mailbox = new RingBuffer<M>(mailboxCapacity)
  }

  /** Handles one message. Must be synchronous and must not await; throwing fails the actor. */
  protected abstract process(message: M): void

  /** Called by `start` (and by the supervisor on restart) before any message is processed. */
  protected onStart(): void {}

  /** Called once when the actor stops or fails: release sockets and timers here. */
  protected onStop(): void {}

  get status(): ActorStatus {
    return this.#status
  }

  snapshot(): ActorSnapshot {
    return {
      name: this.name,
      status: this.#status,
      pending: this.#mailbox.size,
      counters: { ...this.counters },
      lastError: this.#lastError,
    }
  }

  onFailure(listener: FailureListener): void {
    this.#failureListeners.push(listener)
  }

  start(): void {
    if (this.#status === 'running') return
    this.#status = 'running'
    this.#lastError = undefined
    this.onStart()
    this.#drain()
  }

  stop(): void {
    if (this.#status !== 'running') return
    this.#status = 'stopped'
    this.#mailbox.clear()
    this.#safeOnStop()
  }

  /**
   * Enqueues a message; returns false if it was dropped (actor not running, or mailbox overflow, which
   * also fails the actor).
   */
  send(message: M): boolean {
    if (this.#status !== 'running' && this.#status !== 'not_started') {
      this.counters.dropped++
      return false
    }
    if (!this.#mailbox.push(message)) {
      this.counters.dropped++
      this.#fail(new Error(`mailbox overflow (capacity ${this.#mailbox.capacity})`))
      return false
    }
    this.counters.received++
    if (this.#status === 'running') this.#drain()
    return true
  }

  #drain(): void {
    if (this.#draining) return
    this.#draining = true
    try {
      while (this.#status === 'running') {
        if (this.#mailbox.size === 0) break
        const message = this.#mailbox.shift() as M
        try {
          this.process(message)
          this.counters.processed++
        } catch (err) {
          this.counters.failures++
          this.#fail(err)
        }
      }
    } finally {
      this.#draining = false
    }
  }

  #fail(err: unknown): void {
    if (this.#status === 'failed' || this.#status === 'stopped') return
    this.#status = 'failed'
    this.#lastError = err instanceof Error ? err.message : String(err)
    this.#mailbox.clear()
    this.#safeOnStop()
    for (const listener of this.#failureListeners) {
      try {
        listener(this as Actor<unknown>, err)
      } catch {
        // A listener's bug must not escape into the sender (often a socket callback).
      }
    }
  }

  #safeOnStop(): void {
    try {
      this.onStop()
    } catch {
      // Cleanup errors are not actionable here; the actor is already out of service.
    }
  }
}
