import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import WebSocket from 'ws'
import { startWebhookReceiver } from '../alerts/receivers.js'
import { adminQuery, TEST_DATABASE_URL, POSTGRES_SKIP } from '../helpers/db.js'
import { freePort, NatsServer } from '../helpers/nats-server.js'
import { MAIN_JS, spawnNode, waitReady, type Child } from '../helpers/processes.js'
import { signUp } from '../helpers/service.js'
import { describeOrSkip } from '../helpers/skippable-suite.js'

/**
 * Issue 24 end to end, as an operator runs it: a real nats-server (JetStream, temporary store), one ingest
 * (`ROLE=ingest`: the simulator, the venue actors, the engine; publishing) and two edges (`ROLE=edge`: no venue
 * connection), each its own process, all on one Postgres database, keys required.
 * - REST answers from either edge equal the ingest's (the same code over the same state, rebuilt from the broker);
 * - a stream client killed over from one edge to the other resumes with `recovered: true` and no gap;
 * - killing nats-server and starting it again: the edges recover (ready, equal answers, frames flowing);
 * - an alert rule made on an edge fires at the ingest, once: its webhook gets each firing once, and the account's
 *   `alerts` stream carries it on every edge with the same numbers.
 */
const QUESTIONS = '150'
const CHANGES_PER_SEC = process.env.SCALEOUT_RATE ?? '200'

interface Proc {
  readonly child: Child
  readonly port: number
}

let nats: NatsServer
let dataDir: string
let database: string
let ingest: Proc
let edgeA: Proc
let edgeB: Proc
/** A key signed up on the ingest: every process knows it (one Postgres). */
let apiKey: string

function databaseUrl(): string {
  const url = new URL(TEST_DATABASE_URL as string)
  url.pathname = `/${database}`
  return url.toString()
}

async function startRole(role: 'ingest' | 'edge', name: string): Promise<Proc> {
  const port = await freePort()
  const child = spawnNode(MAIN_JS, {
    ROLE: role,
    LOG_LEVEL: process.env.SCALEOUT_LOG ?? 'warn',
    NATS_URL: nats.url,
    PORT: String(port),
    DATA_DIR: join(dataDir, name),
    DATABASE_URL: databaseUrl(),
    // Keys required, as in production (the accounts are in the shared database); a bucket no test empties.
    RATE_LIMIT_PER_SEC: '10000',
    RATE_LIMIT_BURST: '10000',
    SIM_QUESTIONS: QUESTIONS,
    SIM_QUOTE_CHANGES_PER_SEC: CHANGES_PER_SEC,
    // Every process re-scores on the same 2 s boundaries (pushed volumes reloaded alike): equal answers come soon.
    SPREADS_RESCORE_MS: '2000',
    SIM_PORT_BASE: '0',
    // The alerts test's webhook receiver is on loopback (refused by the default target policy).
    ALERTS_WEBHOOK_ALLOWED_CIDRS: '127.0.0.0/8',
  })
  try {
    await waitReady(port, 120_000)
  } catch (err) {
    throw new Error(`${name} not ready: ${(err as Error).message}\n${child.output().slice(-3000)}`)
  }
  return { child, port }
}

async function get(p: Proc, path: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`http://127.0.0.1:${p.port}${path}`, { headers: { 'x-api-key': apiKey } })
  return { status: res.status, body: await res.json() }
}

/** The same answer from the ingest and both edges (retried while quotes move between the three reads). */
async function assertSameEverywhere(path: string): Promise<void> {
  let last: unknown[] = []
  const deadline = Date.now() + 20_000
  while (Date.now() < deadline) {
    last = await Promise.all([ingest, edgeA, edgeB].map((p) => get(p, path)))
    const [a, b, c] = last.map((r) => JSON.stringify(r))
    if (a === b && a === c) return
    await new Promise((r) => setTimeout(r, 200))
  }
  assert.deepEqual(last[1], last[0], `${path}: edge A differs from the ingest`)
  assert.deepEqual(last[2], last[0], `${path}: edge B differs from the ingest`)
}

