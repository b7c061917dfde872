import { crc32 } from 'node:zlib'

/**
 * A `spreads.top` list as clients hold it, and the frames that move them from one list to the next.
 *
 * Payload (snapshot and delta alike): `{upsert: [{rank, id, record}], remove: [id], crc}`. Ranks are absolute and
 * 1-based; a delta upserts every item whose rank or record changed and removes the ids that left; a snapshot is
 * the whole list as upserts (remove empty). `crc` = CRC32 (`zlib.crc32`) of the ordered ids joined by `,`, so a
 * client that applied the frames can prove its order (and asks for a snapshot when it cannot).
 *
 * Applying a delta: drop the removed ids, set each upserted id's rank and record, order by rank. Every item whose
 * rank changed is upserted, so the ranks held after a delta are the list's 1..n.
 */
export interface RankedItem {
  readonly rank: number
  readonly id: string
  readonly record: unknown
}

export interface RankedPayload {
  readonly upsert: readonly RankedItem[]
  readonly remove: readonly string[]
  readonly crc: number
}

/** One listed record as last framed. */
export interface Listed {
  readonly id: string
  /** Its JSON: a record that changed for clients changes it. */
  readonly json: string
  readonly record: unknown
}

export function listCrc(ids: readonly string[]): number {
  return crc32(ids.join(','))
}

export function snapshotPayload(list: readonly Listed[]): RankedPayload {
  return {
    upsert: list.map((x, i) => ({ rank: i + 1, id: x.id, record: x.record })),
    remove: [],
    crc: listCrc(list.map((x) => x.id)),
  }
}

/** The delta from `before` to `after`, or undefined when clients would hold the same list. */
export function deltaPayload(before: readonly Listed[], after: readonly Listed[]): RankedPayload | undefined {
  const old = new Map<string, { readonly rank: number; readonly json: string }>()
  before.forEach((x, i) => old.set(x.id, { rank: i + 1, json: x.json }))
  const upsert: RankedItem[] = []
  const kept = new Set<string>()
  after.forEach((x, i) => {
    kept.add(x.id)
    const was = old.get(x.id)
    if (was === undefined || was.rank !== i + 1 || was.json !== x.json)
      upsert.push({ rank: i + 1, id: x.id, record: x.record })
  })
  const remove = before.filter((x) => !kept.has(x.id)).map((x) => x.id)
  if (upsert.length === 0 && remove.length === 0) return undefined
  return { upsert, remove, crc: listCrc(after.map((x) => x.id)) }
}
