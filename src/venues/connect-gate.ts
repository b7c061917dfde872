/**
 * At most `max` websocket handshakes to one venue at a time; the rest wait their turn, first come first served.
 *
 * A venue that needs many sockets (venuep: about 500 tokens a socket, 225 sockets at its real size) sees all of them
 * open at once at start, and again whenever they all go down together (the venue paused, our network dropped). Venues
 * answer such bursts with HTTP 429 at the handshake (venuep.md §3.1.4), and a venue busy sending every socket's books
 * again answers the last handshakes after the connect timeout, so they fail and start over. Queued here, each attempt
 * starts its connect timeout only once it is let through.
 */
export interface GateTicket {
  /** The handshake ended (opened, failed or abandoned), or a waiting attempt is withdrawn. Idempotent. */
  release(): void
}

export class ConnectGate {
  readonly #max: number
  #inFlight = 0
  /** Attempts waiting, in arrival order (a Set keeps it and withdraws in O(1)). */
  readonly #waiting = new Set<() => void>()

  constructor(max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`a connect gate needs max >= 1, got ${max}`)
    this.#max = max
  }

  get inFlight(): number {
    return this.#inFlight
  }

  get waiting(): number {
    return this.#waiting.size
  }

  /**
   * Calls `start` now if fewer than `max` handshakes are in flight, else when one ends. `start` gets the ticket, so
   * an attempt that fails at once can release it before `enter` has returned it.
   */
  enter(start: (ticket: GateTicket) => void): GateTicket {
    let state: 'waiting' | 'started' | 'released' = 'waiting'
    const ticket: GateTicket = {
      release: () => {
        if (state === 'waiting') this.#waiting.delete(run)
        else if (state === 'started') {
          this.#inFlight--
          this.#next()
        }
        state = 'released'
      },
    }
    const run = () => {
      state = 'started'
      this.#inFlight++
      start(ticket)
    }
    if (this.#inFlight < this.#max) run()
    else this.#waiting.add(run)
    return ticket
  }

  #next(): void {
    while (this.#inFlight < this.#max) {
      const run = this.#waiting.values().next().value
      if (run === undefined) return
      this.#waiting.delete(run)
      run()
    }
  }
}
