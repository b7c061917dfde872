import type { Logger } from '../core/logger.js'
import type { Channel } from './rule-types.js'
import { smtpConfigured, type SmtpSettings } from './email-sender.js'

/**
 * Whether this deployment can deliver on a channel now. An e-mail rule is accepted even without an SMTP server
 * (the operator may add one later, and the rule is evaluated meanwhile), but its deliveries fail with
 * `smtp_not_configured` until then, so the user is told when creating it (`delivery_status` in the
 * `POST /api/v2/alerts` answer) and the operator at boot (`warnIfEmailUnconfigured`).
 *
 * A webhook rule is always ready here: its target was checked when it was created (a refused one is a 422), and
 * whether the receiver answers is known only by delivering.
 */
export type ChannelReadiness =
  { readonly ready: true } | { readonly ready: false; readonly reason: 'smtp_not_configured'; readonly message: string }

const EMAIL_NOT_READY: ChannelReadiness = {
  ready: false,
  reason: 'smtp_not_configured',
  message:
    'This deployment has no SMTP server configured: the rule is stored and evaluated, but its e-mail deliveries fail ' +
    '(`smtp_not_configured` in GET /api/v2/alerts/{id}/deliveries) until the operator configures one.',
}
const READY: ChannelReadiness = { ready: true }

export function channelReadiness(channel: Channel, smtp: SmtpSettings): ChannelReadiness {
  return channel === 'email' && !smtpConfigured(smtp) ? EMAIL_NOT_READY : READY
}

/** The boot-time warning for the operator when e-mail rules can be created but not delivered. */
export function warnIfEmailUnconfigured(log: Logger, smtp: SmtpSettings): void {
  if (smtpConfigured(smtp)) return
  log.warn(
    { smtp_configured: false },
    'e-mail alerts are not configured: e-mail rules are accepted, but every e-mail delivery fails with smtp_not_configured ' +
      'until SMTP_URL is set (smtp://user:password@host:587 or smtps://…:465; sender address: SMTP_FROM)',
  )
}
