import type { Server } from 'node:http'
import type { Clock } from '../../core/clock.js'
import type { FaultPlan } from '../faults.js'
import { listen, serverUrl, type SimRouter } from '../http-router.js'
import type { SimEngine } from '../world/engine.js'
import type { World } from '../world/world.js'
import { clobRouter } from './clob-rest.js'
import { ClobWsServer, WS_PATH } from './clob-ws.js'
import { dataRouter } from './data-api.js'
import { gammaRouter } from './gamma.js'
import { venuepOf } from './state.js'

/**
 * The venuep simulator: Gamma, CLOB (REST + `/ws/market`) and Data API as three loopback HTTP servers, because
 * the real hosts' paths overlap (`/markets` means different things on Gamma and CLOB). Everything is served
 * from the seeded world and moves with the engine; time comes only from the injected clock.
 *
 * @example
 * const sim = await startVenuepSim({ world, engine, clock, faults: new FaultPlan() })
 * await fetch(`${sim.urls.clob}/book?token_id=${venuepOf(world).markets[0].tokenIds[0]}`)
 * await sim.close()
 */
export interface VenuepSimOptions {
  readonly world: World
  readonly engine: SimEngine
  readonly clock: Clock
  readonly faults: FaultPlan
  /** Interface to bind; loopback by default. */
  readonly host?: string
  /** 0 (the default) picks a free port. */
  readonly ports?: { readonly gamma?: number; readonly clob?: number; readonly data?: number }
  /** Assets per WS connection that receive updates (the real venue's ~500). */
  readonly maxAssetsPerConnection?: number
  /** Ids in one subscription frame above which the socket is closed with 1009. */
  readonly maxIdsPerFrame?: number
  /** WS backlog per socket past which a slow consumer is terminated (16 MiB). */
  readonly maxBufferedBytes?: number
  /** Page size of CLOB `GET /markets` (1000 like the real host); tests shrink it to exercise the cursor. */
  readonly clobMarketsPageSize?: number
}

export interface VenuepSim {
  readonly urls: { readonly gamma: string; readonly clob: string; readonly data: string; readonly clobWs: string }
  readonly routers: { readonly gamma: SimRouter; readonly clob: SimRouter; readonly data: SimRouter }
  readonly ws: ClobWsServer
  /** Open market-channel WebSocket connections. */
  connections(): number
  close(): Promise<void>
}

export async function startVenuepSim(options: VenuepSimOptions): Promise<VenuepSim> {
  const { world, engine, clock, faults } = options
  const host = options.host ?? '127.0.0.1'
  const routers = {
    gamma: gammaRouter(world, clock, faults),
    clob: clobRouter(world, clock, faults, { marketsPageSize: options.clobMarketsPageSize }),
    data: dataRouter(world, clock, faults),
  }
  const ws = new ClobWsServer(world, engine, faults, {
    maxAssetsPerConnection: options.maxAssetsPerConnection ?? 500,
    maxIdsPerFrame: options.maxIdsPerFrame ?? 500,
    maxBufferedBytes: options.maxBufferedBytes,
  })
  const servers: Server[] = []
  try {
    servers.push(await listen(routers.gamma, host, options.ports?.gamma ?? 0))
    servers.push(await listen(routers.clob, host, options.ports?.clob ?? 0))
    servers.push(await listen(routers.data, host, options.ports?.data ?? 0))
  } catch (err) {
    ws.close()
    await Promise.all(servers.map(closeServer))
    throw err
  }
  const [gamma, clob, data] = servers as [Server, Server, Server]
  ws.attach(clob)
  let closed: Promise<void> | undefined
  return {
    urls: {
      gamma: serverUrl(gamma),
      clob: serverUrl(clob),
      data: serverUrl(data),
      clobWs: serverUrl(clob, 'ws') + WS_PATH,
    },
    routers,
    ws,
    connections: () => ws.connections,
    close: () => {
      closed ??= (async () => {
        ws.close()
        await Promise.all(servers.map(closeServer))
      })()
      return closed
    },
  }
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve())
    // Keep-alive clients would otherwise hold close() open for the keep-alive timeout.
    server.closeAllConnections()
  })
}
