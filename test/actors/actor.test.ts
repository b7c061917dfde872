import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { Actor } from '../../src/actors/actor.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { Supervisor, type SupervisorEvent } from '../../src/actors/supervisor.js'

class Recorder extends Actor<number> {
  readonly seen: number[] = []
  starts = 0
  stops = 0
  failOn: number | undefined
  onProcess: ((n: number) => void) | undefined
  protected process(n: number): void {
    if (n === this.failOn) throw new Error(`boom on ${n}`)
    this.seen.push(n)
    this.onProcess?.(n)
  }
  protected override onStart(): void {
    this.starts++
  }
  protected override onStop(): void {
    this.stops++
  }
}

describe('Actor', () => {
  test('processes messages one at a time, in order, including ones sent from inside process', () => {
    const a = new Recorder('r')
    a.onProcess = (n) => {
      if (n === 1) {
        a.send(10)
        // Re-entrant send is queued, not processed inside this call.
        assert.deepEqual(a.seen, [1])
      }
    }
    a.start()
    a.send(1)
    a.send(2)
    assert.deepEqual(a.seen, [1, 10, 2])
    assert.deepEqual(a.snapshot().counters, { received: 3, processed: 3, dropped: 0, failures: 0 })
  })

  test('messages sent before start are processed on start', () => {
    const a = new Recorder('r')
    a.send(1)
    a.send(2)
    assert.deepEqual(a.seen, [])
    a.start()
    assert.deepEqual(a.seen, [1, 2])
  })

  test('an exception fails the actor without reaching the sender, and later messages are dropped', () => {
    const a = new Recorder('r')
    const failures: string[] = []
    a.onFailure((_, err) => failures.push((err as Error).message))
    a.failOn = 2
    a.start()
    assert.doesNotThrow(() => a.send(1))
    assert.doesNotThrow(() => a.send(2))
    assert.equal(a.status, 'failed')
    assert.equal(a.send(3), false)
    assert.deepEqual(a.seen, [1])
    assert.deepEqual(failures, ['boom on 2'])
    assert.equal(a.stops, 1)
    assert.equal(a.snapshot().lastError, 'boom on 2')
    assert.equal(a.snapshot().counters.dropped, 1)
  })

  test('a full mailbox fails the actor instead of silently dropping a message', () => {
    const a = new Recorder('r', 2)
    a.send(1)
    a.send(2)
    assert.equal(a.send(3), false)
    assert.equal(a.status, 'failed')
    assert.match(a.snapshot().lastError ?? '', /mailbox overflow/)
  })

  test('stop is idempotent and drops later messages', () => {
    const a = new Recorder('r')
    a.start()
    a.stop()
    a.stop()
    assert.equal(a.stops, 1)
    assert.equal(a.send(1), false)
    assert.equal(a.status, 'stopped')
  })
})

describe('Supervisor', () => {
  test('restarts a failed actor with exponential backoff, and stops restarting after stopAll', () => {
    const clock = new SimulatedClock(0)
    const events: SupervisorEvent[] = []
    const sup = new Supervisor({
      clock,
      initialBackoffMs: 100,
      maxBackoffMs: 250,
      resetAfterMs: 10_000,
      onEvent: (e) => events.push(e),
    })
    const a = new Recorder('venue:x')
    a.failOn = 7
    sup.supervise(a)
    sup.startAll()
    a.send(7)
    assert.equal(a.status, 'failed')
    clock.increment(99)
    assert.equal(a.status, 'failed')
    clock.increment(1)
    assert.equal(a.status, 'running')
    assert.equal(a.starts, 2)
    a.send(7)
    clock.increment(199)
    assert.equal(a.status, 'failed')
    clock.increment(1)
    assert.equal(a.status, 'running')
    a.send(7)
    // Capped at maxBackoffMs (250), not 400.
    clock.increment(250)
    assert.equal(a.status, 'running')
    assert.deepEqual(
      events.filter((e) => e.type === 'actor_failed').map((e) => (e as { restartInMs: number }).restartInMs),
      [100, 200, 250],
    )
    assert.equal(sup.snapshot()[0]?.restarts, 3)
    a.send(7)
    sup.stopAll()
    clock.increment(10_000)
    assert.notEqual(a.status, 'running')
  })
})
