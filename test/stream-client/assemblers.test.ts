import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { crc32 as zlibCrc32 } from 'node:zlib'
import fc from 'fast-check'
import { BookAssembler } from '../../src/stream-client/book-assembler.js'
import { crc32 } from '../../src/stream-client/crc32.js'
import { TopListAssembler } from '../../src/stream-client/top-list-assembler.js'
import { ReferenceBook } from './fake-peer.js'

/** The client's state assembly, without a socket: checksums, books and the top list against plain references. */
describe('crc32', () => {
  test("equals Node's zlib.crc32 (the server's) on any text, and the standard check value", () => {
    assert.equal(crc32('123456789'), 0xcbf43926)
    assert.equal(crc32(''), 0)
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (s) => crc32(s) === zlibCrc32(s)))
  })
})

/** A price from a small grid (so levels collide and get replaced or removed), printed as the server prints it. */
const price = fc.integer({ min: 1, max: 40 }).map((c) => (c / 100).toFixed(4))
const size = fc.oneof(
  fc.constant('0'),
  fc.integer({ min: 1, max: 5_000 }).map((n) => (n / 100).toFixed(2)),
)
const level = fc.tuple(price, size)
const frameOps = fc.record({ bids: fc.array(level, { maxLength: 6 }), asks: fc.array(level, { maxLength: 6 }) })

describe('BookAssembler', () => {
  test('property: a snapshot then random absolute-size deltas assemble the reference book, and every crc verifies', () => {
    fc.assert(
      fc.property(frameOps, fc.array(frameOps, { maxLength: 25 }), (snapshot, deltas) => {
        const ref = new ReferenceBook()
        const book = new BookAssembler()
        for (const [p, s] of snapshot.bids) ref.set('bids', p, s)
        for (const [p, s] of snapshot.asks) ref.set('asks', p, s)
        assert.deepEqual(book.applySnapshot({ ...snapshot, crc: ref.crc() }), {
          ok: true,
          expected: ref.crc(),
          actual: ref.crc(),
        })
        for (const d of deltas) {
          for (const [p, s] of d.bids) ref.set('bids', p, s)
          for (const [p, s] of d.asks) ref.set('asks', p, s)
          assert.equal(book.applyDelta({ ...d, crc: ref.crc() }).ok, true)
        }
        assert.deepEqual(book.view(), { bids: ref.levels('bids'), asks: ref.levels('asks') })
      }),
    )
  })

  test('a snapshot replaces (no ghost levels), "0" removes, and the checksum text is asks ascending | bids descending', () => {
    const book = new BookAssembler()
    book.applySnapshot({ bids: [['0.4500', '10.00']], asks: [['0.5500', '3.00']] })
    book.applyDelta({
      bids: [
        ['0.4700', '1.50'],
        ['0.4500', '0'],
      ],
      asks: [['0.5300', '2.00']],
    })
    assert.equal(book.checksumText(), '0.5300:2.00,0.5500:3.00|0.4700:1.50')
    book.applySnapshot({ bids: [['0.4000', '1.00']], asks: [] })
    assert.deepEqual(book.view(), { bids: [['0.4000', '1.00']], asks: [] })
    assert.equal(book.checksumText(), '|0.4000:1.00')
  })

  test('only the top 10 levels per side are in the checksum; a wrong crc is reported with both values', () => {
    const book = new BookAssembler()
    const bids = Array.from({ length: 12 }, (_, i): [string, string] => [((30 - i) / 100).toFixed(4), '1.00'])
    const r = book.applySnapshot({ bids, asks: [], crc: 1 })
    const text = `|${bids
      .slice(0, 10)
      .map(([p, s]) => `${p}:${s}`)
      .join(',')}`
    assert.equal(book.checksumText(), text)
    assert.deepEqual(r, { ok: false, expected: 1, actual: zlibCrc32(text) })
  })
})

describe('TopListAssembler', () => {
  test('upsert by id with absolute ranks, remove by id, crc of the ordered ids', () => {
    const top = new TopListAssembler<{ spread: number }>()
    const r1 = top.applySnapshot({
      upsert: [
        { rank: 2, id: 'b', record: { spread: 0.1 } },
        { rank: 1, id: 'a', record: { spread: 0.2 } },
        { rank: 3, id: 'c', record: { spread: 0.05 } },
      ],
      crc: zlibCrc32('a,b,c'),
    })
    assert.equal(r1.ok, true)
    const r2 = top.applyDelta({
      upsert: [
        { rank: 1, id: 'c', record: { spread: 0.3 } },
        { rank: 2, id: 'a', record: { spread: 0.2 } },
      ],
      remove: ['b'],
      crc: zlibCrc32('c,a'),
    })
    assert.equal(r2.ok, true)
    assert.deepEqual(top.items(), [
      { rank: 1, id: 'c', record: { spread: 0.3 } },
      { rank: 2, id: 'a', record: { spread: 0.2 } },
    ])
    assert.deepEqual(top.applyDelta({ crc: zlibCrc32('a,c') }), {
      ok: false,
      expected: zlibCrc32('a,c'),
      actual: zlibCrc32('c,a'),
    })
    top.applySnapshot({ upsert: [] })
    assert.deepEqual(top.items(), [])
  })
})
