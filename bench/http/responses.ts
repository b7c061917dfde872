import { get as httpGet } from 'node:http'
import type { Ctx } from './context.js'
import type { ThroughputScenario } from './scenarios.js'

/** Reading the service's response as sent, and checking that the bare server answers alike. */

export interface ServiceResponse {
  readonly status: number
  /** The bytes as sent (compressed when the request asked for a coding). */
  readonly body: Buffer
  /** What the route wrote, without the headers uWS adds itself (Date, Content-Length, its own). */
  readonly headers: readonly [string, string][]
}

/** The API key, the scenario's own headers and, for a revalidation, the ETag the service gives now. */
export async function scenarioHeaders(s: ThroughputScenario, path: string, ctx: Ctx): Promise<Record<string, string>> {
  const headers = { ...ctx.headers, ...s.requestHeaders }
  if (s.revalidate !== true) return headers
  const first = await serviceResponse(path, headers, ctx)
  const etag = first.headers.find(([name]) => name === 'etag')?.[1]
  if (etag === undefined) throw new Error(`GET ${path}: no ETag to revalidate with`)
  return { ...headers, 'if-none-match': etag }
}

export async function serviceResponse(
  path: string,
  headers: Readonly<Record<string, string>>,
  ctx: Ctx,
  expectStatus = 200,
): Promise<ServiceResponse> {
  const res = await rawGet(ctx.port, path, headers)
  if (res.status !== expectStatus)
    throw new Error(`GET ${path}: ${res.status}, expected ${expectStatus}: ${res.body.toString().slice(0, 500)}`)
  return { status: res.status, body: res.body, headers: res.headers.filter(([k]) => !UWS_HEADERS.has(k)) }
}

/**
 * One GET with node:http on a connection of its own: the bytes as sent (fetch would decompress them) and every
 * header line, names lowercase, in order.
 */
function rawGet(
  port: number,
  path: string,
  headers: Readonly<Record<string, string>>,
): Promise<{ status: number; headers: [string, string][]; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpGet({ host: '127.0.0.1', port, path, headers, agent: false, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.once('end', () => {
        const pairs: [string, string][] = []
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2)
          pairs.push([(res.rawHeaders[i] as string).toLowerCase(), res.rawHeaders[i + 1] as string])
        resolve({ status: res.statusCode ?? 0, headers: pairs, body: Buffer.concat(chunks) })
      })
      res.once('error', reject)
    })
    req.once('timeout', () => req.destroy(new Error(`GET ${path}: timed out`)))
    req.once('error', reject)
  })
}

const UWS_HEADERS = new Set(['date', 'content-length', 'uwebsockets', 'connection', 'keep-alive'])

/**
 * Same status and header names from both servers (values may move, e.g. a rate-limit count or a live page's
 * ETag), the same content-type and content-encoding, bodies of the same size. The service's bytes may move
 * between requests (live prices change a digit here and there), so the bodies are not compared exactly.
 */
export async function sameResponse(
  path: string,
  servicePort: number,
  barePort: number,
  headers: Readonly<Record<string, string>>,
): Promise<void> {
  const [a, b] = await Promise.all([rawGet(servicePort, path, headers), rawGet(barePort, path, headers)])
  const value = (r: typeof a, name: string) => r.headers.find(([k]) => k === name)?.[1]
  const describe = (r: typeof a) =>
    `${r.status} ${r.headers.map(([k]) => k).join(',')}; content-type ${value(r, 'content-type')}; content-encoding ${value(r, 'content-encoding')}`
  if (describe(a) !== describe(b))
    throw new Error(`bare and service responses differ for ${path}: ${describe(a)} vs ${describe(b)}`)
  if (Math.abs(a.body.length - b.body.length) > b.body.length * 0.05)
    throw new Error(`bare and service body sizes differ for ${path}: ${a.body.length} vs ${b.body.length}`)
}

/** Bytes ≥ 0x80: V8 encodes a string with any of them to UTF-8 on a slower path than pure ASCII. */
export function nonAscii(body: Buffer): number {
  let n = 0
  for (const b of body) if (b >= 0x80) n++
  return n
}
