import { createHash } from 'node:crypto'

/**
 * A venue's raw catalog records, mapped once per content. Each sync asks for every record it lists; a record whose
 * raw content is what the last completed sync saw gets that sync's mapped object back, unmapped again. So an
 * unchanged event is the same object from one catalog to the next, and identity means "unchanged" downstream: the
 * catalog loader skips a catalog whose events are all the installed ones, and what is built per event can be kept.
 *
 * The fingerprint is a SHA-1 of the record's JSON plus whatever else its mapping reads (venuek: its series). It is
 * exact where the venues' update stamps are not: a market's volume or best price moves without the event's
 * `updatedAt` moving. Hashing the JSON costs less than mapping, and keeps 28 characters per record instead of a copy.
 *
 * One sync at a time (the loader's rule): `begin` starts one, `commit` makes what it mapped the basis of the next.
 * A sync that fails or is aborted is never committed, so the next one compares against the last that completed.
 */
export class MappedRecords<T> {
  #kept = new Map<string, Kept<T>>()
  #next = new Map<string, Kept<T>>()
  #reused = 0
  #mapped = 0

  /** A sync starts: forgets what an unfinished one mapped. */
  begin(): void {
    this.#next = new Map()
    this.#reused = 0
    this.#mapped = 0
  }

  /**
   * The mapped record for `raw` (listed under `key`, the venue's event id): the kept one when `raw` and `context`
   * are what they were, else `map()`'s.
   */
  map(key: string, raw: unknown, context: string, map: () => T): T {
    const fingerprint = createHash('sha1')
      .update(JSON.stringify(raw) ?? '')
      .update('\u0000')
      .update(context)
      .digest('base64')
    const kept = this.#kept.get(key)
    if (kept !== undefined && kept.fingerprint === fingerprint) {
      this.#next.set(key, kept)
      this.#reused++
      return kept.mapped
    }
    const mapped = map()
    this.#next.set(key, { fingerprint, mapped })
    this.#mapped++
    return mapped
  }

  /** The sync completed: what it listed is kept for the next one, what it did not list is dropped. */
  commit(): MappedCounts {
    this.#kept = this.#next
    this.#next = new Map()
    return { reused: this.#reused, mapped: this.#mapped }
  }
}

/** Records of one sync: given back unchanged, and mapped (new or changed). */
export interface MappedCounts {
  readonly reused: number
  readonly mapped: number
}

interface Kept<T> {
  readonly fingerprint: string
  readonly mapped: T
}
