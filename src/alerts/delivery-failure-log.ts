import type { Logger } from '../core/logger.js'
import { isoNoZone } from '../core/time.js'
import type { Channel } from './rule-types.js'
import type { ClaimedDelivery } from '../store/alert-deliveries-repo.js'

/**
 * The operator's view of a failed delivery: one warn line per failed attempt, so a webhook receiver that is down
 * or a missing SMTP server shows in the service log, not only in a user's `GET /api/v2/alerts/{id}/deliveries`.
 *
 * Per attempt rather than only the final failure: with the default policy the last attempt comes about an hour
 * after the first, and an operator wants to see a receiver failing while it fails. Each line says whether
 * another attempt follows (`will_retry`, `next_attempt_at`); a line with `will_retry: false` is the delivery's
 * end. The target appears only as its host (a webhook URL's `host:port`, an address's domain): URLs carry
 * tokens in their paths and queries, and an address is personal data; `rule_id` leads to the whole rule.
 */
export interface FailedAttempt {
  readonly delivery: ClaimedDelivery
  readonly maxAttempts: number
  /** What went wrong, as stored in the delivery's `last_error`. */
  readonly cause: string
  readonly responseStatus: number | null
  /** When the next attempt is due; undefined when none follows (permanent failure, or no attempts left). */
  readonly nextAttemptAt: number | undefined
}

export function logFailedAttempt(log: Logger, f: FailedAttempt): void {
  const d = f.delivery
  const retry = f.nextAttemptAt !== undefined
  const fields = {
    rule_id: d.ruleId,
    delivery_id: d.id,
    channel: d.channel,
    target_host: targetHost(d.channel, d.target),
    test_delivery: d.test,
    attempt: d.attempts,
    max_attempts: f.maxAttempts,
    will_retry: retry,
    ...(retry ? { next_attempt_at: isoNoZone(f.nextAttemptAt) } : {}),
    ...(f.responseStatus === null ? {} : { response_status: f.responseStatus }),
    cause: f.cause,
  }
  const message = retry
    ? 'alert delivery attempt failed; retrying'
    : d.attempts >= f.maxAttempts
      ? 'alert delivery failed: no attempts left'
      : 'alert delivery failed: not retried (retrying cannot help)'
  log.warn(fields, message)
}

/** Where a delivery went, without what identifies the recipient beyond the host. */
function targetHost(channel: Channel, target: string): string {
  if (channel === 'email') return target.slice(target.lastIndexOf('@') + 1)
  try {
    return new URL(target).host
  } catch {
    return '(not a URL)'
  }
}
