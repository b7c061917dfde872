import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { spawnNode, type Spawned } from '../process.js'
import type { Ctx } from './context.js'
import { pin } from './pinning.js'
import type { ServiceResponse } from './responses.js'

const HERE = dirname(fileURLToPath(import.meta.url))
const BARE_JS = join(HERE, '../bare-uws.js')

/**
 * Starts a bare uWS server (bare-uws.ts) answering every request with `response` (status, the route's headers,
 * the bytes as sent), pinned where the pinning puts the server under test; stopped by the caller.
 */
export async function startBare(response: ServiceResponse, ctx: Ctx): Promise<{ spawned: Spawned; port: number }> {
  const file = join(ctx.tmp, `body-${ctx.children.length}.json`)
  writeFileSync(file, response.body)
  const spawned = spawnNode(BARE_JS, {
    BARE_BODY_FILE: file,
    BARE_PORT: '0',
    BARE_BODY_AS: ctx.bareBody,
    BARE_HEADERS: JSON.stringify(response.headers),
    BARE_STATUS: String(response.status),
  })
  ctx.children.push(spawned)
  const deadline = Date.now() + 10_000
  for (;;) {
    const m = /^listening (\d+)$/m.exec(spawned.output())
    if (m !== null) {
      pin(spawned, ctx.pinning.servers)
      return { spawned, port: Number(m[1]) }
    }
    if (Date.now() > deadline || spawned.child.exitCode !== null)
      throw new Error(`bare uWS server did not start:\n${spawned.output()}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}
