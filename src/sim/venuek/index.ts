import type { Clock } from '../../core/clock.js'
import type { FaultPlan } from '../faults.js'
import { listen, serverUrl, type SimRouter } from '../http-router.js'
import type { SimEngine } from '../world/engine.js'
import type { World } from '../world/world.js'
import { DEFAULT_MAX_SKEW_MS, SignatureVerifier } from './auth.js'
import { VenuekState } from './market-state.js'
import { createVenuekRouter, REST_PREFIX } from './rest.js'
import { VenuekWsServer, WS_PATH } from './ws.js'

/**
 * The venuek simulator: a protocol peer on loopback speaking venuek's Trade API v2 REST and WebSocket v2
 * (venuek.md) on one port, serving the seeded simulated world and the engine's live activity. Adapters and the
 * venue's official client talk to it exactly as to the real venue; only the base URLs differ.
 *
 * @example
 * const sim = await startVenuekSim({ world, engine, clock, faults, auth: { required: true, publicKeys } })
 * const markets = await fetch(`${sim.urls.rest}/markets?limit=5`).then((r) => r.json())
 * await sim.close()
 */
export interface VenuekSimOptions {
  readonly world: World
  readonly engine: SimEngine
  readonly clock: Clock
  readonly faults: FaultPlan
  /** Default 127.0.0.1. */
  readonly host?: string
  /** Default 0 (any free port). */
  readonly port?: number
  /**
   * Signature checking. Without it no request is verified. With it, signed REST requests are verified (market
   * data stays public) and, when `required`, every WS handshake must be signed.
   */
  readonly auth?: {
    readonly required: boolean
    /** Key id → RSA public key PEM. */
    readonly publicKeys: ReadonlyMap<string, string>
    /** Accepted |clock − timestamp|, default 5000 ms. */
    readonly maxSkewMs?: number
  }
  /** WS ping interval, default 10 000 ms (the venue's ~10 s). */
  readonly heartbeatMs?: number
}

export interface VenuekSim {
  readonly urls: {
    /** e.g. http://127.0.0.1:PORT/trade-api/v2 */
    readonly rest: string
    /** e.g. ws://127.0.0.1:PORT/trade-api/ws/v2 */
    readonly ws: string
  }
  readonly router: SimRouter
  /** Open WebSocket connections. */
  connections(): number
  close(): Promise<void>
}

const DEFAULT_HEARTBEAT_MS = 10_000

export async function startVenuekSim(options: VenuekSimOptions): Promise<VenuekSim> {
  const state = new VenuekState(options.world, options.clock)
  const auth = options.auth
  const verifier =
    auth === undefined
      ? undefined
      : new SignatureVerifier(auth.publicKeys, auth.maxSkewMs ?? DEFAULT_MAX_SKEW_MS, options.clock)
  const router = createVenuekRouter(state, options.faults, verifier)
  const server = await listen(router, options.host ?? '127.0.0.1', options.port ?? 0)
  const ws = new VenuekWsServer({
    state,
    engine: options.engine,
    faults: options.faults,
    verifier,
    authRequired: auth?.required ?? false,
    heartbeatMs: options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
  })
  ws.attach(server)
  let closing: Promise<void> | undefined
  return {
    urls: { rest: serverUrl(server, 'http') + REST_PREFIX, ws: serverUrl(server, 'ws') + WS_PATH },
    router,
    connections: () => ws.connections(),
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        ws.close()
        server.close(() => resolve())
        // Keep-alive HTTP connections would hold close() open until they time out.
        server.closeAllConnections()
      })),
  }
}
