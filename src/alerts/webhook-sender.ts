import type { Clock } from '../core/clock.js'
import type { ClaimedDelivery } from '../store/alert-deliveries-repo.js'
import type { SendOutcome, Sender } from './sender.js'
import { SIGNATURE_HEADER, signWebhook, TIMESTAMP_HEADER } from './webhook-signature.js'

/**
 * Webhook deliveries: the payload POSTed as JSON to the rule's URL, signed (webhook-signature.ts), with a
 * timeout. Any 2xx is success; anything else, a redirect (not followed: the target is what the user registered),
 * a timeout or a network error is a failure the worker retries. Headers besides the signature:
 * `X-Alert-Delivery-Id` (stable across retries: receivers deduplicate on it), `X-Alert-Event`
 * (`alert.fired` | `alert.test`) and `X-Alert-Attempt` (1, 2, …).
 *
 * The timeout is wall-clock time (`AbortSignal.timeout`), like every network timeout of the service: it bounds
 * waiting on a socket, which simulated time does not move.
 */
export const DELIVERY_ID_HEADER = 'x-alert-delivery-id'
export const EVENT_HEADER = 'x-alert-event'
export const ATTEMPT_HEADER = 'x-alert-attempt'
const USER_AGENT = 'predmkt-alerts/1.0'
/** Characters of a failing receiver's response kept in `last_error`. */
const ERROR_BODY_CHARS = 200

export interface WebhookSenderOptions {
  readonly clock: Clock
  readonly timeoutMs: number
}

export class WebhookSender implements Sender {
  readonly #o: WebhookSenderOptions

  constructor(options: WebhookSenderOptions) {
    this.#o = options
  }

  async send(d: ClaimedDelivery, signal: AbortSignal): Promise<SendOutcome> {
    if (d.signingSecret === null) return { ok: false, error: 'the rule has no signing secret', responseStatus: null, permanent: true }
    const body = JSON.stringify(d.payload)
    const timestamp = Math.floor(this.#o.clock.now() / 1000)
    const headers = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      [DELIVERY_ID_HEADER]: d.id,
      [EVENT_HEADER]: String(d.payload.event),
      [ATTEMPT_HEADER]: String(d.attempts),
      [TIMESTAMP_HEADER]: String(timestamp),
      [SIGNATURE_HEADER]: signWebhook(d.signingSecret, timestamp, body),
    }
    try {
      const res = await fetch(d.target, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.any([signal, AbortSignal.timeout(this.#o.timeoutMs)]) })
      if (res.status >= 200 && res.status < 300) {
        await res.body?.cancel().catch(() => undefined)
        return { ok: true, responseStatus: res.status }
      }
      const text = res.status >= 300 && res.status < 400 ? '(redirects are not followed)' : await res.text().catch(() => '')
      const snippet = text.trim().slice(0, ERROR_BODY_CHARS)
      return { ok: false, error: `HTTP ${res.status}${snippet === '' ? '' : `: ${snippet}`}`, responseStatus: res.status, permanent: false }
    } catch (err) {
      return { ok: false, error: this.#describe(err, signal), responseStatus: null, permanent: false }
    }
  }

  #describe(err: unknown, signal: AbortSignal): string {
    if (signal.aborted) return 'aborted: the service shut down during the attempt'
    if (err instanceof Error && err.name === 'TimeoutError') return `timeout: no response within ${this.#o.timeoutMs} ms`
    // fetch wraps the socket error ("connect ECONNREFUSED 127.0.0.1:9") in a TypeError("fetch failed").
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : undefined
    return `network error: ${cause ?? (err instanceof Error ? err.message : String(err))}`
  }
}
