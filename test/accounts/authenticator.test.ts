import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { describe, test } from 'node:test'
import { generateApiKey } from '../../src/accounts/api-key.js'
import { Authenticator, type CachedKey, type KeyLookup, type Resolution } from '../../src/accounts/authenticator.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import type { KeyCredential } from '../../src/store/api-keys-repo.js'

/**
 * The key cache in front of the store: hits cost no lookup, misses are single-flight and bounded, bad keys are
 * remembered, and revocations win over every cache and every lookup in flight.
 */
const PREFIX = 'pmk_live_'

class FakeKeys implements KeyLookup {
  readonly rows = new Map<string, KeyCredential>()
  calls = 0
  gate: Promise<void> | undefined
  fail = false

  add(accountId = randomUUID()): { value: string; row: KeyCredential } {
    const k = generateApiKey(PREFIX)
    const row = { id: randomUUID(), accountId, hash: k.hash, revokedAt: null }
    this.rows.set(k.hash, row)
    return { value: k.value, row }
  }

  async findByHash(hash: string): Promise<KeyCredential | undefined> {
    this.calls++
    if (this.gate !== undefined) await this.gate
    if (this.fail) throw new Error('connection refused')
    return this.rows.get(hash)
  }
}

function setup(overrides: { maxPendingLookups?: number; revalidateMs?: number } = {}) {
  const keys = new FakeKeys()
  const clock = new SimulatedClock(1_000_000)
  const auth = new Authenticator({
    keys,
    clock,
    keyPrefix: PREFIX,
    rateLimit: { perSecond: 10, burst: 20 },
    maxKeys: 100,
    maxUnknownKeys: 100,
    unknownKeyTtlMs: 60_000,
    revalidateMs: overrides.revalidateMs ?? 300_000,
    maxPendingLookups: overrides.maxPendingLookups ?? 16,
    log: silentLogger,
  })
  return { keys, clock, auth }
}

async function settled(r: Resolution | Promise<Resolution>): Promise<Resolution> {
  return r
}

function reason(r: Resolution): string {
  return r.kind === 'key' ? 'key' : r.reason
}

describe('authenticator', () => {
  test('first use looks the key up once; every later use is a synchronous cache hit', async () => {
    const { keys, auth } = setup()
    const { value, row } = keys.add()
    const first = auth.resolve(value)
    assert.ok(first instanceof Promise)
    const entry = (await first) as CachedKey
    assert.deepEqual(entry.caller, { accountId: row.accountId, keyId: row.id })
    for (let i = 0; i < 1_000; i++) assert.equal(auth.resolve(value), entry)
    assert.equal(keys.calls, 1)
    assert.equal(auth.lookups, 1)
  })

  test('concurrent first uses share one lookup', async () => {
    const { keys, auth } = setup()
    const { value } = keys.add()
    let open!: () => void
    keys.gate = new Promise((r) => (open = r))
    const pending = Array.from({ length: 50 }, () => auth.resolve(value))
    open()
    const results = await Promise.all(pending.map(settled))
    assert.equal(new Set(results).size, 1)
    assert.equal(keys.calls, 1)
  })

  test('missing, malformed, unknown: rejected; unknown keys are remembered, malformed never reach the store', async () => {
    const { keys, auth } = setup()
    assert.equal(reason(await settled(auth.resolve(undefined))), 'missing')
    assert.equal(reason(await settled(auth.resolve(''))), 'missing')
    assert.equal(reason(await settled(auth.resolve('Bearer xyz'))), 'malformed')
    assert.equal(reason(await settled(auth.resolve(`${PREFIX}${'x'.repeat(42)}`))), 'malformed')
    assert.equal(keys.calls, 0)
    const stranger = generateApiKey(PREFIX).value
    assert.equal(reason(await settled(auth.resolve(stranger))), 'unknown')
    assert.equal(reason(await settled(auth.resolve(stranger))), 'unknown')
    assert.equal(keys.calls, 1)
  })

  test('a revoked key is rejected at once, cached or not, even when its lookup was in flight', async () => {
    const { keys, auth } = setup()
    const cached = keys.add()
    await settled(auth.resolve(cached.value))
    auth.evict([cached.row.id])
    assert.equal(reason(await settled(auth.resolve(cached.value))), 'revoked')

    const racing = keys.add()
    let open!: () => void
    keys.gate = new Promise((r) => (open = r))
    const inFlight = auth.resolve(racing.value)
    auth.evict([racing.row.id]) // revoked elsewhere while the row (still active) was being read
    open()
    assert.equal(reason(await settled(inFlight)), 'revoked')
    keys.gate = undefined
    assert.equal(reason(await settled(auth.resolve(racing.value))), 'revoked')

    const stored = keys.add()
    keys.rows.set(stored.row.hash, { ...stored.row, revokedAt: 5 })
    assert.equal(reason(await settled(auth.resolve(stored.value))), 'revoked')
  })

  test('a failing store is 503-worthy, not cached: the next request tries again', async () => {
    const { keys, auth } = setup()
    const { value } = keys.add()
    keys.fail = true
    assert.equal(reason(await settled(auth.resolve(value))), 'unavailable')
    keys.fail = false
    assert.equal(reason(await settled(auth.resolve(value))), 'key')
  })

  test('lookups in flight are bounded: a flood of random keys cannot queue unbounded store work', async () => {
    const { keys, auth } = setup({ maxPendingLookups: 3 })
    keys.gate = new Promise(() => undefined) // the store hangs
    const results = Array.from({ length: 10 }, () => auth.resolve(generateApiKey(PREFIX).value))
    assert.equal(results.filter((r) => r instanceof Promise).length, 3)
    assert.deepEqual(
      results.filter((r) => !(r instanceof Promise)).map((r) => reason(r as Resolution)),
      Array(7).fill('unavailable'),
    )
  })

  test('cached keys are re-read in the background after revalidateMs, still served meanwhile', async () => {
    const { keys, clock, auth } = setup({ revalidateMs: 60_000 })
    const { value, row } = keys.add()
    const entry = await settled(auth.resolve(value))
    clock.increment(60_000)
    keys.rows.set(row.hash, { ...row, revokedAt: clock.now() }) // revoked with the NOTIFY and the poll both lost
    assert.equal(auth.resolve(value), entry, 'served from the cache while revalidating')
    await new Promise((r) => setImmediate(r))
    assert.equal(keys.calls, 2)
    assert.equal(reason(await settled(auth.resolve(value))), 'revoked')
  })

  test('remaining() reports the bucket of a cached key', async () => {
    const { keys, clock, auth } = setup()
    const { value, row } = keys.add()
    const entry = (await settled(auth.resolve(value))) as CachedKey
    entry.bucket.take(clock.now())
    assert.equal(auth.remaining(row.id), 19)
    assert.equal(auth.remaining(randomUUID()), undefined)
  })
})