describeOrSkip('scale-out: one ingest and two edges over a real nats-server', POSTGRES_SKIP, () => {
  before(async () => {
    nats = await NatsServer.start()
    dataDir = mkdtempSync(join(tmpdir(), 'predmkt-scaleout-'))
    database = `scaleout_${process.pid}_${Date.now()}`
    await adminQuery(TEST_DATABASE_URL as string, `CREATE DATABASE ${database}`)
    ingest = await startRole('ingest', 'ingest')
    apiKey = await signUp(`http://127.0.0.1:${ingest.port}`, 'scale-out@example.com')
    ;[edgeA, edgeB] = await Promise.all([startRole('edge', 'edge-a'), startRole('edge', 'edge-b')])
  })

  after(async () => {
    await Promise.all([ingest, edgeA, edgeB].map((p) => p?.child.stop()))
    await nats?.close()
    rmSync(dataDir, { recursive: true, force: true })
    await adminQuery(TEST_DATABASE_URL as string, `DROP DATABASE IF EXISTS ${database}`).catch(() => undefined)
  })

  test('REST answers from either edge equal the ingest’s', async () => {
    for (const path of [
      '/api/v2/events?limit=25',
      '/api/v2/events?status=all&sort=created_at&limit=25',
      '/api/v2/venuep/markets?limit=25',
      '/api/v2/venuek/markets?limit=25',
      '/api/v2/venuep/prices?limit=25',
      '/api/v2/venuek/prices?limit=25',
      '/api/v2/spreads?min_spread=0&min_volume=0',
      '/api/v2/sitemap/events',
    ]) {
      const first = await get(edgeA, path)
      assert.equal(first.status, 200, `${path}: ${JSON.stringify(first.body).slice(0, 300)}`)
      await assertSameEverywhere(path)
    }
  })

  test('/metrics shows the bus side: the link up, the streams held open by the ingest and mirrored by an edge', async () => {
    const metric = async (p: Proc, name: string): Promise<number> => {
      const text = await (await fetch(`http://127.0.0.1:${p.port}/metrics`)).text()
      const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text)
      assert.ok(m !== null, `${name} in /metrics`)
      return Number(m[1])
    }
    assert.equal(await metric(ingest, 'predmkt_bus_link_up'), 1)
    assert.equal(await metric(edgeA, 'predmkt_bus_link_up'), 1)
    // The ingest keeps only the venue streams open until an edge's client asks for more (then the edge leases them).
    const before = await metric(ingest, 'predmkt_bus_streams')
    const keys = (await matchedQuoteKeys(edgeA)).slice(0, 10)
    const client = await StreamSocket.open(edgeA.port)
    const ack = await client.command({ op: 'subscribe', id: 1, ch: 'quote', keys })
    assert.deepEqual(ack.rejected ?? [], [])
    assert.equal(await metric(edgeA, 'predmkt_bus_leases'), keys.length)
    const held = await metric(ingest, 'predmkt_bus_streams')
    assert.ok(held >= before + keys.length, `the ingest holds ${held} streams (${before} before)`)
    client.close()
    assert.equal(await metric(ingest, 'predmkt_bus_frames_failed_total'), 0)
    assert.equal(await metric(edgeA, 'predmkt_bus_lease_failures_total'), 0)
    // No broker outage yet: nothing held through one, no overflow.
    assert.equal(await metric(ingest, 'predmkt_bus_frames_held_total'), 0)
    assert.equal(await metric(ingest, 'predmkt_bus_hold_overflows_total'), 0)
    // Every stream the ingest holds has reached the edge (the window read back, then live); read again while a
    // stream opened between the two reads is on its way.
    await until(
      async () => (await metric(edgeA, 'predmkt_bus_streams')) === (await metric(ingest, 'predmkt_bus_streams')),
      5_000,
      'the edge mirrors every stream the ingest holds',
    )
    assert.equal(await metric(edgeA, 'predmkt_bus_mirror_malformed_total'), 0)
  })

  test('a stream client moved from a killed edge to the other resumes every channel with recovered: true and no gap', async () => {
    const keys = await matchedQuoteKeys(edgeA)
    assert.ok(keys.length > 10, `matched quote keys: ${keys.length}`)
    // Quotes (kept open by the ingest), books and a top view (leased by the edge its client is on).
    const subscriptions = [
      { ch: 'quote', keys },
      { ch: 'book', keys: keys.slice(0, 6) },
      // The view's canonical key: frames carry it, and a resume token is by the key subscribed.
      { ch: 'spreads.top', keys: ['limit=10&window=24&sort=confidence&executable_only=false'] },
    ]
    const held = new Map<string, { epoch: string; seq: number }>()
    const a = await StreamSocket.open(edgeA.port)
    let id = 1
    for (const sub of subscriptions) {
      const ackA = await a.command({ op: 'subscribe', id: id++, ...sub })
      assert.deepEqual(ackA.rejected ?? [], [], sub.ch)
    }
    const deltasOnA = await a.collect(held, 60)
    assert.ok(deltasOnA >= 60)
    assert.ok(
      [...held.keys()].some((k) => k.startsWith('book ')),
      'book frames came',
    )
    a.close()
    // The edge dies with the client's streams held; the client goes to the other edge.
    edgeA.child.child.kill('SIGKILL')
    const b = await StreamSocket.open(edgeB.port)
    for (const sub of subscriptions) {
      const resume = Object.fromEntries(sub.keys.map((k) => [k, held.get(`${sub.ch} ${k}`)]))
      const ackB = await b.command({ op: 'subscribe', id: id++, ...sub, resume })
      assert.equal(ackB.recovered, true, `${sub.ch}: ${JSON.stringify(ackB).slice(0, 500)}`)
    }
    // Every frame after the resume continues its stream (replayed first, then live), and new ones keep coming.
    const gaps: string[] = []
    await b.collect(held, 60, (key, seq, prev) => {
      if (prev !== undefined && seq !== prev + 1) gaps.push(`${key}: ${prev} → ${seq}`)
    })
    b.close()
    assert.deepEqual(gaps, [])
    edgeA = await startRole('edge', 'edge-a2')
  })

  test('killing nats-server and starting it again: edges recover, answer alike, and stream again', async () => {
    await nats.stop()
    await until(
      async () => (await get(edgeB, '/readyz')).status !== 200 || (await venuesDown(edgeB)),
      20_000,
      'edge B sees the broker gone',
    )
    await nats.restart()
    await until(
      async () => (await get(edgeB, '/readyz')).status === 200 && !(await venuesDown(edgeB)),
      60_000,
      'edge B recovered',
    )
    await assertSameEverywhere('/api/v2/venuep/prices?limit=25')
    const b = await StreamSocket.open(edgeB.port)
    const keys = await matchedQuoteKeys(edgeB)
    await b.command({ op: 'subscribe', id: 3, ch: 'quote', keys })
    assert.ok((await b.collect(new Map(), 10)) >= 10, 'frames flow after the broker came back')
    b.close()
  })

  test('an alert rule made on an edge fires at the ingest once: each firing reaches its webhook once and the account’s stream on both edges alike', async () => {
    const hooks = await startWebhookReceiver()
    try {
      const key = await signUp(`http://127.0.0.1:${edgeA.port}`, 'scale-out-alerts@example.com')
      // Followers first (a snapshot of no firings), then the rule: every firing reaches them as a delta.
      const followers = await Promise.all([edgeA, edgeB].map((p) => StreamSocket.open(p.port, key)))
      for (const f of followers) {
        const ack = await f.command({ op: 'subscribe', id: 1, ch: 'alerts', keys: ['me'] })
        assert.deepEqual(ack.rejected, [])
      }
      // Two rules (a rule fires once per cooldown), each on every matched pair with a gap of a tenth of a point or
      // more: the simulator's quotes have such gaps at once. Made on edge A, evaluated at the ingest (the store's
      // change feed tells it).
      const rules: string[] = []
      for (const threshold of [0.001, 0.002]) {
        const created = await fetch(`http://127.0.0.1:${edgeA.port}/api/v2/alerts`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'x-user-id': 'trader-1', 'content-type': 'application/json' },
          body: JSON.stringify({ trigger_type: 'spread_threshold', threshold, channel: 'webhook', target: hooks.url }),
        })
        assert.equal(created.status, 201, await created.clone().text())
        rules.push(((await created.json()) as { id: string }).id)
      }
      const FIRINGS = rules.length
      const [onA, onB] = await Promise.all(followers.map((f) => f.deltas(FIRINGS)))
      followers.forEach((f) => f.close())
      // The same frames with the same (epoch, seq) on both edges: the ingest's outbox writer numbered them.
      assert.deepEqual(onB, onA)
      const firings = (onA as { d: { id: string; rule: { id: string } } }[]).map((f) => f.d)
      assert.deepEqual(firings.map((d) => d.rule.id).sort(), [...rules].sort(), 'one firing of each rule')
      const ids = firings.map((d) => d.id)
      // Delivered by the ingest alone (edges run no delivery worker): each firing once, nothing twice.
      const delivered = (): string[] => hooks.requests.map((h) => (JSON.parse(h.body) as { id: string }).id)
      await until(async () => ids.every((id) => delivered().includes(id)), 30_000, 'the firings at the webhook')
      assert.equal(new Set(delivered()).size, delivered().length, 'no firing delivered twice')
    } finally {
      await hooks.close()
    }
  })
})

