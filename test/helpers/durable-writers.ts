import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { Ajv, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { alertSchemas } from '../../src/http/schemas/alerts.js'
import { KeyListBody } from '../../src/http/schemas/developers.js'
import { VENUES } from '../../src/venues/index.js'

/**
 * Concurrent writers against a running service (its own process, reached over HTTP), and a ledger of what the
 * service acknowledged, for tests that kill the service or its store mid-write (test/lifecycle/kill-*.test.ts).
 *
 * Writes: signups, key creation and revocation, alert rule creation, status changes and deletion. Each write
 * that answered 2xx is acknowledged and must survive anything; a write that got no answer (the service died) or
 * a 5xx (the store died under it: it may have committed before) may or may not have happened, so the ledger keeps
 * every state it could be in. One write at a time per key and per rule, so each one's possible states stay few.
 *
 * `verify` then reads everything back through the API: every acknowledged account's key authenticates, every
 * acknowledged revoked key is refused, every acknowledged rule is listed with an acknowledged (or possible)
 * status, every acknowledged delete is gone, listings match their published schemas (nothing half-written) and
 * hold nothing the writers never tried to write.
 */
type KeyState = 'active' | 'revoked'
type RuleState = 'active' | 'paused' | 'deleted'

interface KeyEntry {
  readonly id: string
  readonly secret: string
  readonly possible: Set<KeyState>
  busy: boolean
}

interface RuleEntry {
  readonly id: string
  readonly user: string
  readonly possible: Set<RuleState>
  busy: boolean
}

interface Account {
  readonly email: string
  /** The signup key: never revoked, so the account can always be read. */
  readonly primary: string
  readonly keys: KeyEntry[]
  /** Key creations with no answer: keys that may exist that the ledger cannot name. */
  unknownKeys: number
  readonly users: string[]
  readonly rules: RuleEntry[]
  readonly unknownRules: Map<string, number>
}

export interface WriteCounts {
  /** Writes the service acknowledged (2xx). */
  acknowledged: number
  /** Writes that got no answer or a 5xx: either outcome is allowed. */
  ambiguous: number
  /** Writes refused with a 4xx (never applied). */
  refused: number
  /** The 5xx answers by status (a store process killed under a write). */
  failures: Record<string, number>
}

const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false })
addFormatsModule.default(ajv)
const keyList: ValidateFunction = ajv.compile(KeyListBody)
const ruleList: ValidateFunction = ajv.compile(alertSchemas(VENUES.map((v) => v.id)).AlertListBody)

class NoAnswer extends Error {}

export class DurableWriters {
  readonly accounts: Account[] = []
  readonly counts: WriteCounts = { acknowledged: 0, ambiguous: 0, refused: 0, failures: {} }
  /** History buckets read back per pair (`slug|key` → bucket timestamps): once served, they must stay. */
  readonly history = new Map<string, Set<string>>()
  #baseUrl = ''
  #running = false
  #loops: Promise<void>[] = []
  readonly #tag = randomBytes(3).toString('hex')
  #seq = 0

  /** Points the writers at a (re)started service. */
  target(baseUrl: string): void {
    this.#baseUrl = baseUrl
  }

  /** Starts `concurrency` write loops; each ends at its first write without an answer (the service died). */
  start(concurrency: number): void {
    this.#running = true
    this.#loops = Array.from({ length: concurrency }, () => this.#loop())
  }

  /** Stops the loops and waits for their writes in flight. */
  async stop(): Promise<void> {
    this.#running = false
    await Promise.all(this.#loops)
  }

  async #loop(): Promise<void> {
    while (this.#running) {
      try {
        await this.#one()
      } catch (err) {
        if (err instanceof NoAnswer) return
        throw err
      }
    }
  }

