import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

/**
 * What alerts are delivered to in tests: a webhook receiver (node:http) and a real SMTP server (`smtp-server`),
 * both on loopback port 0. Each records what arrived; the webhook answers with a status the test sets, or holds
 * requests unanswered (`hang`) to catch a delivery mid-flight.
 */
export interface ReceivedHook {
  readonly headers: IncomingHttpHeaders
  readonly body: string
  readonly path: string
}

export interface WebhookReceiver {
  readonly url: string
  readonly requests: ReceivedHook[]
  /** Status answered from now on, or `hang` (never answer until closed). */
  respondWith(mode: number | 'hang'): void
  close(): Promise<void>
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  let mode: number | 'hang' = 200
  const requests: ReceivedHook[] = []
  const held: ServerResponse[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      requests.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), path: req.url ?? '' })
      if (mode === 'hang') {
        held.push(res)
        return
      }
      res.writeHead(mode, { 'content-type': 'text/plain' }).end(mode >= 300 ? 'receiver says no' : 'ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks/spreads`,
    requests,
    respondWith: (m) => (mode = m),
    close: async () => {
      for (const res of held) res.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

export interface ReceivedMail {
  readonly from: string
  readonly to: readonly string[]
  readonly subject: string
  readonly text: string
  readonly headers: Readonly<Record<string, string>>
}

export interface SmtpReceiver {
  readonly port: number
  readonly messages: ReceivedMail[]
  close(): Promise<void>
}

/** A real SMTP server on loopback: plain SMTP, no TLS, no authentication. */
export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const messages: ReceivedMail[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        const parsed = parseMessage(Buffer.concat(chunks).toString('utf8'))
        const from = session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address
        messages.push({ from, to: session.envelope.rcptTo.map((a) => a.address), ...parsed })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as AddressInfo
  return { port, messages, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

/** Enough RFC 5322/2045 for our own plain-text mails: unfolded headers, encoded words, quoted-printable bodies. */
function parseMessage(raw: string): { subject: string; text: string; headers: Record<string, string> } {
  const split = raw.indexOf('\r\n\r\n')
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ')
  let body = raw.slice(split + 4)
  const headers: Record<string, string> = {}
  for (const line of head.split('\r\n')) {
    const i = line.indexOf(':')
    if (i > 0) headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim()
  }
  if ((headers['content-transfer-encoding'] ?? '').toLowerCase() === 'quoted-printable') {
    body = decodeQuotedPrintable(body.replace(/=\r\n/g, ''))
  } else if ((headers['content-transfer-encoding'] ?? '').toLowerCase() === 'base64') {
    body = Buffer.from(body, 'base64').toString('utf8')
  }
  return { subject: decodeWords(headers.subject ?? ''), text: body.replace(/\r\n/g, '\n'), headers }
}

function decodeQuotedPrintable(s: string): string {
  const bytes: number[] = []
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(s.slice(i + 1, i + 3))) {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16))
      i += 2
    } else bytes.push(...Buffer.from(s[i] as string, 'utf8'))
  }
  return Buffer.from(bytes).toString('utf8')
}

function decodeWords(s: string): string {
  return s
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, enc: string, text: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    )
}
