import type { StreamClient } from '../../src/stream-client/stream-client.js'
import { nodeStreamClient } from '../../src/stream-client/node-client.js'
import { CONNECTIONS_PER_API_KEY } from './service.js'
import type { SoakTargets } from './targets.js'

/**
 * The stream half of the load: CLIENTS typed stream clients (the ones users get, src/stream-client/), all on
 * `spreads.top`, some also on quotes and books of matched instruments. Each counts what it saw: frames, `gap` and
 * `crcMismatch` events (the client asks for a snapshot on either; a healthy server gives none), reconnects, stale
 * and resync markers (the faults cause those), heartbeat timeouts.
 */
export const CLIENTS = 20
export const TOP_VIEW = 'limit=20'
const QUOTE_CLIENTS = 10
const QUOTE_KEYS = 5
const BOOK_CLIENTS = 5
const BOOK_KEYS = 2

export interface StreamStats {
  frames: number
  snapshots: number
  deltas: number
  markers: number
  gaps: number
  crcMismatches: number
  reconnects: number
  heartbeatTimeouts: number
  staleMarks: number
  errors: number
  /**
   * Reconnects and heartbeat timeouts while the soak was measuring the live heap (a forced full collection pauses
   * the service, at times past the clients' 3 s heartbeat timeout): the measurement's, counted apart.
   */
  reconnectsWhileMeasuring: number
  /** The first few gap, checksum and error events, in words. */
  readonly notes: string[]
}

export interface StreamLoad {
  readonly stats: StreamStats
  /** Clients open right now. */
  open(): number
  stop(): void
}

export async function startStreamLoad(
  port: number,
  apiKeys: readonly string[],
  targets: SoakTargets,
  t0: number,
  /** True while the soak measures the live heap (and for a few seconds after). */
  measuring: () => boolean,
): Promise<StreamLoad> {
  const stats: StreamStats = {
    frames: 0,
    snapshots: 0,
    deltas: 0,
    markers: 0,
    gaps: 0,
    crcMismatches: 0,
    reconnects: 0,
    heartbeatTimeouts: 0,
    staleMarks: 0,
    errors: 0,
    reconnectsWhileMeasuring: 0,
    notes: [],
  }
  const at = (): string => `${((Date.now() - t0) / 1000).toFixed(0)} s`
  const note = (s: string): void => {
    if (stats.notes.length < 20) stats.notes.push(`${at()}: ${s}`)
  }
  const clients: StreamClient[] = []
  for (let i = 0; i < CLIENTS; i++) {
    const client = nodeStreamClient({
      url: `ws://127.0.0.1:${port}/api/v2/stream`,
      apiKey: apiKeys[Math.floor(i / CONNECTIONS_PER_API_KEY)] as string,
    })
    client.on('frame', () => stats.frames++)
    client.on('snapshot', () => stats.snapshots++)
    client.on('delta', () => stats.deltas++)
    client.on('marker', () => stats.markers++)
    client.on('stale', (s) => {
      if (s.stale) stats.staleMarks++
    })
    client.on('gap', (g) => {
      stats.gaps++
      note(`client ${i} gap on ${g.ch} ${g.key}: held ${g.held?.seq ?? '-'}, got ${g.got.type} seq ${g.got.seq}`)
    })
    client.on('crcMismatch', (c) => {
      stats.crcMismatches++
      note(`client ${i} crc mismatch on ${c.ch} ${c.key}`)
    })
    client.on('reconnectScheduled', (r) => {
      if (measuring()) stats.reconnectsWhileMeasuring++
      else {
        stats.reconnects++
        note(`client ${i} reconnect after close ${r.code}`)
      }
    })
    client.on('heartbeatTimeout', () => {
      if (!measuring()) stats.heartbeatTimeouts++
    })
    client.on('error', (e) => {
      stats.errors++
      note(`client ${i} error ${e.code}: ${e.message}`)
    })
    clients.push(client)
    await client.connect()
    await client.subscribe('spreads.top', [TOP_VIEW])
    if (i < QUOTE_CLIENTS) await client.subscribe('quote', keysFor(targets, i, QUOTE_KEYS))
    if (i < BOOK_CLIENTS) await client.subscribe('book', keysFor(targets, i + 100, BOOK_KEYS), { depth: 10 })
  }
  return {
    stats,
    open: () => clients.filter((c) => c.state === 'open').length,
    stop() {
      for (const c of clients) c.close()
    },
  }
}

/** `n` keys for client `i`, alternating venues, spread over the matched instruments. */
function keysFor(t: SoakTargets, i: number, n: number): string[] {
  return Array.from({ length: n }, (_, j) =>
    j % 2 === 0
      ? `venuep:${t.venuepTokens[(i * n + j) % t.venuepTokens.length] as string}`
      : `venuek:${t.venuekTickers[(i * n + j) % t.venuekTickers.length] as string}`,
  )
}
