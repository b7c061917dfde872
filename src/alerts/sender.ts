import type { Channel } from './rule-types.js'
import type { ClaimedDelivery } from '../store/alert-deliveries-repo.js'

/**
 * One delivery channel (webhook, e-mail): sends one claimed outbox row and says how it went. A sender never
 * throws; every failure is an outcome, `permanent` when retrying cannot help (no SMTP server configured, a mail
 * server's 5xx rejection), so the worker marks it failed at once instead of using up its attempts.
 */
export type SendOutcome =
  | { readonly ok: true; readonly responseStatus: number | null }
  | { readonly ok: false; readonly error: string; readonly responseStatus: number | null; readonly permanent: boolean }

export interface Sender {
  /** `signal` aborts the attempt (graceful shutdown past its grace period). */
  send(delivery: ClaimedDelivery, signal: AbortSignal): Promise<SendOutcome>
  close?(): void
}

export type Senders = Readonly<Record<Channel, Sender>>
