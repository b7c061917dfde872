import assert from 'node:assert/strict'
import { test } from 'node:test'
import { FRAME_BUDGET_MS, framePump, type FrameTarget } from '../../src/venues/frame-pump.js'

/** The shared frame pump: arrival order kept across targets, and the event loop given back between slices. */
const busy = (ms: number) => {
  const end = performance.now() + ms
  while (performance.now() < end) {
    // burn
  }
}

test('a burst longer than the budget is handled in order, in slices, with the event loop served between them', async () => {
  const handled: string[] = []
  const events: string[] = []
  const target = (name: string): FrameTarget<string> => ({
    handleFrame(token, data) {
      handled.push(`${name}:${token}:${data}`)
      events.push('frame')
      busy(FRAME_BUDGET_MS / 2)
    },
  })
  const a = target('a')
  const b = target('b')
  const deferredBefore = framePump.deferred
  // A burst as a socket read delivers it: 24 frames from two connections in one synchronous run (~6 budgets).
  const sent: string[] = []
  for (let i = 0; i < 24; i++) {
    const [t, name] = i % 3 === 0 ? [b, 'b'] : [a, 'a']
    framePump.deliver(t, 'sock1', `f${i}`, i)
    sent.push(`${name}:sock1:f${i}`)
  }
  // Something else waiting on the event loop (a request, a timer): it must run before the burst is done.
  setTimeout(() => events.push('other work'), 0)
  assert.ok(handled.length >= 1 && handled.length < 24, `handled at once while in budget: ${handled.length}`)
  while (framePump.queued > 0) await new Promise((r) => setImmediate(r))
  assert.deepEqual(handled, sent, 'every frame, in arrival order')
  assert.ok(framePump.deferred > deferredBefore, 'some frames waited for a later turn')
  const other = events.indexOf('other work')
  assert.ok(other > 0 && other < events.length - 1, `other work ran between slices (at ${other} of ${events.length})`)
})

test('with budget left, a frame is handled synchronously', async () => {
  await new Promise((r) => setImmediate(r))
  await new Promise((r) => setImmediate(r))
  let seen = ''
  framePump.deliver({ handleFrame: (_t: null, d: string) => (seen = d) }, null, 'now', 0)
  assert.equal(seen, 'now')
})
