import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { marketSources } from '../../../../src/stream/sources/market/index.js'
import type { StreamId } from '../../../../src/stream/sequencer.js'
import { ClientBook, expected, referenceCrc } from './client-book.js'
import { bookFeedSteps as frames, bookLevels as levels } from './feed-arbitraries.js'
import { rig, type Frame } from './fake-venue.js'

/**
 * Random feed frames into a venue actor with book streams open at depths 10 and 25: a client that applies what
 * the stream publishes (snapshots replace, deltas set absolute sizes, "0" removes, a disconnect marker voids its
 * book until the resync snapshot) holds exactly the actor's top N at every frame, every frame's crc is the one
 * computed here from the actor's book with our own printing, and seqs are contiguous.
 */

test('a book rebuilt from snapshot + deltas is the actor top N at every frame, with the crc computed here', async () => {
  await fc.assert(
    fc.asyncProperty(levels, levels, frames, async (bids0, asks0, steps) => {
      const r = await rig()
      try {
        const book = marketSources({ sequencer: r.sequencer, venues: [r.actor], clock: r.clock }).find(
          (s) => s.ch === 'book',
        )!
        r.venue.emit({ type: 'snapshot', instrumentId: 'a', bids: bids0, asks: asks0, venueTs: 1 })
        const clients = new Map<string, { depth: number; client: ClientBook }>()
        for (const depth of [10, 25]) {
          const log = r.sequencer.open(book.resolve('venuep:a', { depth }) as StreamId)
          book.open(log, { depth })
          const client = new ClientBook()
          client.apply(JSON.parse(book.snapshot(log)) as Frame)
          clients.set(log.id.topic, { depth, client })
        }
        const actorTop = (depth: number) => {
          const b = r.actor.book('a')!
          return { bids: expected(b.levels('bid', depth)), asks: expected(b.levels('ask', depth)) }
        }
        // Checked inside the actor's step, as each frame is published: the book is the step's result.
        r.sink.onFrame = (topic, f) => {
          const c = clients.get(topic)
          assert.ok(c, `frames only for open streams (${topic})`)
          c.client.apply(f)
          if (f.type === 'marker') return
          const top = actorTop(c.depth)
          assert.deepEqual(c.client.top('bid'), top.bids, `bids at seq ${f.seq}`)
          assert.deepEqual(c.client.top('ask'), top.asks, `asks at seq ${f.seq}`)
          assert.equal(f.d.crc, referenceCrc(top.asks, top.bids), `crc at seq ${f.seq}`)
        }
        for (const events of steps) {
          r.clock.increment(1)
          r.venue.emit(...events)
          for (const { depth, client } of clients.values()) {
            const live = r.actor.book('a')!.hasSnapshot
            // Between steps: a trusting client holds the live book; a stale book was announced.
            assert.equal(client.trusted, live, 'the client trusts its book exactly while the actor has one')
            if (!live) continue
            const top = actorTop(depth)
            assert.deepEqual([client.top('bid'), client.top('ask')], [top.bids, top.asks])
          }
        }
      } finally {
        r.actor.stop()
      }
    }),
    { numRuns: 150, seed: 20261126 },
  )
})
