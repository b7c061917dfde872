import { fork, type ChildProcess } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ClientsCommand } from './clients.js'

const CLIENTS_JS = join(dirname(fileURLToPath(import.meta.url)), 'clients.js')

/** The clients process (clients.ts), forked with an IPC channel; `do` sends a command and resolves with its answer. */
export class ClientsProcess {
  readonly child: ChildProcess
  readonly #pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  #seq = 0
  readonly #up: Promise<unknown>

  constructor() {
    this.child = fork(CLIENTS_JS, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    this.#up = new Promise((resolve, reject) => this.#pending.set(0, { resolve, reject }))
    this.child.on('message', (m: { seq: number; result?: unknown; error?: string }) => {
      const p = this.#pending.get(m.seq)
      this.#pending.delete(m.seq)
      if (m.error !== undefined) p?.reject(new Error(`clients process: ${m.error}`))
      else p?.resolve(m.result)
    })
    this.child.on('exit', (code) => {
      for (const p of this.#pending.values()) p.reject(new Error(`clients process exited (${code})`))
      this.#pending.clear()
    })
  }

  get pid(): number {
    return this.child.pid as number
  }

  async do<T>(command: ClientsCommand, timeoutMs = 120_000): Promise<T> {
    await this.#up
    const seq = ++this.#seq
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`clients process: ${command.op} timed out`)), timeoutMs)
      this.#pending.set(seq, {
        resolve: (v) => {
          clearTimeout(timer)
          resolve(v as T)
        },
        reject: (e) => {
          clearTimeout(timer)
          reject(e)
        },
      })
      this.child.send({ seq, command })
    })
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return
    await new Promise<void>((resolve) => {
      this.child.once('exit', () => resolve())
      this.child.kill('SIGKILL')
    })
  }
}
