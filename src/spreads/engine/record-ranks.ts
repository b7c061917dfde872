import { BucketIndex } from './bucket-index.js'
import type { SpreadRecord } from './types.js'

/**
 * The lowest net edge the net-edge index tells apart: a net edge is a bid less an ask less two taker fees, so at
 * least −1 less the fees (a few cents at the venues' rates); lower ones all rank as this one.
 */
export const NET_EDGE_FLOOR = -2

/**
 * A net edge as a BucketIndex value (the index takes [0, 1]): (edge − NET_EDGE_FLOOR) / (1 − NET_EDGE_FLOOR).
 * Monotone, and distinct for net edges 10⁻⁶ apart (they are rounded to 10⁻⁶), so the index orders by net edge.
 */
export function netEdgeRank(netEdge: number): number {
  return (Math.max(NET_EDGE_FLOOR, netEdge) - NET_EDGE_FLOOR) / (1 - NET_EDGE_FLOOR)
}

/**
 * The spread engine's rankings of its records, by pair id: by confidence (/spreads/top), by spread size (the
 * scanner) and, for records with an executable edge, by net edge; and the top-list epoch that tells cached top
 * lists whether a change reached them.
 *
 * Top-list epoch: bumped by any record change that can alter a cached top list, i.e. a change of a pair whose old
 * or new confidence is at or above the lowest floor a reader registered (`noteTopFloor`) since the last bump.
 * Changes further down the ranking (nearly all of them) leave the top lists' bytes valid.
 */
export class RecordRanks {
  readonly #confidence = new BucketIndex()
  readonly #spread = new BucketIndex()
  /** Records with an executable edge, by net edge (mapped into [0, 1] by `netEdgeRank`). */
  readonly #netEdge = new BucketIndex()
  #topEpoch = 0
  #topFloor = Number.NEGATIVE_INFINITY

  get topEpoch(): number {
    return this.#topEpoch
  }

  /**
   * A reader caching a top list says how far down it looked: the confidence of its last record (0 when the list
   * was not full, so any new record could join it). Until a change reaches that floor, `topEpoch` stays put.
   */
  noteTopFloor(floor: number): void {
    if (floor < this.#topFloor) this.#topFloor = floor
  }

  /**
   * Pair `id`'s record is now `record` (undefined: it has none). The confidence index holds the previous one:
   * reading it there costs no cache miss the update does not pay.
   */
  place(id: number, record: SpreadRecord | undefined): void {
    this.#touchTop(this.#confidence.value(id), record?.confidence)
    if (record === undefined) {
      this.#confidence.delete(id)
      this.#spread.delete(id)
      this.#netEdge.delete(id)
      return
    }
    this.#confidence.set(id, record.confidence)
    this.#spread.set(id, record.spread)
    const x = record.executable
    if (x === undefined) this.#netEdge.delete(id)
    else this.#netEdge.set(id, netEdgeRank(x.netEdge))
  }

  /** Pair ids by confidence, highest first, while `visit` returns true. */
  byConfidence(visit: (id: number) => boolean): void {
    this.#confidence.forEachDescending(visit)
  }

  /** Pair ids with spread ≥ minSpread, largest first, while `visit` does not return false. */
  bySpread(minSpread: number, visit: (id: number) => boolean | void): void {
    this.#spread.forEachDescending(visit, minSpread)
  }

  /** Pair ids with an executable net edge of about `minNetEdge` or more (see SpreadEngine.byNetEdge), largest first. */
  byNetEdge(minNetEdge: number, visit: (id: number) => boolean | void): void {
    this.#netEdge.forEachDescending(visit, netEdgeRank(minNetEdge))
  }

  /** A record's confidence moved from `previous` to `next` (undefined: no record). */
  #touchTop(previous: number | undefined, next: number | undefined): void {
    const floor = this.#topFloor
    if ((previous !== undefined && previous >= floor) || (next !== undefined && next >= floor)) {
      this.#topEpoch++
      // Every cached list is invalid now; each re-registers its floor when it is rebuilt.
      this.#topFloor = Number.POSITIVE_INFINITY
    }
  }
}
