import assert from 'node:assert/strict'
import { crc32 } from 'node:zlib'
import type { BookReader } from '../../../../src/book/order-book.js'
import type { Frame } from './fake-venue.js'

/**
 * What a test expects of a book stream, computed without the code under test.
 *
 * The printing rule, written independently: at least 4 (prices) or 2 (sizes) decimals, more only when needed.
 */
export function decimal(micros: number, minDecimals: number): string {
  let s = (micros / 1e6).toFixed(6)
  while (s.endsWith('0') && s.length - s.indexOf('.') - 1 > minDecimals) s = s.slice(0, -1)
  return s
}

export type Levels = [string, string][]

export function expected(levels: readonly (readonly [number, number])[]): Levels {
  return levels.map(([p, s]) => [decimal(p, 4), decimal(s, 2)])
}

export function referenceCrc(asks: Levels, bids: Levels): number {
  const side = (l: Levels) =>
    l
      .slice(0, 10)
      .map(([p, s]) => `${p}:${s}`)
      .join(',')
  return crc32(`${side(asks)}|${side(bids)}`)
}

/**
 * A book-stream client as the protocol describes it, written from the contract alone: snapshots replace, deltas
 * set absolute sizes, "0" removes, a `venue_disconnect` marker voids the book until the resync snapshot. It
 * asserts the seq rules as it applies frames.
 */
export class ClientBook {
  bids = new Map<string, string>()
  asks = new Map<string, string>()
  trusted = true
  seq = 0

  apply(f: Frame): void {
    if (f.type === 'snapshot') {
      assert.equal(f.seq, this.seq, 'a snapshot carries the seq of the last change')
      this.bids = new Map(f.d.bids as Levels)
      this.asks = new Map(f.d.asks as Levels)
      this.trusted = true
      return
    }
    assert.equal(f.seq, this.seq + 1, `contiguous seq (${f.type})`)
    this.seq = f.seq
    if (f.type === 'marker') {
      if (f.d.ev === 'venue_disconnect') this.trusted = false
      return
    }
    assert.ok(this.trusted, 'no delta between a disconnect marker and the resync snapshot')
    for (const [side, levels] of [
      [this.bids, f.d.bids],
      [this.asks, f.d.asks],
    ] as const)
      for (const [p, s] of levels as Levels) {
        if (s === '0') {
          assert.ok(side.has(p), `removal of a level the client holds (${p})`)
          side.delete(p)
        } else side.set(p, s)
      }
  }

  top(side: 'bid' | 'ask'): Levels {
    const dir = side === 'ask' ? 1 : -1
    return [...(side === 'bid' ? this.bids : this.asks)].sort((a, b) => (Number(a[0]) - Number(b[0])) * dir)
  }
}

/** The book's top `depth` levels printed by the rule above (what a client must hold). */
export function printedTop(book: BookReader, depth: number): { bids: Levels; asks: Levels } {
  return { bids: expected(book.levels('bid', depth)), asks: expected(book.levels('ask', depth)) }
}
