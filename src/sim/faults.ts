import type { WebSocket } from 'ws'

/**
 * Fault knobs for one simulated venue, usable from tests and from the standalone simulator. HTTP faults apply
 * to matching requests on any of the venue's hosts; WebSocket faults act on every open socket of the venue.
 * Each started peer has its own (`sim[venue].faults`, peer.ts).
 *
 * @example
 * sim[venue].faults.skipSequence()            // next data frame on each subscription skips a seq number
 * sim[venue].faults.failHttp({ status: 503, count: 2, host: 'clob' })
 * sim[venue].faults.stall()                     // sockets stay open, nothing more is sent (not even PONG)
 */
export type SimHost = 'gamma' | 'clob' | 'data' | 'rest'

export interface HttpFailure {
  readonly status: number
  /** How many matching requests fail; Infinity for "until cleared". */
  count: number
  readonly host: SimHost | undefined
  readonly pathPrefix: string | undefined
  /** Body to send; defaults to the venue's error shape chosen by the server. */
  readonly body: string | undefined
}

export class FaultPlan {
  /** Added to every HTTP response of this venue (wall-clock ms). */
  latencyMs = 0
  #failures: HttpFailure[] = []
  #malformedBodies = 0
  #stalled = false
  #seqSkips = 0
  readonly #sockets = new Set<WebSocket>()
  /** Counters for assertions: what the simulator actually did. */
  readonly counters = { httpFailed: 0, malformedBodies: 0, socketsDropped: 0, malformedFrames: 0, seqSkipped: 0 }

  failHttp(options: { status: number; count?: number; host?: SimHost; pathPrefix?: string; body?: string }): void {
    this.#failures.push({
      status: options.status,
      count: options.count ?? 1,
      host: options.host,
      pathPrefix: options.pathPrefix,
      body: options.body,
    })
  }

  /** The next `count` JSON responses are cut short (invalid JSON with a 200 status). */
  malformHttpBodies(count = 1): void {
    this.#malformedBodies += count
  }

  clearHttpFaults(): void {
    this.#failures = []
    this.#malformedBodies = 0
    this.latencyMs = 0
  }

  /** Consumes a matching HTTP failure, if any. Called by the router for every request. */
  takeHttpFailure(host: SimHost, path: string): HttpFailure | undefined {
    const i = this.#failures.findIndex(
      (f) => (f.host === undefined || f.host === host) && (f.pathPrefix === undefined || path.startsWith(f.pathPrefix)),
    )
    if (i < 0) return undefined
    const f = this.#failures[i] as HttpFailure
    f.count--
    if (f.count <= 0) this.#failures.splice(i, 1)
    this.counters.httpFailed++
    return f
  }

  takeMalformedBody(): boolean {
    if (this.#malformedBodies <= 0) return false
    this.#malformedBodies--
    this.counters.malformedBodies++
    return true
  }

  // ------------------------------------------------------------------------------------------ websockets

  register(socket: WebSocket): void {
    this.#sockets.add(socket)
    socket.once('close', () => this.#sockets.delete(socket))
  }

  get openSockets(): number {
    return this.#sockets.size
  }

  /** Abruptly terminates every socket (no close frame), like a network drop. */
  dropSockets(): void {
    for (const s of this.#sockets) {
      s.terminate()
      this.counters.socketsDropped++
    }
    this.#sockets.clear()
  }

  /** Sockets stay open but the venue goes silent: no data, no PONG, no heartbeat pings. */
  stall(): void {
    this.#stalled = true
  }

  resume(): void {
    this.#stalled = false
  }

  get stalled(): boolean {
    return this.#stalled
  }

  /** Sends one frame that is not valid JSON to every open socket. */
  sendMalformedFrame(): void {
    for (const s of this.#sockets) {
      if (s.readyState === s.OPEN) {
        s.send('{"event_type":"book","asset_id":')
        this.counters.malformedFrames++
      }
    }
  }

  /** For a venue whose frames carry sequence numbers: the next data frame of each subscription skips `count` of them. */
  skipSequence(count = 1): void {
    this.#seqSkips += count
  }

  /** Called by a sequencing WS server when it assigns a seq: returns how many numbers to skip. */
  takeSequenceSkip(): number {
    const n = this.#seqSkips
    if (n > 0) {
      this.#seqSkips = 0
      this.counters.seqSkipped += n
    }
    return n
  }
}
