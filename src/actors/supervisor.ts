import type { Actor, ActorSnapshot } from './actor.js'
import type { Clock, TimerHandle } from '../core/clock.js'
import { systemClock } from '../core/clock.js'

export interface SupervisorOptions {
  clock?: Clock
  /** First restart delay; doubles per consecutive failure up to `maxBackoffMs`. */
  initialBackoffMs?: number
  maxBackoffMs?: number
  /** A child that stays up this long has its failure count reset. */
  resetAfterMs?: number
  onEvent?: (event: SupervisorEvent) => void
}

export type SupervisorEvent =
  | { type: 'actor_failed'; name: string; error: string; restartInMs: number }
  | { type: 'actor_restarted'; name: string; attempt: number }

interface Child {
  actor: Actor<unknown>
  consecutiveFailures: number
  startedAt: number
  restartTimer: TimerHandle | undefined
  restarts: number
}

/**
 * Restarts failed actors with capped exponential backoff. It owns no domain state; each actor's `onStart`
 * is responsible for rebuilding its state from the venue (catalog + snapshots) after a restart.
 */
export class Supervisor {
  readonly #clock: Clock
  readonly #initialBackoffMs: number
  readonly #maxBackoffMs: number
  readonly #resetAfterMs: number
  readonly #onEvent: ((event: SupervisorEvent) => void) | undefined
  readonly #children = new Map<string, Child>()
  #stopped = false

  constructor(options: SupervisorOptions = {}) {
    this.#clock = options.clock ?? systemClock
    this.#initialBackoffMs = options.initialBackoffMs ?? 250
    this.#maxBackoffMs = options.maxBackoffMs ?? 30_000
    this.#resetAfterMs = options.resetAfterMs ?? 60_000
    this.#onEvent = options.onEvent
  }

  supervise(actor: Actor<unknown>): void {
    const child: Child = {
      actor,
      consecutiveFailures: 0,
      startedAt: this.#clock.now(),
      restartTimer: undefined,
      restarts: 0,
    }
    this.#children.set(actor.name, child)
    actor.onFailure((_, error) => this.#onFailure(child, error))
  }

  startAll(): void {
    for (const child of this.#children.values()) {
      child.startedAt = this.#clock.now()
      child.actor.start()
    }
  }

  stopAll(): void {
    this.#stopped = true
    for (const child of this.#children.values()) {
      this.#clock.clearTimeout(child.restartTimer)
      child.actor.stop()
    }
  }

  snapshot(): (ActorSnapshot & { restarts: number })[] {
    return [...this.#children.values()].map((c) => ({ ...c.actor.snapshot(), restarts: c.restarts }))
  }

  #onFailure(child: Child, error: unknown): void {
    if (this.#stopped) return
    if (this.#clock.now() - child.startedAt >= this.#resetAfterMs) child.consecutiveFailures = 0
    const delay = Math.min(this.#maxBackoffMs, this.#initialBackoffMs * 2 ** child.consecutiveFailures)
    child.consecutiveFailures++
    this.#onEvent?.({
      type: 'actor_failed',
      name: child.actor.name,
      error: error instanceof Error ? error.message : String(error),
      restartInMs: delay,
    })
    this.#clock.clearTimeout(child.restartTimer)
    child.restartTimer = this.#clock.setTimeout(() => {
      child.restartTimer = undefined
      if (this.#stopped) return
      child.restarts++
      child.startedAt = this.#clock.now()
      child.actor.start()
      this.#onEvent?.({ type: 'actor_restarted', name: child.actor.name, attempt: child.consecutiveFailures })
    }, delay)
  }
}
