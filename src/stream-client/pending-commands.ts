import type { Clock, TimerHandle } from '../core/clock.js'
import type { Command } from '../stream/protocol.js'
import { StreamCommandError } from './client-types.js'
import type { Transport } from './transport.js'
import type { AckFrame, PongFrame } from './wire.js'

/** A command as the client builds it; the `id` is given when it is sent. */
export type CommandBody = DistributiveOmit<Command, 'id'>
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never

interface Pending {
  resolve(frame: AckFrame | PongFrame): void
  reject(error: Error): void
  timer: TimerHandle
}

/**
 * The stream client's commands awaiting their answer: each sent with a fresh id (unique for the client's life, across
 * connections), answered by the `ack`, `pong` or `error` frame that carries that id, rejected with TIMEOUT if none
 * comes within `timeoutMs`, or with DISCONNECTED when the connection goes.
 */
export class PendingCommands {
  readonly #pending = new Map<number | string, Pending>()
  #nextId = 1

  constructor(
    private readonly clock: Clock,
    private readonly timeoutMs: number,
  ) {}

  send(transport: Transport, body: CommandBody): Promise<AckFrame | PongFrame> {
    const id = this.#nextId++
    return new Promise((resolve, reject) => {
      const timer = this.clock.setTimeout(() => {
        this.#pending.delete(id)
        reject(new StreamCommandError('TIMEOUT', `no answer to ${body.op} ${id}`))
      }, this.timeoutMs)
      this.#pending.set(id, { resolve, reject, timer })
      transport.send(JSON.stringify({ op: body.op, id, ...withoutUndefined(body) }))
    })
  }

  /** An `ack` or `pong` answered command `id` (an id no command waits for is ignored). */
  answer(id: number | string | undefined, frame: AckFrame | PongFrame): void {
    this.#take(id)?.resolve(frame)
  }

  /** An `error` frame answered command `id`: false if no command waits for that id (the error is the connection's). */
  refuse(id: number | string | null | undefined, error: StreamCommandError): boolean {
    const p = this.#take(id)
    p?.reject(error)
    return p !== undefined
  }

  /** The connection went: every command still waiting fails with DISCONNECTED. */
  disconnected(): void {
    for (const id of [...this.#pending.keys()])
      this.#take(id)?.reject(new StreamCommandError('DISCONNECTED', 'the connection closed before the answer'))
  }

  #take(id: number | string | null | undefined): Pending | undefined {
    if (id === undefined || id === null) return undefined
    const p = this.#pending.get(id)
    if (p === undefined) return undefined
    this.#pending.delete(id)
    this.clock.clearTimeout(p.timer)
    return p
  }
}

function withoutUndefined(o: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined))
}
