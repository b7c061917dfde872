import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http'
import type { FaultPlan, SimHost } from './faults.js'

/**
 * A tiny router for the simulator's REST hosts on node:http (deliberately not the service's own uWS stack, so
 * a bug in one cannot hide a bug in the other). Handlers return `{ status, body }`; bodies are JSON unless a
 * string is given. Fault knobs (latency, forced statuses, malformed bodies) apply before the handler runs.
 */
export interface SimRequest {
  readonly method: string
  readonly path: string
  readonly query: URLSearchParams
  readonly params: Readonly<Record<string, string>>
  readonly headers: IncomingHttpHeaders
  /** Parsed JSON body for POST requests (undefined when absent or not JSON). */
  readonly body: unknown
}

export interface SimResponse {
  readonly status: number
  readonly body: unknown
  readonly headers?: Readonly<Record<string, string>>
}

export type SimHandler = (req: SimRequest) => SimResponse | Promise<SimResponse>

interface Route {
  readonly method: string
  readonly parts: readonly string[]
  readonly handler: SimHandler
}

export interface RouterOptions {
  readonly host: SimHost
  readonly faults: FaultPlan
  /** The venue's error body for a status, used for injected failures and unknown routes. */
  readonly errorBody: (status: number, message: string) => unknown
  /** Optional hook run before routing (a peer's signature checks); returning a response short-circuits. */
  readonly before?: (req: SimRequest) => SimResponse | undefined
}

export class SimRouter {
  readonly #routes: Route[] = []
  readonly #options: RouterOptions
  /** Requests served per route pattern, for tests that count upstream calls. */
  readonly requestCounts = new Map<string, number>()

  constructor(options: RouterOptions) {
    this.#options = options
  }

  get(pattern: string, handler: SimHandler): this {
    this.#routes.push({ method: 'GET', parts: split(pattern), handler })
    return this
  }

  post(pattern: string, handler: SimHandler): this {
    this.#routes.push({ method: 'POST', parts: split(pattern), handler })
    return this
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sim.invalid')
    const path = url.pathname
    const body = req.method === 'POST' ? await readJson(req) : undefined
    const faults = this.#options.faults
    if (faults.latencyMs > 0) await new Promise((r) => setTimeout(r, faults.latencyMs))
    const failure = faults.takeHttpFailure(this.#options.host, path)
    if (failure !== undefined) {
      send(res, failure.status, failure.body ?? this.#options.errorBody(failure.status, 'simulated failure'), {})
      return
    }
    let response: SimResponse | undefined
    for (const route of this.#routes) {
      if (route.method !== req.method) continue
      const params = match(route.parts, path)
      if (params === undefined) continue
      const pattern = '/' + route.parts.join('/')
      this.requestCounts.set(pattern, (this.requestCounts.get(pattern) ?? 0) + 1)
      const simReq: SimRequest = {
        method: route.method,
        path,
        query: url.searchParams,
        params,
        headers: req.headers,
        body,
      }
      try {
        response = this.#options.before?.(simReq) ?? (await route.handler(simReq))
      } catch (err) {
        response = {
          status: 500,
          body: this.#options.errorBody(500, err instanceof Error ? err.message : 'internal error'),
        }
      }
      break
    }
    response ??= { status: 404, body: this.#options.errorBody(404, 'not found') }
    if (response.status === 200 && faults.takeMalformedBody()) {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify(response.body).slice(0, 20))
      return
    }
    send(res, response.status, response.body, response.headers ?? {})
  }
}

/** Starts a node:http server for `router` on host:port (port 0 = any free port). */
export async function listen(router: SimRouter, host: string, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    router.handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500)
      res.end()
    })
  })
  server.keepAliveTimeout = 5_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  return server
}

export function serverUrl(server: Server, scheme: 'http' | 'ws' = 'http'): string {
  const addr = server.address()
  if (addr === null || typeof addr === 'string') throw new Error('server is not listening on a TCP port')
  return `${scheme}://${addr.address}:${addr.port}`
}

/** Every value of a list parameter, accepting both repeated keys and comma-separated values. */
export function listParam(query: URLSearchParams, name: string): string[] {
  return query
    .getAll(name)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v.length > 0)
}

function send(res: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>>): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json', ...headers })
  res.end(text)
}

function split(pattern: string): string[] {
  return pattern.split('/').filter((p) => p.length > 0)
}

function match(parts: readonly string[], path: string): Record<string, string> | undefined {
  const segs = split(path)
  if (segs.length !== parts.length) return undefined
  const params: Record<string, string> = {}
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i] as string
    const s = segs[i] as string
    if (p.startsWith(':')) params[p.slice(1)] = decodeURIComponent(s)
    else if (p !== s) return undefined
  }
  return params
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > 4 * 1024 * 1024) return undefined
    chunks.push(chunk as Buffer)
  }
  if (size === 0) return undefined
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'))
  } catch {
    return undefined
  }
}
