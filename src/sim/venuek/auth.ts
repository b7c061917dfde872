import { constants, createPublicKey, verify, type KeyObject } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import type { Clock } from '../../core/clock.js'

/**
 * Server-side check of venuek's signed requests (venuek.md §1): RSA-PSS/SHA-256 with a 32-byte salt over
 * `timestamp + METHOD + path`, the timestamp in Unix ms within `maxSkewMs` of the simulator's clock. Written
 * independently of the client signer in src/venues/venuek/signing.ts, so a mistake in one is caught by the
 * other (and by the venue's official client in the tests).
 */
export type AuthFailure = 'missing_signature' | 'unknown_key' | 'stale_timestamp' | 'bad_signature'

export const DEFAULT_MAX_SKEW_MS = 5_000

const KEY = 'kalshi-access-key'
const TIMESTAMP = 'kalshi-access-timestamp'
const SIGNATURE = 'kalshi-access-signature'

/** The 401 bodies the venue sends (verbatim demo captures). */
export const AUTH_FAILURE_BODIES: Readonly<Record<AuthFailure, unknown>> = {
  bad_signature: {
    error: { code: 'authentication_error', message: 'authentication_error', details: 'INCORRECT_API_KEY_SIGNATURE' },
  },
  unknown_key: { error: { code: 'authentication_error', message: 'authentication_error', details: 'NOT_FOUND' } },
  stale_timestamp: { error: { code: 'header_timestamp_expired', message: 'header timestamp expired' } },
  missing_signature: {
    error: { code: 'signature_is_missing_from_headers', message: 'signature is missing from headers' },
  },
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name]
  const s = Array.isArray(v) ? v[0] : v
  return s === undefined || s.length === 0 ? undefined : s
}

export class SignatureVerifier {
  readonly #keys = new Map<string, KeyObject>()
  readonly #maxSkewMs: number
  readonly #clock: Clock

  /** `publicKeys`: key id → RSA public key PEM. Parsed once here, so a bad PEM fails at startup. */
  constructor(publicKeys: ReadonlyMap<string, string>, maxSkewMs: number, clock: Clock) {
    for (const [id, pem] of publicKeys) this.#keys.set(id, createPublicKey(pem))
    this.#maxSkewMs = maxSkewMs
    this.#clock = clock
  }

  /** Whether the request tries to authenticate at all (public market data needs no headers). */
  static attempted(headers: IncomingHttpHeaders): boolean {
    return (
      header(headers, KEY) !== undefined ||
      header(headers, TIMESTAMP) !== undefined ||
      header(headers, SIGNATURE) !== undefined
    )
  }

  /**
   * Undefined when the request is properly signed. Checks run in the order a server can afford them: header
   * presence, key lookup, timestamp window, and only then the RSA verification. A missing or unparsable
   * timestamp counts as expired (the venue's wording for that case is not known).
   */
  verify(headers: IncomingHttpHeaders, method: string, path: string): AuthFailure | undefined {
    const signature = header(headers, SIGNATURE)
    if (signature === undefined) return 'missing_signature'
    const keyId = header(headers, KEY)
    const key = keyId === undefined ? undefined : this.#keys.get(keyId)
    if (key === undefined) return 'unknown_key'
    const timestamp = header(headers, TIMESTAMP)
    if (timestamp === undefined || !/^\d{1,16}$/.test(timestamp)) return 'stale_timestamp'
    if (Math.abs(this.#clock.now() - Number(timestamp)) > this.#maxSkewMs) return 'stale_timestamp'
    const payload = Buffer.from(timestamp + method.toUpperCase() + path, 'utf8')
    let ok = false
    try {
      ok = verify(
        'sha256',
        payload,
        { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 },
        Buffer.from(signature, 'base64'),
      )
    } catch {
      ok = false
    }
    return ok ? undefined : 'bad_signature'
  }
}
