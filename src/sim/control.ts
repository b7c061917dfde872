import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FaultPlan, SimHost } from './faults.js'

/**
 * The standalone simulator's fault control: a small HTTP endpoint on 127.0.0.1 that drives each venue's FaultPlan
 * (faults.ts) from outside the process, so an operator (`npm run sim -- --fault stall --venue venuep`, fault-cli.ts)
 * or a test can rehearse a fault against a running service.
 *
 * It listens on the loopback interface only and refuses any peer that is not a loopback address: it can take every
 * venue down, and the simulator is a development tool, so there is no authentication and nothing to expose.
 *
 * `GET /faults`: every venue's fault state and counters. `POST /faults/<venue>/<fault>` (venue `all`: every venue)
 * with an optional JSON object body: the fault's parameters (FAULTS below), answered with the state after it.
 */
export const SIM_FAULTS = {
  dropSockets: 'terminate every open socket of the venue (no close frame), like a network drop',
  stall: 'keep the sockets open but send nothing at all, PONGs and heartbeats included, and ignore commands',
  resume: 'end a stall',
  skipSequence: 'the next data frame of each sequenced subscription skips `count` seq numbers (default 1)',
  sendMalformedFrame: 'send one frame that is not valid JSON to every open socket',
  failHttp:
    'answer the next `count` (default 1; 0 = until cleared) HTTP requests with `status` (e.g. 429, 503), optionally only on `host` and `path_prefix`',
  latency: 'add `ms` to every HTTP response of the venue (0 removes it)',
  malformHttpBodies: 'cut the next `count` (default 1) JSON responses short (invalid JSON with a 200)',
  clearHttpFaults: 'remove pending HTTP failures, malformed bodies and latency',
} as const

export type SimFaultName = keyof typeof SIM_FAULTS

export interface FaultParams {
  readonly count?: number
  readonly status?: number
  readonly ms?: number
  readonly host?: string
  readonly path_prefix?: string
}

const HOSTS: readonly SimHost[] = ['gamma', 'clob', 'data', 'rest']
const MAX_BODY_BYTES = 16 * 1024

export interface FaultControl {
  readonly port: number
  readonly url: string
  close(): Promise<void>
}

/** Applies one fault to a plan; throws a FaultRequestError when its parameters are wrong. */
export function applyFault(plan: FaultPlan, fault: SimFaultName, p: FaultParams): void {
  switch (fault) {
    case 'dropSockets':
      return plan.dropSockets()
    case 'stall':
      return plan.stall()
    case 'resume':
      return plan.resume()
    case 'skipSequence':
      return plan.skipSequence(positive(p.count, 'count', 1))
    case 'sendMalformedFrame':
      return plan.sendMalformedFrame()
    case 'failHttp': {
      if (p.status === undefined || !Number.isInteger(p.status) || p.status < 400 || p.status > 599)
        throw new FaultRequestError('failHttp needs `status`, an HTTP error status (400-599)')
      if (p.host !== undefined && !HOSTS.includes(p.host as SimHost))
        throw new FaultRequestError(`host must be one of ${HOSTS.join(', ')}`)
      const count = p.count === 0 ? Number.POSITIVE_INFINITY : positive(p.count, 'count', 1)
      return plan.failHttp({ status: p.status, count, host: p.host as SimHost | undefined, pathPrefix: p.path_prefix })
    }
    case 'latency':
      if (p.ms === undefined || !Number.isInteger(p.ms) || p.ms < 0 || p.ms > 600_000)
        throw new FaultRequestError('latency needs `ms`, an integer from 0 to 600000')
      plan.latencyMs = p.ms
      return
    case 'malformHttpBodies':
      return plan.malformHttpBodies(positive(p.count, 'count', 1))
    case 'clearHttpFaults':
      return plan.clearHttpFaults()
  }
}

export class FaultRequestError extends Error {}

function positive(value: number | undefined, name: string, def: number): number {
  if (value === undefined) return def
  if (!Number.isInteger(value) || value < 1 || value > 1_000_000)
    throw new FaultRequestError(`${name} must be an integer from 1 to 1000000`)
  return value
}

