import type { Clock } from '../core/clock.js'
import type { ClaimedDelivery } from '../store/alert-deliveries-repo.js'
import { postPinned } from './pinned-post.js'
import type { SendOutcome, Sender } from './sender.js'
import { SIGNATURE_HEADER, signWebhook, TIMESTAMP_HEADER } from './webhook-signature.js'
import type { TargetCheck, WebhookTargets } from './webhook-target.js'

/**
 * Webhook deliveries: the payload POSTed as JSON to the rule's URL, signed (webhook-signature.ts), with a
 * timeout. Any 2xx is success; anything else, a redirect (not followed: the target is what the user registered,
 * and a redirect could point anywhere), a timeout or a network error is a failure the worker retries. Headers
 * besides the signature: `X-Alert-Delivery-Id` (stable across retries: receivers deduplicate on it),
 * `X-Alert-Event` (`alert.fired` | `alert.test`) and `X-Alert-Attempt` (1, 2, …).
 *
 * Every attempt first checks the target again (webhook-target.ts: DNS may have changed since the rule was
 * created) and then connects only to the addresses it checked (pinned-post.ts). A target that is not allowed fails
 * the delivery at once, permanently, with `target_not_allowed: …` in its `last_error`: retrying would ask the
 * same question of the same DNS, and a name that points into our network is a misconfiguration or an attack, not
 * an outage. A name that does not resolve, or a lookup that fails, is retried like any network error.
 *
 * The timeout is wall-clock time (`AbortSignal.timeout`), like every network timeout of the service: it bounds
 * waiting on a socket, which simulated time does not move. It covers the whole attempt, DNS included.
 */
export const DELIVERY_ID_HEADER = 'x-alert-delivery-id'
export const EVENT_HEADER = 'x-alert-event'
export const ATTEMPT_HEADER = 'x-alert-attempt'
const USER_AGENT = 'predmkt-alerts/1.0'
/** Characters of a failing receiver's response kept in `last_error`. */
const ERROR_BODY_CHARS = 200

/** The stable prefix of `last_error` for a delivery refused by the target check. */
const TARGET_NOT_ALLOWED = 'target_not_allowed'

export interface WebhookSenderOptions {
  readonly clock: Clock
  readonly timeoutMs: number
  /** The target check (policy and resolver), shared with rule creation. */
  readonly targets: WebhookTargets
}

export class WebhookSender implements Sender {
  readonly #o: WebhookSenderOptions

  constructor(options: WebhookSenderOptions) {
    this.#o = options
  }

  async send(d: ClaimedDelivery, signal: AbortSignal): Promise<SendOutcome> {
    if (d.signingSecret === null)
      return { ok: false, error: 'the rule has no signing secret', responseStatus: null, permanent: true }
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
    const timeout = AbortSignal.timeout(this.#o.timeoutMs)
    const abort = AbortSignal.any([signal, timeout])
    const target = await this.#o.targets.check(d.target, abort)
    if (!target.ok) return this.#refused(target, signal, timeout)
    try {
      const res = await postPinned({
        url: target.url,
        addresses: target.addresses,
        headers,
        body,
        signal: abort,
        maxErrorBytes: ERROR_BODY_CHARS * 4,
      })
      if (res.status >= 200 && res.status < 300) return { ok: true, responseStatus: res.status }
      const text = res.status >= 300 && res.status < 400 ? '(redirects are not followed)' : res.text
      const snippet = text.trim().slice(0, ERROR_BODY_CHARS)
      return {
        ok: false,
        error: `HTTP ${res.status}${snippet === '' ? '' : `: ${snippet}`}`,
        responseStatus: res.status,
        permanent: false,
      }
    } catch (err) {
      return { ok: false, error: this.#describe(err, signal, timeout), responseStatus: null, permanent: false }
    }
  }

  /** A target that failed its check: refused is permanent; a name without an address or a failed lookup is retried. */
  #refused(t: Extract<TargetCheck, { ok: false }>, signal: AbortSignal, timeout: AbortSignal): SendOutcome {
    if (signal.aborted || timeout.aborted)
      return { ok: false, error: this.#describe(undefined, signal, timeout), responseStatus: null, permanent: false }
    if (t.kind === 'refused')
      return { ok: false, error: `${TARGET_NOT_ALLOWED}: ${t.reason}`, responseStatus: null, permanent: true }
    if (t.kind === 'invalid')
      return { ok: false, error: `target_invalid: ${t.reason}`, responseStatus: null, permanent: true }
    return { ok: false, error: `dns: ${t.reason}`, responseStatus: null, permanent: false }
  }

  #describe(err: unknown, signal: AbortSignal, timeout: AbortSignal): string {
    if (signal.aborted) return 'aborted: the service shut down during the attempt'
    if (timeout.aborted) return `timeout: no response within ${this.#o.timeoutMs} ms`
    // The socket's error, e.g. "connect ECONNREFUSED 127.0.0.1:9".
    return `network error: ${err instanceof Error ? err.message : String(err)}`
  }
}
