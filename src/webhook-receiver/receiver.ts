import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  verifyWebhookSignature,
  type SignatureCheck,
} from '../alerts/webhook-signature.js'
import { ATTEMPT_HEADER, DELIVERY_ID_HEADER, EVENT_HEADER } from '../alerts/webhook-sender.js'

/**
 * A webhook receiver for trying alerts on one machine (`npm run webhook-receiver`, the README walk-through): it
 * accepts every POST on any path, checks the signature when it was given the rules' signing secrets, prints what
 * arrived, and answers 200 (401 when a signature it can check is wrong, so the service records that delivery as
 * failed, as a real receiver would refuse it). It is what a receiver has to do, in a few lines: read the raw body,
 * verify `X-Alert-Signature` over `<X-Alert-Timestamp>.<raw body>` (webhook-signature.ts), deduplicate on
 * `X-Alert-Delivery-Id` (not done here: it prints retries as they come).
 */
export interface ReceiverOptions {
  readonly host: string
  /** 0: any free port (tests). */
  readonly port: number
  /** Signing secrets (`whsec_…`) to check signatures against; a delivery is valid if one of them signed it. */
  readonly secrets: readonly string[]
  /** Where each delivery's lines go (stdout in the CLI). */
  readonly print: (text: string) => void
  /** Wall-clock seconds, for the signature's timestamp window. */
  readonly nowSec?: () => number
}

export interface Receiver {
  readonly url: string
  close(): Promise<void>
}

/** A delivery body is a few KB; anything much larger is not ours. */
const MAX_BODY_BYTES = 1 << 20

export async function startReceiver(o: ReceiverOptions): Promise<Receiver> {
  const nowSec = o.nowSec ?? (() => Date.now() / 1000)
  const server = createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST', 'content-type': 'text/plain' }).end('POST alert deliveries here\n')
      return
    }
    readBody(req).then(
      (body) => {
        if (body === undefined) {
          res.writeHead(413, { 'content-type': 'text/plain' }).end('body too large\n')
          return
        }
        const signature = checkSignature(o.secrets, req, body, nowSec())
        const status = signature === 'unchecked' || signature === 'valid' ? 200 : 401
        o.print(describeDelivery(req, body, signature, status))
        res
          .writeHead(status, { 'content-type': 'text/plain' })
          .end(status === 200 ? 'ok\n' : `signature ${signature}\n`)
      },
      () => res.destroy(),
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(o.port, o.host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const host = o.host.includes(':') ? `[${o.host}]` : o.host
  return {
    url: `http://${host}:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (c: Buffer) => {
      size += c.length
      if (size <= MAX_BODY_BYTES) chunks.push(c)
    })
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

function checkSignature(
  secrets: readonly string[],
  req: IncomingMessage,
  body: string,
  nowSec: number,
): SignatureCheck | 'unchecked' {
  if (secrets.length === 0) return 'unchecked'
  const timestamp = header(req, TIMESTAMP_HEADER)
  const signature = header(req, SIGNATURE_HEADER)
  const checks = secrets.map((secret) => verifyWebhookSignature(secret, timestamp, signature, body, nowSec))
  return checks.includes('valid') ? 'valid' : (checks[0] as SignatureCheck)
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name]
  return Array.isArray(v) ? v[0] : v
}

/**
 * What the receiver prints for one delivery: a line with the headers that matter, a line with the rule and the
 * spread it fired on, and the body as received.
 */
function describeDelivery(
  req: IncomingMessage,
  body: string,
  signature: SignatureCheck | 'unchecked',
  status: number,
): string {
  const signatureText = signature === 'unchecked' ? 'not checked (no WEBHOOK_SECRET)' : signature
  const head =
    `${new Date().toISOString()} POST ${req.url ?? '/'} ${header(req, EVENT_HEADER) ?? '(no event)'} ` +
    `delivery ${header(req, DELIVERY_ID_HEADER) ?? '?'} attempt ${header(req, ATTEMPT_HEADER) ?? '?'}: signature ${signatureText}; answered ${status}`
  return [head, ...summary(body), `  body: ${body}`].join('\n')
}

function summary(body: string): string[] {
  let payload: unknown
  try {
    payload = JSON.parse(body)
  } catch {
    return ['  (the body is not JSON)']
  }
  if (typeof payload !== 'object' || payload === null) return []
  const p = payload as { rule?: Record<string, unknown>; spread?: Record<string, unknown> | null }
  const lines: string[] = []
  const r = p.rule
  if (r !== undefined)
    lines.push(
      `  rule ${String(r.id)} of user ${String(r.user_id)}: ${String(r.trigger_type)} at ${String(r.threshold)}`,
    )
  const s = p.spread
  if (s === null) lines.push('  spread: none (a test delivery with no spread in scope)')
  else if (s !== undefined) {
    lines.push(
      `  spread ${String(s.spread)} on ${String(s.event_slug)} / ${String(s.outcome_title)}: ` +
        `${String(s.platform_a)} ${String(s.price_a)}, ${String(s.platform_b)} ${String(s.price_b)}`,
    )
  }
  return lines
}
