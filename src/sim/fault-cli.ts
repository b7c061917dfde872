import { SIM_FAULTS } from './control.js'

/**
 * `npm run sim -- --fault <name> [--venue v] [--count n] [--status s] [--ms n] [--host h] [--path-prefix p]`: drives
 * a running standalone simulator's fault control (control.ts) from another terminal, e.g.
 * `npm run sim -- --fault stall --venue venuep`, later `--fault resume`. `--fault status` prints every venue's fault
 * state. Without `--venue` the fault applies to every venue. The endpoint is `--control-url`, else
 * `SIM_CONTROL_URL`, else http://127.0.0.1:<SIM_CONTROL_PORT or 7100>.
 */
export const DEFAULT_CONTROL_PORT = 7100

const VALUE_FLAGS = ['--fault', '--venue', '--count', '--status', '--ms', '--host', '--path-prefix', '--control-url']

export function wantsFaultCommand(argv: readonly string[]): boolean {
  return argv.includes('--fault')
}

/** Parses `--flag value` pairs; throws on an unknown flag or a missing value. */
export function parseFlags(argv: readonly string[]): Map<string, string> {
  const flags = new Map<string, string>()
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] as string
    const value = argv[i + 1]
    if (!VALUE_FLAGS.includes(flag)) throw new Error(`unknown option ${flag}`)
    if (value === undefined || value.startsWith('--')) throw new Error(`${flag} needs a value`)
    flags.set(flag, value)
    i++
  }
  return flags
}

export function controlUrl(flags: ReadonlyMap<string, string>, env: NodeJS.ProcessEnv): string {
  const explicit = flags.get('--control-url') ?? env.SIM_CONTROL_URL
  if (explicit !== undefined && explicit !== '') return explicit.replace(/\/+$/, '')
  return `http://127.0.0.1:${env.SIM_CONTROL_PORT ?? DEFAULT_CONTROL_PORT}`
}

function usage(): string {
  const faults = Object.entries(SIM_FAULTS)
    .map(([name, what]) => `  ${name.padEnd(20)} ${what}`)
    .join('\n')
  return `usage: npm run sim -- --fault <name|status> [--venue <venue>] [--count n] [--status s] [--ms n] [--host h] [--path-prefix p] [--control-url url]\nfaults:\n${faults}`
}

/** Runs one fault command; resolves to the process exit code. */
export async function runFaultCommand(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  let flags: Map<string, string>
  try {
    flags = parseFlags(argv)
  } catch (err) {
    console.error(`${(err as Error).message}\n${usage()}`)
    return 2
  }
  const fault = flags.get('--fault') as string
  if (fault !== 'status' && !Object.hasOwn(SIM_FAULTS, fault)) {
    console.error(`unknown fault ${fault}\n${usage()}`)
    return 2
  }
  const base = controlUrl(flags, env)
  const params: Record<string, unknown> = {}
  for (const [flag, key] of [
    ['--count', 'count'],
    ['--status', 'status'],
    ['--ms', 'ms'],
  ] as const) {
    const v = flags.get(flag)
    if (v === undefined) continue
    if (!/^\d+$/.test(v)) {
      console.error(`${flag} must be a whole number`)
      return 2
    }
    params[key] = Number(v)
  }
  if (flags.has('--host')) params.host = flags.get('--host')
  if (flags.has('--path-prefix')) params.path_prefix = flags.get('--path-prefix')
  const venue = flags.get('--venue') ?? 'all'
  const request =
    fault === 'status'
      ? fetch(`${base}/faults`)
      : fetch(`${base}/faults/${encodeURIComponent(venue)}/${fault}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(params),
        })
  let res: Response
  try {
    res = await request
  } catch (err) {
    console.error(`cannot reach the simulator's fault control at ${base} (is \`npm run sim\` running?): ${String(err)}`)
    return 1
  }
  const text = await res.text()
  if (!res.ok) {
    console.error(`${res.status}: ${text}`)
    return 1
  }
  process.stdout.write(`${JSON.stringify(JSON.parse(text), null, 2)}\n`)
  return 0
}
