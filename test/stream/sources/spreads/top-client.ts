import assert from 'node:assert/strict'
import { crc32 } from 'node:zlib'

/**
 * A `spreads.top` client as the protocol describes one: a snapshot replaces its list, a delta drops the removed
 * ids and sets each upserted item's rank and record, and every frame's `crc` is checked against the ids in
 * order. It also holds the stream to the seq rules (a delta is the previous seq + 1).
 */
interface Item {
  rank: number
  record: Record<string, unknown>
}

interface Payload {
  upsert: { rank: number; id: string; record: Record<string, unknown> }[]
  remove: string[]
  crc: number
}

export class TopClient {
  readonly #items = new Map<string, Item>()
  seq: number | undefined

  apply(frame: Record<string, unknown>): void {
    const d = frame.d as Payload
    if (frame.type === 'snapshot') {
      this.#items.clear()
      assert.deepEqual(d.remove, [], 'a snapshot removes nothing')
    } else {
      assert.equal(frame.type, 'delta')
      assert.equal(frame.seq, (this.seq as number) + 1, 'a delta is the previous seq + 1')
      for (const id of d.remove) assert.ok(this.#items.delete(id), `removed ${id} was listed`)
    }
    this.seq = frame.seq as number
    for (const u of d.upsert) {
      assert.equal(u.record.id, u.id, 'an item is its record')
      this.#items.set(u.id, { rank: u.rank, record: u.record })
    }
    const ids = this.ids
    assert.deepEqual(
      [...this.#items.values()].map((x) => x.rank).sort((a, b) => a - b),
      ids.map((_, i) => i + 1),
      'ranks are 1..n',
    )
    assert.equal(d.crc, crc32(ids.join(',')), 'crc of the ordered ids')
  }

  get ids(): string[] {
    return [...this.#items.entries()].sort((a, b) => a[1].rank - b[1].rank).map(([id]) => id)
  }

  get records(): Record<string, unknown>[] {
    return [...this.#items.values()].sort((a, b) => a.rank - b.rank).map((x) => x.record)
  }
}
