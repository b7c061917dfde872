import { spawn } from 'node:child_process'

/**
 * Runs wrk (the system's `/usr/bin/wrk`) once against a loopback URL and parses what the HTTP bench reports.
 * wrk is an external C load generator on purpose: a Node client on a 2-vCPU machine would cost about as much
 * CPU as the server it measures.
 */
export interface WrkOptions {
  readonly url: string
  readonly connections: number
  readonly threads: number
  readonly durationSec: number
  /** CPU list for `taskset -c` (e.g. "1"); unpinned when undefined. */
  readonly cpus?: string
  /** Request headers, e.g. { 'x-api-key': '…' }. */
  readonly headers?: Readonly<Record<string, string>>
}

export interface WrkResult {
  readonly requestsPerSec: number
  readonly requests: number
  /** Mean bytes per response, status line and headers included (wrk's "read" total / requests). */
  readonly bytesPerResponse: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly maxMs: number
  /** Socket errors (connect, read, write, timeout) plus non-2xx/3xx responses: any of these spoils the run. */
  readonly errors: number
  /** wrk's own CPU use (user + system over wall time, 1 = one core busy): near 1 with -t1 means client-bound. */
  readonly wrkCpu: number
  readonly raw: string
}

const UNIT_MS: Record<string, number> = { us: 1e-3, ms: 1, s: 1e3, m: 60e3, h: 3600e3 }
const UNIT_BYTES: Record<string, number> = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 }

/** Process groups of running wrk invocations, for killWrk() on an interrupted bench. */
const running = new Set<number>()

/** Kills every wrk still running (they run in their own process groups, out of reach of a terminal's ^C). */
export function killWrk(): void {
  for (const pgid of running) {
    try {
      process.kill(-pgid, 'SIGKILL')
    } catch {
      // already gone
    }
  }
  running.clear()
}

export function runWrk(o: WrkOptions): Promise<WrkResult> {
  const headerArgs = Object.entries(o.headers ?? {}).flatMap(([k, v]) => ['-H', `${k}: ${v}`])
  const wrkArgs = [
    '-t',
    String(o.threads),
    '-c',
    String(o.connections),
    '-d',
    `${o.durationSec}s`,
    '--timeout',
    '5s',
    '--latency',
    ...headerArgs,
    o.url,
  ]
  const argv = o.cpus === undefined ? ['wrk', ...wrkArgs] : ['taskset', '-c', o.cpus, 'wrk', ...wrkArgs]
  // bash's `time` reports the child's rusage on stderr, which Node's child_process does not expose.
  if (argv.some((a) => a.includes("'"))) throw new Error('wrk arguments must not contain single quotes')
  const script = `TIMEFORMAT='wrk-cpu %U %S %R'; time ${argv.map((a) => `'${a}'`).join(' ')}`
  return new Promise((resolve, reject) => {
    // Own process group, so the guard below kills wrk too, not just the shell around it.
    const child = spawn('bash', ['-c', script], { stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    let out = ''
    let err = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    // wrk stops itself after -d; this guard only bounds a wedged run.
    const pgid = child.pid as number
    running.add(pgid)
    const guard = setTimeout(() => process.kill(-pgid, 'SIGKILL'), (o.durationSec + 20) * 1000)
    child.once('error', (err) => {
      running.delete(pgid)
      clearTimeout(guard)
      reject(err)
    })
    child.once('exit', (code) => {
      running.delete(pgid)
      clearTimeout(guard)
      if (code !== 0) return reject(new Error(`wrk exited with ${code}:\n${out}${err}`))
      try {
        const cpu = /wrk-cpu ([\d.]+) ([\d.]+) ([\d.]+)/.exec(err)
        const wrkCpu = cpu === null ? NaN : (Number(cpu[1]) + Number(cpu[2])) / Number(cpu[3])
        resolve({ ...parseWrk(out), wrkCpu })
      } catch (err) {
        reject(err)
      }
    })
  })
}

export function parseWrk(out: string): Omit<WrkResult, 'wrkCpu'> {
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out)
  const total = /(\d+) requests in [\d.]+\w+, ([\d.]+)(\w+) read/.exec(out)
  if (rps === null || total === null) throw new Error(`cannot parse wrk output:\n${out}`)
  const requests = Number(total[1])
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out)
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out)
  const errors = (socket === null ? 0 : socket.slice(1).reduce((a, n) => a + Number(n), 0)) + Number(non2xx?.[1] ?? 0)
  return {
    requestsPerSec: Number(rps[1]),
    requests,
    bytesPerResponse: (Number(total[2]) * (UNIT_BYTES[total[3] as string] ?? NaN)) / requests,
    p50Ms: percentile(out, '50'),
    p99Ms: percentile(out, '99'),
    maxMs: maxLatency(out),
    errors,
    raw: out,
  }
}

/** The thread-stats line `Latency   1.02ms  300.00us  12.00ms   80.00%` (avg, stdev, max). */
function maxLatency(out: string): number {
  const m = /^\s+Latency\s+[\d.]+\w+\s+[\d.]+\w+\s+([\d.]+)(us|ms|s|m|h)\s/m.exec(out)
  if (m === null) throw new Error(`no latency stats in wrk output:\n${out}`)
  return Number(m[1]) * (UNIT_MS[m[2] as string] as number)
}

/** A line of wrk's `--latency` distribution, e.g. `     99%    3.21ms`. */
function percentile(out: string, pct: string): number {
  const m = new RegExp(`^\\s+${pct}(?:\\.0+)?%\\s+([\\d.]+)(us|ms|s|m|h)\\s*$`, 'm').exec(out)
  if (m === null) throw new Error(`no ${pct}% latency in wrk output:\n${out}`)
  return Number(m[1]) * (UNIT_MS[m[2] as string] as number)
}