  async #one(): Promise<void> {
    const r = Math.random()
    const account = this.accounts.length === 0 ? undefined : pick(this.accounts)
    if (account === undefined || r < 0.08) return this.#signup()
    if (r < 0.25) return this.#createKey(account)
    if (r < 0.38) return this.#revokeKey(account)
    if (r < 0.65) return this.#createRule(account)
    if (r < 0.85) return this.#updateRule(account)
    return this.#deleteRule(account)
  }

  /** One request; `undefined` status when no answer came (connection refused or reset: the service died). */
  async #send(
    method: string,
    path: string,
    key: string | undefined,
    body?: unknown,
    user?: string,
  ): Promise<{ status: number | undefined; body: Record<string, unknown> }> {
    const headers: Record<string, string> = {}
    if (key !== undefined) headers['x-api-key'] = key
    if (user !== undefined) headers['x-user-id'] = user
    if (body !== undefined) headers['content-type'] = 'application/json'
    try {
      const res = await fetch(`${this.#baseUrl}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(10_000),
      })
      const text = await res.text()
      return { status: res.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) }
    } catch {
      return { status: undefined, body: {} }
    }
  }

  /** Counts the outcome; throws NoAnswer (ending the loop) when there was none. */
  #outcome(status: number | undefined): 'ack' | 'maybe' | 'refused' {
    if (status === undefined) {
      this.counts.ambiguous++
      throw new NoAnswer()
    }
    if (status < 300) {
      this.counts.acknowledged++
      return 'ack'
    }
    if (status >= 500) {
      this.counts.ambiguous++
      this.counts.failures[status] = (this.counts.failures[status] ?? 0) + 1
      return 'maybe'
    }
    this.counts.refused++
    return 'refused'
  }

  async #signup(): Promise<void> {
    const email = `kill-${this.#tag}-${++this.#seq}@example.com`
    const res = await this.#send('POST', '/api/v2/developers/signup', undefined, {
      email,
      company: 'Kill Co',
      use_case: 'durability',
    })
    if (this.#outcome(res.status) !== 'ack') return
    assert.equal(res.status, 201, JSON.stringify(res.body))
    this.accounts.push({
      email,
      primary: res.body.api_key as string,
      keys: [],
      unknownKeys: 0,
      users: [`u-${this.#seq}-a`, `u-${this.#seq}-b`],
      rules: [],
      unknownRules: new Map(),
    })
  }

  async #createKey(a: Account): Promise<void> {
    if (a.keys.filter((k) => k.possible.has('active')).length + a.unknownKeys >= 15) return this.#revokeKey(a)
    const res = await this.#send('POST', '/api/v2/developers/api-keys', a.primary, { name: `k${++this.#seq}` })
    if (res.status === undefined || res.status >= 500) a.unknownKeys++
    if (this.#outcome(res.status) !== 'ack') return
    const key = res.body.key as { id: string }
    a.keys.push({ id: key.id, secret: res.body.api_key as string, possible: new Set(['active']), busy: false })
  }

  async #revokeKey(a: Account): Promise<void> {
    const k = a.keys.find((x) => !x.busy && x.possible.size === 1 && x.possible.has('active'))
    if (k === undefined) return this.#createRule(a)
    k.busy = true
    try {
      const res = await this.#send('DELETE', `/api/v2/developers/api-keys/${k.id}`, a.primary)
      if (res.status === undefined || res.status >= 500) k.possible.add('revoked')
      const outcome = this.#outcome(res.status)
      if (outcome === 'ack') {
        k.possible.clear()
        k.possible.add('revoked')
      }
    } finally {
      k.busy = false
    }
  }

  async #createRule(a: Account): Promise<void> {
    const user = pick(a.users)
    if (a.rules.filter((r) => r.user === user).length + (a.unknownRules.get(user) ?? 0) >= 90) return
    const res = await this.#send(
      'POST',
      '/api/v2/alerts',
      a.primary,
      {
        trigger_type: 'spread_threshold',
        threshold: 0.9,
        channel: 'email',
        target: `${user}@example.com`,
        scope: { min_confidence: 0.5 },
        cooldown_seconds: 600,
      },
      user,
    )
    if (res.status === undefined || res.status >= 500) a.unknownRules.set(user, (a.unknownRules.get(user) ?? 0) + 1)
    if (this.#outcome(res.status) !== 'ack') return
    a.rules.push({ id: res.body.id as string, user, possible: new Set(['active']), busy: false })
  }

  async #updateRule(a: Account): Promise<void> {
    const rule = a.rules.find((r) => !r.busy && r.possible.size === 1 && !r.possible.has('deleted'))
    if (rule === undefined) return this.#createRule(a)
    const next: RuleState = rule.possible.has('active') ? 'paused' : 'active'
    await this.#ruleWrite(rule, next, () =>
      this.#send('PATCH', `/api/v2/alerts/${rule.id}`, a.primary, { status: next }, rule.user),
    )
  }

  async #deleteRule(a: Account): Promise<void> {
    const rule = a.rules.find((r) => !r.busy && r.possible.size === 1 && !r.possible.has('deleted'))
    if (rule === undefined) return this.#createRule(a)
    await this.#ruleWrite(rule, 'deleted', () =>
      this.#send('DELETE', `/api/v2/alerts/${rule.id}`, a.primary, undefined, rule.user),
    )
  }

  async #ruleWrite(
    rule: RuleEntry,
    next: RuleState,
    write: () => Promise<{ status: number | undefined }>,
  ): Promise<void> {
    rule.busy = true
    try {
      const res = await write()
      if (res.status === undefined || res.status >= 500) rule.possible.add(next)
      if (this.#outcome(res.status) === 'ack') {
        rule.possible.clear()
        rule.possible.add(next)
      }
    } finally {
      rule.busy = false
    }
  }

  /** Spread history points the running service has committed so far (`predmkt_spread_history_points_total`). */
  async historyWritten(): Promise<number> {
    const text = await (await fetch(`${this.#baseUrl}/metrics`)).text()
    const m = /^predmkt_spread_history_points_total\{outcome="written"\} (\d+)$/m.exec(text)
    assert.ok(m !== null, 'the service exports its history counters')
    return Number(m[1])
  }

  /** Reads the history of a few priced pairs; what is served now must still be served after any restart. */
  async readHistory(pairs = 6): Promise<number> {
    const spreads = await this.#send('GET', `/api/v2/spreads?limit=${pairs}`, this.accounts[0]?.primary)
    let buckets = 0
    for (const row of (spreads.body.data ?? []) as { event_slug: string; outcome_key: string }[]) {
      const q = `event_slug=${encodeURIComponent(row.event_slug)}&outcome_key=${encodeURIComponent(row.outcome_key)}&range=1d`
      const res = await this.#send('GET', `/api/v2/spreads/history?${q}`, this.accounts[0]?.primary)
      if (res.status !== 200) continue
      const seen = this.history.get(`${row.event_slug}|${row.outcome_key}`) ?? new Set()
      for (const p of res.body.data as { timestamp: string }[]) seen.add(p.timestamp)
      this.history.set(`${row.event_slug}|${row.outcome_key}`, seen)
      buckets += seen.size
    }
    return buckets
  }

  /**
   * Reads every write back and asserts the ledger; returns what was checked. Settles the ambiguous states to
   * what the service now says, so later rounds build on a known state.
   */
  async verify(): Promise<{ keys: number; rules: number; historyBuckets: number }> {
    let keys = 0
    let rules = 0
    for (const a of this.accounts) {
      const list = await this.#send('GET', '/api/v2/developers/api-keys', a.primary)
      assert.equal(
        list.status,
        200,
        `${a.email}: its signup key no longer authenticates (${JSON.stringify(list.body)})`,
      )
      assert.ok(keyList(list.body), `${a.email}: key list malformed: ${ajv.errorsText(keyList.errors)}`)
      const listed = new Map((list.body.keys as { id: string; status: KeyState }[]).map((k) => [k.id, k.status]))
      for (const k of a.keys) {
        const status = listed.get(k.id)
        assert.ok(status !== undefined, `${a.email}: acknowledged key ${k.id} is gone`)
        assert.ok(k.possible.has(status), `${a.email}: key ${k.id} is ${status}, acknowledged ${[...k.possible]}`)
        const auth = await this.#send('GET', '/api/v2/developers/usage', k.secret)
        assert.equal(auth.status, status === 'active' ? 200 : 401, `key ${k.id} (${status}): ${auth.status}`)
        k.possible.clear()
        k.possible.add(status)
        keys++
      }
      // Listed: the signup key, the ledger's, and at most the creations that got no answer.
      assert.ok(listed.size <= 1 + a.keys.length + a.unknownKeys, `${a.email}: keys listed that nobody created`)
      // Keys created without an answer that the service kept: their secrets are unknown, so they stay out of the
      // ledger, but they count against the listing bound from now on.
      a.unknownKeys = listed.size - 1 - a.keys.length
      for (const user of a.users) {
        const res = await this.#send('GET', '/api/v2/alerts?limit=100', a.primary, undefined, user)
        assert.equal(res.status, 200, `${user}: ${JSON.stringify(res.body)}`)
        assert.ok(ruleList(res.body), `${user}: rule list malformed: ${ajv.errorsText(ruleList.errors)}`)
        const byId = new Map((res.body.alerts as { id: string; status: RuleState }[]).map((r) => [r.id, r]))
        const mine = a.rules.filter((r) => r.user === user)
        for (const r of mine) {
          const got = byId.get(r.id)
          const state: RuleState = got === undefined ? 'deleted' : got.status
          assert.ok(r.possible.has(state), `rule ${r.id} of ${user} is ${state}, acknowledged ${[...r.possible]}`)
          if (state === 'deleted') {
            const one = await this.#send('GET', `/api/v2/alerts/${r.id}`, a.primary, undefined, user)
            assert.equal(one.status, 404, `deleted rule ${r.id} still answers`)
          }
          r.possible.clear()
          r.possible.add(state)
          rules++
        }
        const strangers = [...byId.keys()].filter((id) => !mine.some((r) => r.id === id))
        assert.ok(
          strangers.length <= (a.unknownRules.get(user) ?? 0),
          `${user}: ${strangers.length} rules listed that were never acknowledged (${a.unknownRules.get(user) ?? 0} unanswered creates)`,
        )
        // Rules created without an answer that the service kept join the ledger as they are.
        for (const id of strangers) {
          const got = byId.get(id) as { status: RuleState }
          a.rules.push({ id, user, possible: new Set([got.status]), busy: false })
        }
        a.unknownRules.set(user, 0)
      }
    }
    let historyBuckets = 0
    const before = new Map([...this.history].map(([k, v]) => [k, new Set(v)]))
    await this.readHistoryOf([...before.keys()])
    for (const [pair, seen] of before) {
      const now = this.history.get(pair) ?? new Set()
      for (const ts of seen) assert.ok(now.has(ts), `history of ${pair}: bucket ${ts} served before is gone`)
      historyBuckets += seen.size
    }
    return { keys, rules, historyBuckets }
  }

  /** Re-reads the history of the given pairs (replacing what is known of them with what is served now). */
  async readHistoryOf(pairs: readonly string[]): Promise<void> {
    for (const pair of pairs) {
      const [slug, key] = pair.split('|') as [string, string]
      const q = `event_slug=${encodeURIComponent(slug)}&outcome_key=${encodeURIComponent(key)}&range=1d`
      const res = await this.#send('GET', `/api/v2/spreads/history?${q}`, this.accounts[0]?.primary)
      assert.equal(res.status, 200, `history of ${pair}: ${JSON.stringify(res.body)}`)
      const points = res.body.data as { timestamp: string; spread_bps: number; price_a: number; price_b: number }[]
      for (const p of points)
        assert.ok(
          Number.isFinite(p.spread_bps) && p.price_a >= 0 && p.price_b <= 1 && typeof p.timestamp === 'string',
          `history of ${pair}: malformed point ${JSON.stringify(p)}`,
        )
      this.history.set(pair, new Set(points.map((p) => p.timestamp)))
    }
  }
}

function pick<T>(xs: readonly T[]): T {
  return xs[Math.floor(Math.random() * xs.length)] as T
}
