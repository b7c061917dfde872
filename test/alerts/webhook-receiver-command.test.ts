import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { MAIN_JS, outputMatch, spawnNode, waitReady, WEBHOOK_RECEIVER_JS, type Child } from '../helpers/processes.js'
import { signUp } from '../helpers/service.js'

/**
 * The README walk-through's alert step, as processes on the wall clock: the service (`npm start`, built-in
 * simulator, with ALERTS_WEBHOOK_ALLOWED_CIDRS=127.0.0.1/32 as the walk-through says) and the receiver command
 * (`npm run webhook-receiver`). The walk-through's rule fires on the simulator and the receiver prints the
 * delivery; restarted with the rule's signing secret, it checks the signature of a test delivery. Also: the
 * service warns at boot that e-mail is not configured.
 */
/** Step 4 of the walk-through (the target is the receiver's URL). */
const WALKTHROUGH_RULE = {
  trigger_type: 'spread_threshold',
  threshold: 0.02,
  channel: 'webhook',
  scope: { platforms: ['venuep', 'venuek'], min_volume: 1000 },
  cooldown_seconds: 600,
}

interface PrintedDelivery {
  readonly event: string
  readonly deliveryId: string
  readonly attempt: string
  readonly signature: string
  readonly status: string
  readonly body: {
    id: string
    event: string
    rule: { id: string; user_id: string; threshold: number }
    spread: { spread: number; platform_a: string; platform_b: string; volume_min: number }
  }
}

/** The deliveries a receiver printed so far (its header line and its body line). */
function printed(receiver: Child): PrintedDelivery[] {
  const out: PrintedDelivery[] = []
  const pattern =
    /^\S+ POST \/spreads (\S+) delivery (\S+) attempt (\d+): signature (.+); answered (\d+)\n(?: {2}.*\n)*? {2}body: (.*)$/gm
  for (const m of receiver.output().matchAll(pattern)) {
    out.push({
      event: m[1]!,
      deliveryId: m[2]!,
      attempt: m[3]!,
      signature: m[4]!,
      status: m[5]!,
      body: JSON.parse(m[6]!) as PrintedDelivery['body'],
    })
  }
  return out
}

