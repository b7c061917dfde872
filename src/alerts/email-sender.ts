import nodemailer, { type Transporter } from 'nodemailer'
import type { ClaimedDelivery } from '../store/alert-deliveries-repo.js'
import { emailMessage } from './email-message.js'
import type { SendOutcome, Sender } from './sender.js'

/**
 * E-mail deliveries over SMTP (nodemailer), when an SMTP server is configured (`alerts.smtp.url` or
 * `alerts.smtp.host`; `SMTP_URL`). Without one, every e-mail delivery fails at once with `smtp_not_configured`
 * rather than waiting forever for a server that is not coming.
 *
 * A 5xx reply from the mail server (mailbox unknown, message refused) is permanent; connection problems, timeouts
 * and 4xx replies are retried by the worker.
 */
export interface SmtpSettings {
  /** `smtp://user:pass@host:port` or `smtps://…`; wins over host/port/secure/user/password. */
  readonly url?: string | undefined
  readonly host?: string | undefined
  readonly port: number
  /** TLS from the first byte (port 465); otherwise STARTTLS is used when the server offers it. */
  readonly secure: boolean
  /** Refuse to send unless the connection is upgraded with STARTTLS. */
  readonly requireTls: boolean
  readonly user?: string | undefined
  readonly password?: string | undefined
  readonly from: string
  /** Connection, greeting and socket inactivity timeout. */
  readonly timeoutMs: number
}

export const SMTP_NOT_CONFIGURED =
  'smtp_not_configured: no SMTP server is configured (alerts.smtp.url or alerts.smtp.host; SMTP_URL)'

export function smtpConfigured(s: SmtpSettings): boolean {
  return s.url !== undefined || s.host !== undefined
}

export class EmailSender implements Sender {
  readonly #settings: SmtpSettings
  #transport: Transporter | undefined

  constructor(settings: SmtpSettings) {
    this.#settings = settings
  }

  async send(d: ClaimedDelivery): Promise<SendOutcome> {
    if (!smtpConfigured(this.#settings))
      return { ok: false, error: SMTP_NOT_CONFIGURED, responseStatus: null, permanent: true }
    const message = emailMessage(d.payload)
    try {
      await this.#transporter().sendMail({
        from: this.#settings.from,
        to: d.target,
        subject: message.subject,
        text: message.text,
        headers: { 'X-Alert-Delivery-Id': d.id },
      })
      return { ok: true, responseStatus: null }
    } catch (err) {
      const code =
        typeof err === 'object' && err !== null && 'responseCode' in err && typeof err.responseCode === 'number'
          ? err.responseCode
          : undefined
      const message = err instanceof Error ? err.message : String(err)
      return {
        ok: false,
        error: `smtp: ${message}`,
        responseStatus: null,
        permanent: code !== undefined && code >= 500,
      }
    }
  }

  close(): void {
    this.#transport?.close()
    this.#transport = undefined
  }

  #transporter(): Transporter {
    if (this.#transport !== undefined) return this.#transport
    const s = this.#settings
    const timeouts = { connectionTimeout: s.timeoutMs, greetingTimeout: s.timeoutMs, socketTimeout: s.timeoutMs }
    this.#transport =
      s.url !== undefined
        ? nodemailer.createTransport({ url: s.url, requireTLS: s.requireTls, ...timeouts })
        : nodemailer.createTransport({
            host: s.host,
            port: s.port,
            secure: s.secure,
            requireTLS: s.requireTls,
            ...(s.user === undefined ? {} : { auth: { user: s.user, pass: s.password ?? '' } }),
            ...timeouts,
          })
    return this.#transport
  }
}
