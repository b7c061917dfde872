import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * Webhook signatures. Every webhook POST carries
 *
 *   X-Alert-Timestamp: <Unix seconds when this attempt was signed>
 *   X-Alert-Signature: sha256=<hex HMAC-SHA256 of `${timestamp}.${body}` under the rule's signing secret>
 *
 * where `body` is the raw request body (bytes as received, before any JSON parsing) and the key is the secret
 * string exactly as shown at rule creation (`whsec_…`, UTF-8). A receiver recomputes the HMAC, compares in
 * constant time, and rejects timestamps too far from its clock (5 minutes is usual) so a captured request cannot
 * be replayed later. `verifyWebhookSignature` below is the reference implementation.
 */
export const TIMESTAMP_HEADER = 'x-alert-timestamp'
export const SIGNATURE_HEADER = 'x-alert-signature'
const SIGNATURE_PREFIX = 'sha256='

/** The `X-Alert-Signature` value for `body` signed at `timestampSec`. */
export function signWebhook(secret: string, timestampSec: number, body: string): string {
  return SIGNATURE_PREFIX + createHmac('sha256', secret).update(`${timestampSec}.${body}`).digest('hex')
}

export type SignatureCheck = 'valid' | 'bad_signature' | 'stale_timestamp' | 'malformed'

/**
 * Checks a received webhook: the signature must match and the timestamp must be within `toleranceSec` of
 * `nowSec`.
 *
 * @example
 * const check = verifyWebhookSignature(secret, req.headers['x-alert-timestamp'], req.headers['x-alert-signature'], rawBody, Date.now() / 1000)
 * if (check !== 'valid') return res.writeHead(400).end()
 */
export function verifyWebhookSignature(
  secret: string,
  timestampHeader: string | undefined,
  signatureHeader: string | undefined,
  body: string,
  nowSec: number,
  toleranceSec = 300,
): SignatureCheck {
  if (timestampHeader === undefined || signatureHeader === undefined || !/^\d{1,12}$/.test(timestampHeader))
    return 'malformed'
  if (!signatureHeader.startsWith(SIGNATURE_PREFIX)) return 'malformed'
  const expected = Buffer.from(signWebhook(secret, Number(timestampHeader), body))
  const given = Buffer.from(signatureHeader)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'bad_signature'
  return Math.abs(nowSec - Number(timestampHeader)) <= toleranceSec ? 'valid' : 'stale_timestamp'
}