async function waitForDelivery(receiver: Child, event: string, timeoutMs: number): Promise<PrintedDelivery> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = printed(receiver).find((d) => d.event === event)
    if (found !== undefined) return found
    if (Date.now() > deadline)
      throw new Error(`no ${event} delivery printed within ${timeoutMs} ms:\n${receiver.output().slice(-2000)}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

async function startReceiver(env: Record<string, string>): Promise<{ receiver: Child; url: string }> {
  const receiver = spawnNode(WEBHOOK_RECEIVER_JS, env)
  const [, url] = await outputMatch(receiver, /webhook receiver listening on (http:\/\/127\.0\.0\.1:\d+\/)/, 10_000)
  return { receiver, url: url as string }
}

test(
  'the walk-through: a webhook rule fires on the simulator within a minute and the receiver command prints it, signature checked',
  { timeout: 4 * 60_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'webhook-receiver-'))
    const service = spawnNode(MAIN_JS, {
      PORT: '0',
      LOG_LEVEL: 'info',
      DATA_DIR: dir,
      SIM_QUESTIONS: '200',
      ALERTS_WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32',
    })
    let first: Child | undefined
    let second: Child | undefined
    try {
      let url: string
      ;({ receiver: first, url } = await startReceiver({ WEBHOOK_RECEIVER_PORT: '0' }))
      assert.match(first.output(), /signatures not checked \(set WEBHOOK_SECRET=whsec_… to check them\)/)
      const port = Number((await outputMatch(service, /"port":(\d+),"host"/, 60_000))[1])
      await waitReady(port, 120_000)
      const base = `http://127.0.0.1:${port}`
      const boot = service
        .output()
        .split('\n')
        .filter((l) => l.includes('"smtp_configured":false'))
      assert.equal(boot.length, 1, service.output().slice(-2000))
      assert.match(
        boot[0] as string,
        /"level":40,.*e-mail alerts are not configured: e-mail rules are accepted, but every e-mail delivery fails/,
      )

      const key = await signUp(base, 'ada@example.com', 'Analytical Engines', 'spread dashboards')
      const headers = { 'x-api-key': key, 'x-user-id': 'user-42', 'content-type': 'application/json' }
      const target = `${url}spreads`
      const res = await fetch(`${base}/api/v2/alerts`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ ...WALKTHROUGH_RULE, target }),
      })
      const rule = (await res.json()) as {
        id: string
        delivery_status: unknown
        signing_secret: string
        target: string
      }
      assert.equal(res.status, 201, JSON.stringify(rule))
      assert.deepEqual([rule.target, rule.delivery_status], [target, { ready: true }])

      // A new rule is checked against the current spreads at once, and even this small world has pairs 2 points apart:
      // the first firing comes within seconds (a minute allowed), as the README promises.
      const fired = await waitForDelivery(first, 'alert.fired', 60_000)
      assert.deepEqual(
        {
          attempt: fired.attempt,
          signature: fired.signature,
          status: fired.status,
          event: fired.body.event,
          rule: fired.body.rule.id,
          user: fired.body.rule.user_id,
          id: fired.body.id,
        },
        {
          attempt: '1',
          signature: 'not checked (no WEBHOOK_SECRET)',
          status: '200',
          event: 'alert.fired',
          rule: rule.id,
          user: 'user-42',
          id: fired.deliveryId,
        },
      )
      assert.ok(fired.body.spread.spread >= 0.02, `spread ${fired.body.spread.spread}`)
      assert.ok(fired.body.spread.volume_min >= 1000)
      assert.deepEqual([fired.body.spread.platform_a, fired.body.spread.platform_b].sort(), ['venuek', 'venuep'])

      // The receiver again, on the same port, now with the rule's secret: a test delivery's signature is checked.
      await first.stop()
      ;({ receiver: second } = await startReceiver({
        WEBHOOK_RECEIVER_PORT: new URL(url).port,
        WEBHOOK_SECRET: rule.signing_secret,
      }))
      assert.match(second.output(), /checking signatures against 1 secret\(s\)/)
      const queued = await fetch(`${base}/api/v2/alerts/${rule.id}/test`, { method: 'POST', headers })
      assert.equal(queued.status, 202)
      const tested = await waitForDelivery(second, 'alert.test', 15_000)
      assert.deepEqual([tested.signature, tested.status, tested.body.rule.id], ['valid', '200', rule.id])

      // The delivery log agrees: both delivered, with the receiver's 200.
      const log = (await (await fetch(`${base}/api/v2/alerts/${rule.id}/deliveries`, { headers })).json()) as {
        deliveries: { id: string; status: string; response_status: number }[]
      }
      const byId = new Map(log.deliveries.map((d) => [d.id, [d.status, d.response_status]]))
      assert.deepEqual(
        [byId.get(fired.deliveryId), byId.get(tested.deliveryId)],
        [
          ['delivered', 200],
          ['delivered', 200],
        ],
      )
    } finally {
      await Promise.all([service.stop(), first?.stop(), second?.stop()])
      rmSync(dir, { recursive: true, force: true })
    }
  },
)

test(
  'with a secret, a delivery signed otherwise is printed as bad_signature and answered 401 (the service then retries it)',
  { timeout: 60_000 },
  async () => {
    const { receiver, url } = await startReceiver({
      WEBHOOK_RECEIVER_PORT: '0',
      WEBHOOK_SECRET: 'whsec_not-the-rules-secret',
    })
    try {
      const body = JSON.stringify({
        id: 'd-1',
        event: 'alert.test',
        rule: { id: 'r-1', user_id: 'u', trigger_type: 'spread_threshold', threshold: 0.05 },
        spread: null,
      })
      const res = await fetch(`${url}spreads`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-alert-event': 'alert.test',
          'x-alert-delivery-id': 'd-1',
          'x-alert-attempt': '1',
          'x-alert-timestamp': String(Math.floor(Date.now() / 1000)),
          'x-alert-signature': `sha256=${'0'.repeat(64)}`,
        },
        body,
      })
      assert.deepEqual([res.status, await res.text()], [401, 'signature bad_signature\n'])
      // The receiver's printout comes over its stdout pipe, which may reach us after the HTTP answer does.
      const d = await waitForDelivery(receiver, 'alert.test', 5_000)
      assert.equal(printed(receiver).length, 1)
      assert.deepEqual([d.event, d.deliveryId, d.signature, d.status], ['alert.test', 'd-1', 'bad_signature', '401'])
      assert.match(receiver.output(), /\n {2}rule r-1 of user u: spread_threshold at 0\.05\n {2}spread: none/)
    } finally {
      await receiver.stop()
    }
  },
)
