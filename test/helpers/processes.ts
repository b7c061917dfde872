import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import WebSocket from 'ws'
import { SERVICE_NODE_FLAGS } from '../../src/service-node-flags.js'

/** The service, the standalone simulator and the webhook receiver as child processes (tests of a whole process). */
const DIST = join(dirname(fileURLToPath(import.meta.url)), '../..')
export const MAIN_JS = join(DIST, 'src/main.js')
export const SIM_JS = join(DIST, 'src/sim/cli.js')
/** `npm run webhook-receiver`. */
export const WEBHOOK_RECEIVER_JS = join(DIST, 'src/webhook-receiver/cli.js')

export interface Child {
  readonly child: ChildProcess
  output(): string
  stop(): Promise<void>
}

/** Runs `script` in a node child; the service (MAIN_JS) with the flags it is deployed with (SERVICE_NODE_FLAGS). */
export function spawnNode(
  script: string,
  env: Record<string, string>,
  nodeArgs: string[] = [],
  scriptArgs: string[] = [],
): Child {
  const flags = script === MAIN_JS ? [...SERVICE_NODE_FLAGS, ...nodeArgs] : nodeArgs
  const child = spawn(process.execPath, [...flags, script, ...scriptArgs], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()))
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()))
  return {
    child,
    output: () => out,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref()
      }),
  }
}

/** Waits until `child`'s output matches `pattern`; returns the match. */
export async function outputMatch(child: Child, pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const m = pattern.exec(child.output())
    if (m !== null) return m
    if (Date.now() > deadline || child.child.exitCode !== null)
      throw new Error(`no ${pattern} in output:\n${child.output().slice(-2000)}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

/**
 * The standalone simulator (`npm run sim`, or `script`: the benches' variant with extra switches) and the environment
 * that points a service at it. Its world is laid out around the current minute (`SIM_CALENDAR`, unless `env` says):
 * the default calendar's world ages as the wall clock moves on (src/sim/world/calendar.ts), and a bench measures a
 * world of the size it asked for, whenever it runs.
 */
export async function startStandaloneSim(
  env: Record<string, string>,
  timeoutMs = 120_000,
  script = SIM_JS,
): Promise<{ sim: Child; serviceEnv: Record<string, string> }> {
  const sim = spawnNode(script, {
    SIM_CALENDAR: process.env.SIM_CALENDAR ?? `${new Date().toISOString().slice(0, 16)}Z`,
    ...env,
  })
  await outputMatch(sim, /# then: npm start/, timeoutMs)
  const serviceEnv: Record<string, string> = {}
  for (const m of sim.output().matchAll(/^export (\w+)='([^']*)'$/gm)) serviceEnv[m[1] as string] = m[2] as string
  return { sim, serviceEnv }
}

/** Polls /readyz until 200. */
export async function waitReady(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200) return
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`service on ${port} not ready after ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

/**
 * A DevTools-protocol session with a child started with `--inspect=127.0.0.1:0`: measures its heap from outside,
 * after a full garbage collection, with no hook in the service's own code.
 */
export class Inspector {
  readonly #ws: WebSocket
  readonly #pending = new Map<number, (result: unknown) => void>()
  #id = 0

  private constructor(ws: WebSocket) {
    this.#ws = ws
    ws.on('message', (data: Buffer) => {
      const m = JSON.parse(data.toString()) as { id?: number; result?: unknown }
      if (m.id !== undefined) this.#pending.get(m.id)?.(m.result)
    })
  }

  static async attach(child: Child): Promise<Inspector> {
    const [url] = await outputMatch(child, /ws:\/\/127\.0\.0\.1:\d+\/[\w-]+/, 30_000)
    const ws = new WebSocket(url as string)
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
    return new Inspector(ws)
  }

  call(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = ++this.#id
    return new Promise((resolve) => {
      this.#pending.set(id, resolve)
      this.#ws.send(JSON.stringify({ id, method, params }))
    })
  }

  /** Heap used after a full collection: what the process holds, not the garbage it has yet to collect. */
  async heapUsedAfterGc(): Promise<number> {
    await this.call('HeapProfiler.collectGarbage')
    const r = (await this.call('Runtime.evaluate', {
      expression: 'process.memoryUsage().heapUsed',
      returnByValue: true,
    })) as { result: { value: number } }
    return r.result.value
  }

  close(): void {
    this.#ws.close()
  }
}

/** A process's child processes (the service's: the embedded store's process), none when it has exited. */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)
  } catch {
    return []
  }
}

/** Whether a process has ended: gone, or a zombie (a killed orphan nobody reaps runs no code and holds no files). */
export function processGone(pid: number): boolean {
  try {
    return /^\S+ \(.*\) [ZX] /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return true
  }
}
