import { crc32 } from './crc32.js'

/**
 * The `spreads.top` list on the client. Frames carry `upsert [{rank, id, record}]` (absolute 1-based ranks; every
 * item whose rank changed is upserted), `remove [id]`, and `crc` = CRC-32 of the ordered ids joined by `,`. A
 * snapshot is the whole list as `upsert`.
 */
export interface TopItem<R = unknown> {
  readonly rank: number
  readonly id: string
  readonly record: R
}

export interface TopPayload<R = unknown> {
  readonly upsert?: readonly TopItem<R>[]
  readonly remove?: readonly string[]
  readonly crc?: number
}

export interface TopApplyResult {
  readonly ok: boolean
  readonly expected?: number
  readonly actual: number
}

export class TopListAssembler<R = unknown> {
  readonly #items = new Map<string, TopItem<R>>()

  applySnapshot(d: TopPayload<R>): TopApplyResult {
    this.#items.clear()
    return this.applyDelta(d)
  }

  applyDelta(d: TopPayload<R>): TopApplyResult {
    for (const id of d.remove ?? []) this.#items.delete(id)
    for (const item of d.upsert ?? []) this.#items.set(item.id, item)
    const actual = this.checksum()
    return d.crc === undefined ? { ok: true, actual } : { ok: d.crc === actual, expected: d.crc, actual }
  }

  clear(): void {
    this.#items.clear()
  }

  /** Items by rank (ties, which a consistent list never has, by id so the order is still stable). */
  items(): TopItem<R>[] {
    return [...this.#items.values()].sort((a, b) => a.rank - b.rank || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  }

  checksum(): number {
    return crc32(
      this.items()
        .map((i) => i.id)
        .join(','),
    )
  }
}
