import { constants, createPrivateKey, sign, type KeyObject } from 'node:crypto'

/**
 * venuek request signing (venuek.md §1): every authenticated REST call and the WebSocket handshake carry
 * `KALSHI-ACCESS-KEY`, `KALSHI-ACCESS-TIMESTAMP` (Unix ms) and `KALSHI-ACCESS-SIGNATURE`, the base64 RSA-PSS
 * (SHA-256, MGF1-SHA-256, salt length 32) signature of `timestamp + METHOD + path`. The path runs from the API
 * root without host or query string, e.g. `/trade-api/v2/markets` or `/trade-api/ws/v2`.
 */
export interface VenuekCredentials {
  /** API key id (a UUID on the real venue). */
  readonly keyId: string
  /** RSA private key, PEM (PKCS#1 or PKCS#8). */
  readonly privateKeyPem: string
}

/** Header names exactly as the venue expects them. */
export const VENUEK_KEY_HEADER = 'KALSHI-ACCESS-KEY'
export const VENUEK_TIMESTAMP_HEADER = 'KALSHI-ACCESS-TIMESTAMP'
export const VENUEK_SIGNATURE_HEADER = 'KALSHI-ACCESS-SIGNATURE'

/** The salt length is the SHA-256 digest length; the venue rejects other salt lengths. */
export const VENUEK_PSS_SALT_LENGTH = 32

/** Parsing a PEM costs far more than signing with it, so parsed keys are reused (a process has one or two). */
const KEY_CACHE_LIMIT = 8
const keyCache = new Map<string, KeyObject>()

function privateKey(pem: string): KeyObject {
  let key = keyCache.get(pem)
  if (key === undefined) {
    key = createPrivateKey(pem)
    if (keyCache.size >= KEY_CACHE_LIMIT) keyCache.delete(keyCache.keys().next().value as string)
    keyCache.set(pem, key)
  }
  return key
}

/**
 * The message the venue verifies. Exported so the simulator's verifier and the signer can never disagree.
 * A query string, if a caller passes one, is cut off: the venue signs the path only.
 */
export function signingPayload(timestamp: string, method: string, path: string): string {
  const q = path.indexOf('?')
  return timestamp + method.toUpperCase() + (q < 0 ? path : path.slice(0, q))
}

/**
 * The three `KALSHI-ACCESS-*` headers for `method` + `path` at `nowMs` (take it from the injected clock, so
 * tests can produce stale or skewed timestamps on purpose).
 *
 * @example
 * const headers = signRequest(creds, 'GET', '/trade-api/ws/v2', clock.now())
 * new WebSocket(url, { headers })
 */
export function signRequest(
  credentials: VenuekCredentials,
  method: string,
  path: string,
  nowMs: number,
): Record<string, string> {
  const timestamp = String(Math.trunc(nowMs))
  const signature = sign('sha256', Buffer.from(signingPayload(timestamp, method, path), 'utf8'), {
    key: privateKey(credentials.privateKeyPem),
    padding: constants.RSA_PKCS1_PSS_PADDING,
    saltLength: VENUEK_PSS_SALT_LENGTH,
  })
  return {
    [VENUEK_KEY_HEADER]: credentials.keyId,
    [VENUEK_TIMESTAMP_HEADER]: timestamp,
    [VENUEK_SIGNATURE_HEADER]: signature.toString('base64'),
  }
}