/** A venue's fault state, as the endpoint reports it. */
export function faultState(plan: FaultPlan): Record<string, unknown> {
  return {
    stalled: plan.stalled,
    open_sockets: plan.openSockets,
    latency_ms: plan.latencyMs,
    counters: { ...plan.counters },
  }
}

/** Starts the endpoint on 127.0.0.1:`port` (0: a free port). */
export async function startFaultControl(plans: ReadonlyMap<string, FaultPlan>, port: number): Promise<FaultControl> {
  const server = createServer((req, res) => {
    handle(plans, req, res).catch((err: unknown) => reply(res, 500, { error: String(err) }))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve())
  })
  const bound = (server.address() as AddressInfo).port
  return { port: bound, url: `http://127.0.0.1:${bound}`, close: () => closeServer(server) }
}

async function handle(plans: ReadonlyMap<string, FaultPlan>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const peer = req.socket.remoteAddress ?? ''
  if (!isLoopback(peer)) return reply(res, 403, { error: 'the fault control answers loopback clients only' })
  const path = new URL(req.url ?? '/', 'http://control.invalid').pathname
  const parts = path.split('/').filter((p) => p !== '')
  if (parts[0] !== 'faults' || parts.length > 3) return reply(res, 404, { error: 'not found', usage: usage(plans) })
  if (parts.length === 1) {
    if (req.method !== 'GET') return reply(res, 405, { error: 'GET /faults' })
    return reply(res, 200, states(plans))
  }
  if (req.method !== 'POST') return reply(res, 405, { error: 'POST /faults/<venue>/<fault>' })
  const [, venue, fault] = parts as [string, string, string | undefined]
  const targets = venue === 'all' ? [...plans.values()] : plans.has(venue) ? [plans.get(venue) as FaultPlan] : []
  if (targets.length === 0) return reply(res, 404, { error: `unknown venue ${venue}`, usage: usage(plans) })
  if (fault === undefined || !Object.hasOwn(SIM_FAULTS, fault))
    return reply(res, 404, { error: `unknown fault ${fault ?? ''}`, usage: usage(plans) })
  let params: FaultParams
  try {
    params = await readParams(req)
    for (const plan of targets) applyFault(plan, fault as SimFaultName, params)
  } catch (err) {
    if (err instanceof FaultRequestError) return reply(res, 400, { error: err.message })
    throw err
  }
  return reply(res, 200, { applied: fault, venue, ...states(plans) })
}

async function readParams(req: IncomingMessage): Promise<FaultParams> {
  let size = 0
  const chunks: Buffer[] = []
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) throw new FaultRequestError('body too large')
    chunks.push(chunk)
  }
  const text = Buffer.concat(chunks).toString('utf8').trim()
  if (text === '') return {}
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw new FaultRequestError('the body must be a JSON object')
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new FaultRequestError('the body must be a JSON object')
  const b = body as Record<string, unknown>
  const num = (k: string) => {
    const v = b[k]
    if (v === undefined) return undefined
    if (typeof v !== 'number') throw new FaultRequestError(`${k} must be a number`)
    return v
  }
  const str = (k: string) => {
    const v = b[k]
    if (v === undefined) return undefined
    if (typeof v !== 'string') throw new FaultRequestError(`${k} must be a string`)
    return v
  }
  return {
    count: num('count'),
    status: num('status'),
    ms: num('ms'),
    host: str('host'),
    path_prefix: str('path_prefix'),
  }
}

function states(plans: ReadonlyMap<string, FaultPlan>): Record<string, unknown> {
  return { venues: Object.fromEntries([...plans].map(([venue, plan]) => [venue, faultState(plan)])) }
}

function usage(plans: ReadonlyMap<string, FaultPlan>): Record<string, unknown> {
  return { venues: [...plans.keys(), 'all'], faults: SIM_FAULTS }
}

function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.')
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  const bytes = Buffer.from(JSON.stringify(body))
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': bytes.length })
  res.end(bytes)
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve())
    server.closeAllConnections()
  })
}
