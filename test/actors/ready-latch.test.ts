import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ReadyLatch } from '../../src/actors/ready-latch.js'

/**
 * The latch a restart's deferred work waits on (src/actors/ready-latch.ts): it resolves once the condition holds, or
 * after its longest wait when the condition never holds, and never after `stop`.
 */
const settled = async (p: Promise<void>, ms: number): Promise<boolean> =>
  Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))])

test('resolves once the condition holds, not before', async () => {
  let ready = false
  const latch = new ReadyLatch()
  latch.watch(() => ready, 60_000, 5)
  assert.equal(await settled(latch.promise, 40), false)
  ready = true
  assert.equal(await settled(latch.promise, 1_000), true)
})

test('resolves after its longest wait when the condition never holds', async () => {
  const latch = new ReadyLatch()
  latch.watch(() => false, 30, 5)
  assert.equal(await settled(latch.promise, 2_000), true)
})

test('never resolves once stopped', async () => {
  let ready = false
  const latch = new ReadyLatch()
  latch.watch(() => ready, 60_000, 5)
  latch.stop()
  ready = true
  assert.equal(await settled(latch.promise, 60), false)
})