async function until(condition: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

/** A venue of the process is not healthy, or holds stale books (its /readyz). */
async function venuesDown(p: Proc): Promise<boolean> {
  const body = (await get(p, '/readyz')).body as {
    venues: Record<string, { health: string; books: { stale: number } }>
  }
  return Object.values(body.venues).some((v) => v.health !== 'ok' || v.books.stale > 0)
}

async function matchedQuoteKeys(p: Proc): Promise<string[]> {
  const r = (await get(p, '/api/v2/spreads?min_spread=0&min_volume=0')).body as {
    data: { match: { venuep_outcome_id: string; venuek_outcome_id: string } }[]
  }
  const keys = new Set<string>()
  for (const row of r.data) {
    keys.add(`venuep:${row.match.venuep_outcome_id}`)
    keys.add(`venuek:${row.match.venuek_outcome_id}`)
  }
  // A subscribe command, resume tokens included, must stay under max_frame_bytes (16 KiB): a venuep key is ~85 bytes.
  return [...keys].slice(0, 40)
}

/** A plain protocol client: the frames as the contract writes them. */
class StreamSocket {
  readonly #ws: WebSocket
  readonly #frames: Record<string, unknown>[] = []
  #waiters: (() => void)[] = []

  private constructor(ws: WebSocket) {
    this.#ws = ws
    ws.on('message', (data) => {
      this.#frames.push(JSON.parse(data.toString()) as Record<string, unknown>)
      for (const w of this.#waiters.splice(0)) w()
    })
  }

  /** `key`: the API key sent on the upgrade (`X-API-Key`). */
  static async open(port: number, key = apiKey): Promise<StreamSocket> {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/v2/stream`, { headers: { 'x-api-key': key } })
    const s = new StreamSocket(ws)
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
    await s.next((f) => f.type === 'welcome', 10_000)
    return s
  }

  async next(match: (f: Record<string, unknown>) => boolean, timeoutMs: number): Promise<Record<string, unknown>> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const i = this.#frames.findIndex(match)
      if (i >= 0) return this.#frames.splice(i, 1)[0] as Record<string, unknown>
      const left = deadline - Date.now()
      if (left <= 0)
        throw new Error(
          `no matching frame within ${timeoutMs} ms; unread: ${JSON.stringify(this.#frames.slice(-3)).slice(0, 600)}; socket state ${this.#ws.readyState}`,
        )
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left)
        this.#waiters.push(() => {
          clearTimeout(t)
          resolve()
        })
      })
    }
  }

  async command(c: Record<string, unknown>): Promise<{ rejected?: unknown[]; recovered?: boolean }> {
    this.#ws.send(JSON.stringify(c))
    const answer = await this.next((f) => (f.type === 'ack' || f.type === 'error') && f.id === c.id, 15_000)
    if (answer.type === 'error') throw new Error(`command ${String(c.op)} refused: ${JSON.stringify(answer)}`)
    return answer as { rejected?: unknown[]; recovered?: boolean }
  }

  /**
   * Takes stream frames until `deltas` deltas have come, keeping each stream's last (epoch, seq) in `held` (by
   * `<ch> <key>`); `onFrame` sees each seq-bearing frame with the stream's previous seq. Returns the deltas seen.
   */
  async collect(
    held: Map<string, { epoch: string; seq: number }>,
    deltas: number,
    onFrame?: (key: string, seq: number, prev: number | undefined) => void,
  ): Promise<number> {
    let seen = 0
    while (seen < deltas) {
      // Stream frames only (`snapshots_done` is a marker of the subscription: no key, no seq).
      const f = await this.next((x) => typeof x.key === 'string' && typeof x.seq === 'number', 30_000)
      const key = `${f.ch as string} ${f.key as string}`
      const seq = f.seq as number
      const prev = held.get(key)
      if (f.type === 'snapshot') {
        held.set(key, { epoch: f.epoch as string, seq })
        continue
      }
      onFrame?.(key, seq, prev?.epoch === f.epoch ? prev?.seq : undefined)
      held.set(key, { epoch: f.epoch as string, seq })
      if (f.type === 'delta') seen++
    }
    return seen
  }

  /** The next `n` delta frames, whole, as sent. */
  async deltas(n: number): Promise<Record<string, unknown>[]> {
    const out: Record<string, unknown>[] = []
    while (out.length < n) out.push(await this.next((f) => f.type === 'delta', 30_000))
    return out
  }

  close(): void {
    this.#ws.close()
  }
}
