import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * A real `nats-server` (Debian's package; `.ci/run` installs it) for the scale-out tests: loopback only, JetStream on,
 * its store in a temporary directory. `stop` and `start` again keep the port and the store, as a broker restarted by
 * its supervisor would; `close` removes the store.
 */
export class NatsServer {
  readonly port: number
  readonly storeDir: string
  /** The HTTP monitoring port (`/varz`: message counts), when asked for. */
  readonly monitorPort: number | undefined
  #child: ChildProcess | undefined
  #output = ''
  readonly #configArgs: readonly string[]

  private constructor(port: number, storeDir: string, configArgs: readonly string[], monitorPort: number | undefined) {
    this.port = port
    this.storeDir = storeDir
    this.#configArgs = configArgs
    this.monitorPort = monitorPort
  }

  /**
   * `maxPayload`: the server's max_payload in bytes (default 1 MB), to test what must fit under it. `monitor`: an HTTP
   * monitoring port (`/varz`), for benches that count the broker's messages.
   */
  static async start(o: { readonly maxPayload?: number; readonly monitor?: boolean } = {}): Promise<NatsServer> {
    const storeDir = mkdtempSync(join(tmpdir(), 'predmkt-nats-'))
    const configArgs: string[] = []
    if (o.maxPayload !== undefined) {
      // Settings without a command-line flag go in a config file (kept beside the store, removed with it).
      const file = join(storeDir, 'nats.conf')
      writeFileSync(file, `max_payload: ${o.maxPayload}\n`)
      configArgs.push('-c', file)
    }
    const monitor = o.monitor === true ? await freePort() : undefined
    const server = new NatsServer(await freePort(), storeDir, configArgs, monitor)
    await server.restart()
    return server
  }

  /** The server's process id while it runs. */
  get pid(): number | undefined {
    return this.#child?.pid
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`
  }

  output(): string {
    return this.#output
  }

  /** Starts the server (again) on the same port and store; resolves once it accepts clients. */
  async restart(): Promise<void> {
    if (this.#child !== undefined) throw new Error('nats-server is already running')
    const args = [...this.#configArgs, '-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.storeDir]
    if (this.monitorPort !== undefined) args.push('-m', String(this.monitorPort))
    const child = spawn('nats-server', args, {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    this.#child = child
    child.stdout?.on('data', (d: Buffer) => (this.#output += d.toString()))
    child.stderr?.on('data', (d: Buffer) => (this.#output += d.toString()))
    const deadline = Date.now() + 15_000
    while (!/Server is ready/.test(this.#output)) {
      if (child.exitCode !== null) throw new Error(`nats-server exited:\n${this.#output.slice(-2000)}`)
      if (Date.now() > deadline) throw new Error(`nats-server not ready:\n${this.#output.slice(-2000)}`)
      await new Promise((r) => setTimeout(r, 50))
    }
  }

  /** Stops the server (SIGTERM; SIGKILL after 5 s); the store stays for `restart`. */
  async stop(): Promise<void> {
    const child = this.#child
    this.#child = undefined
    this.#output = ''
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
      setTimeout(() => child.kill('SIGKILL'), 5_000).unref()
    })
  }

  async close(): Promise<void> {
    await this.stop()
    rmSync(this.storeDir, { recursive: true, force: true })
  }
}

/** A port nothing listens on now (the kernel's pick, released at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })
}
