import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { after, before, test } from 'node:test'
import { outputMatch, SIM_JS, spawnNode, type Child } from '../helpers/processes.js'

/**
 * The standalone simulator's fault control (src/sim/control.ts) and its client, `npm run sim -- --fault …`
 * (src/sim/fault-cli.ts): a real simulator process on free ports, driven from outside over loopback HTTP.
 */
const run = promisify(execFile)
let sim: Child
let control: string

before(async () => {
  sim = spawnNode(SIM_JS, { SIM_PORT_BASE: '0', SIM_QUESTIONS: '40' })
  const m = await outputMatch(sim, /# Fault control \(loopback only\): (http:\/\/127\.0\.0\.1:\d+)\/faults/, 60_000)
  control = m[1] as string
})

after(async () => {
  await sim?.stop()
})

/** `npm run sim -- --fault …` without the build step: the same script with the same arguments. */
async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, [SIM_JS, ...args], { env: { ...process.env, SIM_CONTROL_URL: control } })
    return { code: 0, stdout: r.stdout, stderr: r.stderr }
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

type State = { venues: Record<string, { stalled: boolean; latency_ms: number; counters: Record<string, number> }> }

test('the control endpoint listens on 127.0.0.1 only and reports every venue', async () => {
  assert.match(control, /^http:\/\/127\.0\.0\.1:\d+$/)
  const r = await fetch(`${control}/faults`)
  assert.equal(r.status, 200)
  const body = (await r.json()) as State
  assert.deepEqual(Object.keys(body.venues).sort(), ['venuek', 'venuep'])
  // Not on the other interfaces: the same port on a non-loopback address of this host refuses the connection.
  const { networkInterfaces } = await import('node:os')
  const external = Object.values(networkInterfaces())
    .flat()
    .find((a) => a !== undefined && a.family === 'IPv4' && !a.internal)
  if (external !== undefined) {
    const port = new URL(control).port
    await assert.rejects(fetch(`http://${external.address}:${port}/faults`), 'not reachable off loopback')
  }
})

test('the CLI drives each fault: stall, resume, failHttp, latency, skipSequence, and says what it did', async () => {
  const stalled = await cli('--fault', 'stall', '--venue', 'venuep')
  assert.equal(stalled.code, 0, stalled.stderr)
  const state = JSON.parse(stalled.stdout) as State
  assert.equal(state.venues.venuep?.stalled, true)
  assert.equal(state.venues.venuek?.stalled, false)
  assert.equal(JSON.parse((await cli('--fault', 'resume', '--venue', 'venuep')).stdout).venues.venuep.stalled, false)
  const failing = await cli('--fault', 'failHttp', '--venue', 'venuek', '--status', '503', '--count', '1')
  assert.equal(failing.code, 0, failing.stderr)
  assert.equal(JSON.parse((await cli('--fault', 'latency', '--ms', '250')).stdout).venues.venuek.latency_ms, 250)
  assert.equal((await cli('--fault', 'skipSequence', '--venue', 'venuek', '--count', '2')).code, 0)
  assert.equal((await cli('--fault', 'clearHttpFaults')).code, 0)
  const status = JSON.parse((await cli('--fault', 'status')).stdout) as State
  assert.equal(status.venues.venuek?.latency_ms, 0)
})

test('a failHttp through the control endpoint reaches the simulated venue’s HTTP answers', async () => {
  const urls = /export VENUEK_REST_URL='([^']+)'/.exec(sim.output())
  assert.ok(urls !== null, 'the simulator printed venuek’s REST URL')
  const rest = urls[1] as string
  const res = await fetch(`${control}/faults/venuek/failHttp`, {
    method: 'POST',
    body: JSON.stringify({ status: 429, count: 1, host: 'rest' }),
  })
  assert.equal(res.status, 200)
  assert.equal((await fetch(`${rest}/exchange/status`)).status, 429)
  assert.notEqual((await fetch(`${rest}/exchange/status`)).status, 429, 'count 1: the next answer is normal')
})

test('bad requests: unknown fault or venue, bad parameters, wrong method; the CLI exits non-zero', async () => {
  assert.equal((await fetch(`${control}/faults/venuep/explode`, { method: 'POST' })).status, 404)
  assert.equal((await fetch(`${control}/faults/nowhere/stall`, { method: 'POST' })).status, 404)
  assert.equal((await fetch(`${control}/faults/venuep/stall`)).status, 405)
  const bad = await fetch(`${control}/faults/venuep/failHttp`, { method: 'POST', body: '{"status":200}' })
  assert.equal(bad.status, 400)
  assert.match(((await bad.json()) as { error: string }).error, /status/)
  assert.equal((await fetch(`${control}/faults/venuep/latency`, { method: 'POST', body: 'nope' })).status, 400)
  const unknown = await cli('--fault', 'explode')
  assert.equal(unknown.code, 2)
  assert.match(unknown.stderr, /unknown fault explode[\s\S]*dropSockets/)
  const failing = await cli('--fault', 'failHttp')
  assert.equal(failing.code, 1)
  assert.match(failing.stderr, /400/)
  const unreachable = await run(process.execPath, [
    SIM_JS,
    '--fault',
    'status',
    '--control-url',
    'http://127.0.0.1:1',
  ]).catch((err: { code: number; stderr: string }) => err)
  assert.equal((unreachable as { code: number }).code, 1)
  assert.match((unreachable as { stderr: string }).stderr, /cannot reach the simulator's fault control/)
})
