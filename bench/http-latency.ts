import { Agent, get } from 'node:http'
import { nearestRank } from './harness.js'

/**
 * Sequential full-response timings for large bodies (the sitemap), where the question is how long one client
 * waits for the whole document, not how many per second fit: one keep-alive connection, one request at a
 * time, each timed from sending the request to the last body byte.
 */
export interface LatencyResult {
  readonly p50Ms: number
  readonly p99Ms: number
  readonly maxMs: number
  readonly bytes: number
  readonly samples: number
}

export async function sequentialLatency(
  port: number,
  path: string,
  warmup: number,
  requests: number,
  headers: Readonly<Record<string, string>> = {},
): Promise<LatencyResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  try {
    for (let i = 0; i < warmup; i++) await timeOne(agent, port, path, headers)
    const times: number[] = []
    let bytes = 0
    for (let i = 0; i < requests; i++) {
      const r = await timeOne(agent, port, path, headers)
      times.push(r.ms)
      bytes = r.bytes
    }
    times.sort((a, b) => a - b)
    return {
      p50Ms: nearestRank(times, 0.5),
      p99Ms: nearestRank(times, 0.99),
      maxMs: times[times.length - 1] as number,
      bytes,
      samples: times.length,
    }
  } finally {
    agent.destroy()
  }
}

function timeOne(
  agent: Agent,
  port: number,
  path: string,
  headers: Readonly<Record<string, string>>,
): Promise<{ ms: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint()
    const req = get({ host: '127.0.0.1', port, path, agent, headers, timeout: 10_000 }, (res) => {
      let bytes = 0
      res.on('data', (c: Buffer) => (bytes += c.length))
      res.once('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`GET ${path}: ${res.statusCode}`))
        resolve({ ms: Number(process.hrtime.bigint() - start) / 1e6, bytes })
      })
      res.once('error', reject)
    })
    req.once('timeout', () => req.destroy(new Error(`GET ${path}: timed out`)))
    req.once('error', reject)
  })
}
