import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { ConnectionState, SubscribeResult, Subscription } from '../../src/stream-client/stream-client.js'
import { StreamCommandError } from '../../src/stream-client/stream-client.js'
import type { AckFrame } from '../../src/stream-client/wire.js'
import { SubscriptionSlot, type SlotClient, type SlotOutcome } from '../../src/dashboard/web/subscription-slot.js'

/** A client whose commands are answered by the test, in order. */
class FakeClient implements SlotClient {
  state: ConnectionState = 'open'
  readonly calls: string[] = []
  readonly #pending: { resolve(v: unknown): void; reject(e: Error): void }[] = []
  #sid = 0

  subscribe(ch: string, keys: readonly string[], options: { depth?: number } = {}): Promise<SubscribeResult> {
    this.calls.push(`subscribe ${ch} ${keys.join(',')}${options.depth === undefined ? '' : ` depth=${options.depth}`}`)
    return new Promise((resolve, reject) => this.#pending.push({ resolve: resolve as (v: unknown) => void, reject }))
  }

  unsubscribe(subscription: Subscription): Promise<AckFrame> {
    this.calls.push(`unsubscribe ${subscription.sid ?? '?'}`)
    return new Promise((resolve, reject) => this.#pending.push({ resolve: resolve as (v: unknown) => void, reject }))
  }

  /** Answers the oldest command: a subscribe with `accepted` (the rest rejected), an unsubscribe with an ack. */
  async answer(accepted?: readonly string[], rejected: readonly string[] = []): Promise<void> {
    const p = this.#pending.shift()
    assert.ok(p !== undefined, 'a command to answer')
    if (accepted === undefined) p.resolve({ type: 'ack', id: 1 })
    else {
      const sid = `s${++this.#sid}`
      const subscription: Subscription = { ch: 'x', keys: new Set(accepted), depth: undefined, sid }
      const ack: AckFrame = {
        type: 'ack',
        id: 1,
        sid,
        accepted,
        rejected: rejected.map((key) => ({ key, code: 'BAD_REQUEST' as const, reason: `no ${key}` })),
      }
      p.resolve({ ack, subscription })
    }
    await flush()
  }

  async fail(error: Error): Promise<void> {
    this.#pending.shift()?.reject(error)
    await flush()
  }

  get waiting(): number {
    return this.#pending.length
  }
}

const flush = () => new Promise((r) => setImmediate(r))

function slotWith(client: FakeClient) {
  const outcomes: string[] = []
  const slot = new SubscriptionSlot(client, 'spreads.top', (o: SlotOutcome) => {
    if (o.kind === 'subscribed')
      outcomes.push(`subscribed ${o.accepted.join(',')} | ${o.rejected.map((r) => r.reason).join(',')}`)
    else if (o.kind === 'failed') outcomes.push(`failed ${o.message}`)
    else outcomes.push(`released ${o.target.keys.join(',')}`)
  })
  return { slot, outcomes }
}

describe('subscription slot', () => {
  test('a new wish unsubscribes the old keys first; wishes made meanwhile collapse into the last', async () => {
    const client = new FakeClient()
    const { slot, outcomes } = slotWith(client)
    slot.set({ keys: ['v1'] })
    await client.answer(['v1'])
    assert.deepEqual(slot.keys, ['v1'])
    slot.set({ keys: ['v2'] })
    slot.set({ keys: ['v3'] }) // while the unsubscribe is in flight
    slot.set({ keys: ['v4'] })
    await client.answer()
    await client.answer(['v4'])
    assert.equal(client.waiting, 0)
    assert.deepEqual(client.calls, ['subscribe spreads.top v1', 'unsubscribe s1', 'subscribe spreads.top v4'])
    assert.deepEqual(outcomes, ['subscribed v1 | ', 'released v1', 'subscribed v4 | '])
    assert.deepEqual(slot.keys, ['v4'])
  })

  test('a refused key is reported with its reason and its empty subscription freed; the same wish is not retried', async () => {
    const client = new FakeClient()
    const { slot, outcomes } = slotWith(client)
    slot.set({ keys: ['bad'] })
    await client.answer([], ['bad'])
    assert.deepEqual(outcomes, ['subscribed  | no bad'])
    assert.deepEqual(client.calls, ['subscribe spreads.top bad', 'unsubscribe s1'])
    await client.answer()
    slot.reconcile()
    await flush()
    assert.equal(client.calls.length, 2, 'no retry of a refused view')
    assert.deepEqual(slot.keys, [])
  })

  test('while disconnected it waits, and carries out the last wish once reconciled on an open connection', async () => {
    const client = new FakeClient()
    const { slot } = slotWith(client)
    client.state = 'reconnecting'
    slot.set({ keys: ['a'], depth: 10 })
    await flush()
    assert.deepEqual(client.calls, [])
    client.state = 'open'
    slot.reconcile()
    await flush()
    assert.deepEqual(client.calls, ['subscribe spreads.top a depth=10'])
    // The connection drops under the command: nothing is held, and the next reconcile asks again.
    await client.fail(new StreamCommandError('DISCONNECTED', 'gone'))
    slot.reconcile()
    await flush()
    assert.deepEqual(client.calls, ['subscribe spreads.top a depth=10', 'subscribe spreads.top a depth=10'])
    await client.answer(['a'])
    assert.deepEqual(slot.keys, ['a'])
  })

  test('a failed command (not a lost connection) is reported; clearing the wish releases what is held', async () => {
    const client = new FakeClient()
    const { slot, outcomes } = slotWith(client)
    slot.set({ keys: ['a'] })
    await client.fail(new StreamCommandError('SUBSCRIPTION_LIMIT', 'too many'))
    assert.deepEqual(outcomes, ['failed SUBSCRIPTION_LIMIT: too many'])
    slot.set({ keys: ['b'] })
    await client.answer(['b'])
    slot.set(undefined)
    await client.answer()
    assert.deepEqual(client.calls, ['subscribe spreads.top a', 'subscribe spreads.top b', 'unsubscribe s1'])
    assert.deepEqual(outcomes.slice(1), ['subscribed b | ', 'released b'])
    assert.deepEqual(slot.keys, [])
  })
})
