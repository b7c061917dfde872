import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import type { NatsConnection } from '@nats-io/transport-node'
import { MirrorStreams } from '../../src/bus/stream/mirror-streams.js'
import { streamState } from '../../src/bus/stream/stream-state.js'
import { marketSources } from '../../src/stream/sources/market/index.js'
import { deltaPayload, snapshotPayload, type Listed } from '../../src/stream/sources/spreads/ranked-list.js'
import { PER_ACCOUNT } from '../../src/stream/sources/spreads/recent-firings.js'
import { Sequencer, type FrameSink, type StreamId } from '../../src/stream/sequencer.js'
import { RecordingSink, rig } from '../stream/sources/market/fake-venue.js'
import { bookFeedSteps, bookLevels } from '../stream/sources/market/feed-arbitraries.js'

/**
 * An edge holds the leased channels' streams by applying their frames (src/bus/stream/stream-state.ts): the state it
 * holds after every frame must be what the ingest's source would snapshot at that seq, or a client that subscribes
 * on the edge starts from a wrong book, list or firing history.
 */

/** The ingest's sink, wired straight into an edge's mirror with the topic its subject names. */
class BusTee implements FrameSink {
  constructor(readonly mirror: MirrorStreams) {}
  publish(topic: string, frame: string): void {
    this.mirror.receive(frame, topic)
  }
}

test('a book the mirror rebuilds from the bus is the source snapshot at every seq, at depths 10 and 25', async () => {
  await fc.assert(
    fc.asyncProperty(bookLevels, bookLevels, bookFeedSteps, async (bids0, asks0, steps) => {
      const r = await rig()
      try {
        const forwarded = new RecordingSink()
        const mirror = new MirrorStreams({ nc: {} as NatsConnection, sink: forwarded, clock: r.clock })
        const sequencer = new Sequencer({ clock: r.clock, sink: new BusTee(mirror), epoch: 'e1' })
        const book = marketSources({ sequencer, venues: [r.actor], clock: r.clock }).find((s) => s.ch === 'book')!
        r.venue.emit({ type: 'snapshot', instrumentId: 'a', bids: bids0, asks: asks0, venueTs: 1 })
        const logs = [10, 25].map((depth) => {
          const log = sequencer.open(book.resolve('venuep:a', { depth }) as StreamId)
          book.open(log, { depth })
          // As the keeper opens a stream: its snapshot goes out first.
          mirror.receive(book.snapshot(log), log.id.topic)
          return log
        })
        const check = (when: string): void => {
          for (const log of logs) {
            const held = JSON.parse(mirror.snapshot(log.id.topic) as string) as Record<string, unknown>
            const truth = JSON.parse(book.snapshot(log)) as Record<string, unknown>
            assert.deepEqual(
              [held.epoch, held.seq, held.d],
              [truth.epoch, truth.seq, truth.d],
              `${log.id.topic} ${when}`,
            )
          }
        }
        check('at open')
        steps.forEach((events, i) => {
          r.clock.increment(1)
          r.venue.emit(...events)
          check(`after step ${i}`)
        })
      } finally {
        r.actor.stop()
      }
    }),
    { numRuns: 100, seed: 20261201 },
  )
})

const listed = fc
  .uniqueArray(fc.integer({ min: 1, max: 30 }), { maxLength: 20 })
  .chain((ids) =>
    fc.tuple(
      fc.constant(ids),
      fc.array(fc.integer({ min: 0, max: 3 }), { minLength: ids.length, maxLength: ids.length }),
    ),
  )

function list([ids, versions]: [number[], number[]]): Listed[] {
  return ids.map((id, i) => {
    const record = { id: `s${id}`, v: versions[i] }
    return { id: `s${id}`, json: JSON.stringify(record), record }
  })
}

test('a spreads.top list: the snapshot of one list with the delta to the next applied is the next list', () => {
  const rules = streamState('spreads.top')
  fc.assert(
    fc.property(listed, listed, (a, b) => {
      const before = list(a)
      const after = list(b)
      const d = deltaPayload(before, after)
      const held = d === undefined ? snapshotPayload(before) : rules.delta(snapshotPayload(before), d)
      assert.deepEqual(held, snapshotPayload(after))
    }),
    { numRuns: 500, seed: 20261201 },
  )
})

test('alerts: each firing is appended, the oldest dropped past the per-account bound; markers change nothing', () => {
  const rules = streamState('alerts')
  let state: unknown = { firings: [] }
  for (let i = 1; i <= PER_ACCOUNT + 3; i++) state = rules.delta(state, { id: `d${i}` })
  const firings = (state as { firings: { id: string }[] }).firings
  assert.equal(firings.length, PER_ACCOUNT)
  assert.deepEqual([firings[0]?.id, firings.at(-1)?.id], ['d4', `d${PER_ACCOUNT + 3}`])
  assert.equal(rules.marker(state, { ev: 'resync' }), state)
  assert.equal(streamState('quote').incremental, false)
  assert.equal(rules.incremental, true)
})
