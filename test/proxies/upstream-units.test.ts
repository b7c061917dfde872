import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { SimulatedClock } from '../../src/core/clock.js'
import { CircuitBreaker } from '../../src/venues/upstream/breaker.js'
import { SlidingWindowLimiter } from '../../src/venues/upstream/rate-limiter.js'
import { decodeCursor, encodeCursor, keysetPage, MAX_SEEN, type Anchor } from '../../src/venues/venuep/proxy/keyset.js'

/** The upstream building blocks on their own: breaker states, the sliding window, and keyset paging under inserts. */
describe('CircuitBreaker', () => {
  test('closed → open after the threshold → half-open after openMs → closed on a good probe', () => {
    const clock = new SimulatedClock(0)
    const b = new CircuitBreaker({ clock, failureThreshold: 3, openMs: 1_000 })
    b.onFailure()
    b.onFailure()
    b.onSuccess() // a success resets the count
    b.onFailure()
    b.onFailure()
    assert.equal(b.state, 'closed')
    b.onFailure()
    assert.equal(b.state, 'open')
    assert.deepEqual(b.tryAcquire(), { ok: false, retryAfterMs: 1_000 })
    clock.increment(400)
    assert.deepEqual(b.tryAcquire(), { ok: false, retryAfterMs: 600 })
    clock.increment(600)
    assert.equal(b.state, 'half_open')
    assert.deepEqual(b.tryAcquire(), { ok: true }, 'the probe')
    assert.equal(b.tryAcquire().ok, false, 'one probe at a time')
    b.onFailure()
    assert.equal(b.state, 'open', 'a failed probe re-opens at once')
    clock.increment(1_000)
    assert.equal(b.tryAcquire().ok, true)
    b.onSuccess()
    assert.equal(b.state, 'closed')
    assert.deepEqual(b.counters, { opened: 1, closed: 1, refused: 3 })
  })
})

describe('SlidingWindowLimiter', () => {
  test('at most `limit` calls in any window; every window of a call is charged, or none', () => {
    const clock = new SimulatedClock(0)
    const l = new SlidingWindowLimiter(clock).define('route', 3, 10_000).define('general', 5, 10_000)
    for (let i = 0; i < 3; i++) {
      assert.equal(l.tryAcquire(['general', 'route']), 0)
      clock.increment(1_000)
    }
    assert.equal(l.tryAcquire(['general', 'route']), 7_000, 'wait until the first call leaves the window')
    assert.equal(l.tryAcquire(['general']), 0, 'the refused call charged nothing')
    assert.equal(l.tryAcquire(['general']), 0)
    assert.equal(l.tryAcquire(['general']), 7_000)
    clock.increment(7_000)
    assert.equal(l.tryAcquire(['general', 'route']), 0, 'the window slid past the first call')
    assert.equal(l.refused, 2)
  })
})

describe('keyset paging', () => {
  interface R {
    readonly id: number
    readonly ts: number
    readonly digest: string
    /** Order within a second: arbitrary, so a late row can land before rows already served. */
    readonly tie: number
  }

  /** A venue list newest first (ties in an arbitrary order) with `end` and offset/limit, like the Data API. */
  class FakeVenue {
    rows: R[] = []
    #next = 0
    constructor(readonly rand: () => number = Math.random) {}
    add(ts: number): R {
      const id = this.#next++
      const r = { id, ts, digest: `d${id.toString(16)}`, tie: this.rand() }
      this.rows.push(r)
      this.rows.sort((a, b) => b.ts - a.ts || a.tie - b.tie)
      return r
    }
    fetch = async (bound: number | undefined, offset: number, limit: number): Promise<R[]> =>
      this.rows.filter((r) => bound === undefined || r.ts <= bound).slice(offset, offset + limit)
  }

  function rng(seed: number): () => number {
    let x = seed
    return () => (x = (x * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31
  }

  test('random walks with inserts at the head, inside the walked range and in the anchor second: each row once, none missing', async () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rand = rng(seed)
      const venue = new FakeVenue(rand)
      for (let i = 0; i < 150; i++) venue.add(1_000 + Math.floor(rand() * 40)) // ~4 rows per second
      const mustServe = new Set(venue.rows.map((r) => r.id))
      const served: number[] = []
      let anchor: Anchor | undefined
      const limit = 1 + Math.floor(rand() * 9)
      let late = 0
      for (let pages = 0; ; pages++) {
        assert.ok(pages < 1_000)
        const page = await keysetPage(venue.fetch, anchor, limit, 10_000)
        served.push(...page.rows.map((r) => r.id))
        if (page.next === undefined) break
        anchor = page.next
        // Inserts between pages: newer than the walk (not expected), in the anchor second and older (expected).
        // (A bounded number of late rows: an endless stream of them into the anchor second never lets a walk end.)
        venue.add(venue.rows[0]!.ts + 1)
        if (late < 30 && rand() < 0.5) {
          late++
          mustServe.add(venue.add(anchor.ts).id)
        }
        if (late < 30 && rand() < 0.5 && anchor.ts > 1_000) {
          late++
          mustServe.add(venue.add(1_000 + Math.floor(rand() * (anchor.ts - 1_000))).id)
        }
      }
      assert.equal(new Set(served).size, served.length, `seed ${seed}: no duplicates`)
      assert.deepEqual(
        [...mustServe].filter((id) => !served.includes(id)),
        [],
        `seed ${seed}: nothing missing`,
      )
      assert.ok(
        served.every((id) => mustServe.has(id)),
        `seed ${seed}: nothing newer than the walk`,
      )
    }
  })

  test('a second with more rows than digests kept pages by count within it', async () => {
    const venue = new FakeVenue(rng(7))
    for (let i = 0; i < MAX_SEEN * 3; i++) venue.add(500)
    for (let i = 0; i < 10; i++) venue.add(400 + i)
    const served: number[] = []
    let anchor: Anchor | undefined
    do {
      const page = await keysetPage(venue.fetch, anchor, 7, 10_000)
      served.push(...page.rows.map((r) => r.id))
      anchor = page.next
    } while (anchor !== undefined)
    assert.deepEqual(
      served,
      venue.rows.map((r) => r.id),
    )
  })

  test('cursors round-trip and reject what is not theirs', () => {
    const c = {
      kind: 'orders',
      filters: 'abc',
      anchor: { ts: 1_763_700_000, n: 2, seen: ['0a1b2c3d4e', 'ffffffffff1'] },
    }
    assert.deepEqual(decodeCursor(encodeCursor(c)), c)
    const counted = { kind: 'orders', filters: 'abc', anchor: { ts: 5, n: 99, seen: undefined } }
    assert.deepEqual(decodeCursor(encodeCursor(counted)), counted)
    for (const bad of [
      '',
      'x',
      Buffer.from('{"k":1}').toString('base64url'),
      Buffer.from('{"k":"a","f":"b","t":-1,"n":0}').toString('base64url'),
    ])
      assert.equal(decodeCursor(bad), undefined)
  })
})
