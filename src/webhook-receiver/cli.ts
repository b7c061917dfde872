import { startReceiver } from './receiver.js'

/**
 * `npm run webhook-receiver`: a local receiver for alert webhooks (receiver.ts), for the README walk-through and
 * for trying rules without a public endpoint. A separate program, not part of the service, so it reads its own
 * three variables:
 *
 * - WEBHOOK_RECEIVER_PORT (default 9999; 0 picks a free port) and WEBHOOK_RECEIVER_HOST (default 127.0.0.1);
 * - WEBHOOK_SECRET: the rule's `signing_secret` (several, comma-separated, for several rules); without it
 *   signatures are not checked.
 *
 * The service refuses loopback webhook targets unless told otherwise: start it with
 * ALERTS_WEBHOOK_ALLOWED_CIDRS=127.0.0.1/32 to deliver here.
 */
function main(): void {
  const env = process.env
  const port = Number(env.WEBHOOK_RECEIVER_PORT ?? 9999)
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    console.error(
      `WEBHOOK_RECEIVER_PORT must be a port number (0–65535), not ${JSON.stringify(env.WEBHOOK_RECEIVER_PORT)}`,
    )
    process.exit(2)
  }
  const host = env.WEBHOOK_RECEIVER_HOST ?? '127.0.0.1'
  const secrets = (env.WEBHOOK_SECRET ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
  startReceiver({ host, port, secrets, print: (text) => console.log(text) }).then(
    (receiver) => {
      const checking =
        secrets.length === 0
          ? 'signatures not checked (set WEBHOOK_SECRET=whsec_… to check them)'
          : `checking signatures against ${secrets.length} secret(s)`
      console.log(`webhook receiver listening on ${receiver.url} (any path); ${checking}`)
      console.log('the service delivers to loopback only when started with ALERTS_WEBHOOK_ALLOWED_CIDRS=127.0.0.1/32')
      const stop = () => {
        receiver.close().then(
          () => process.exit(0),
          () => process.exit(1),
        )
      }
      process.on('SIGTERM', stop)
      process.on('SIGINT', stop)
    },
    (err: unknown) => {
      console.error(
        `webhook receiver: cannot listen on ${host}:${port}: ${err instanceof Error ? err.message : String(err)}`,
      )
      process.exit(1)
    },
  )
}

main()
