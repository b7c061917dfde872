import { crc32 } from './crc32.js'

/**
 * A book stream's state on the client: a snapshot replaces it, a delta sets absolute sizes per price, and size
 * `"0"` removes a level. Prices and sizes stay the decimal strings the server sent, because the checksum is
 * computed over those exact strings (`"0.4700"` and `"0.47"` hash differently).
 *
 * Checksum (contract): CRC-32 of the top 10 asks ascending, then the top 10 bids descending, each level
 * `price:size`, levels joined with `,`, the two sides separated by `|`.
 */
export type Level = readonly [price: string, size: string]

export interface BookPayload {
  readonly bids?: readonly Level[]
  readonly asks?: readonly Level[]
  readonly crc?: number
}

export interface BookView {
  /** Best first: highest bid first. */
  readonly bids: readonly Level[]
  /** Best first: lowest ask first. */
  readonly asks: readonly Level[]
}

export const CRC_DEPTH = 10

/** The result of applying a frame: `ok` is false when the frame's `crc` disagrees with the assembled book. */
export interface ApplyResult {
  readonly ok: boolean
  readonly expected?: number
  readonly actual: number
}

export class BookAssembler {
  readonly #bids = new Map<string, string>()
  readonly #asks = new Map<string, string>()

  /** Replaces the whole book (a snapshot never merges: merging leaves ghost levels). */
  applySnapshot(d: BookPayload): ApplyResult {
    this.#bids.clear()
    this.#asks.clear()
    return this.applyDelta(d)
  }

  /** Sets each level's absolute size; `"0"` (any zero) removes the level. */
  applyDelta(d: BookPayload): ApplyResult {
    setLevels(this.#bids, d.bids ?? [])
    setLevels(this.#asks, d.asks ?? [])
    const actual = this.checksum()
    return d.crc === undefined ? { ok: true, actual } : { ok: d.crc === actual, expected: d.crc, actual }
  }

  clear(): void {
    this.#bids.clear()
    this.#asks.clear()
  }

  /** The levels, best first, at most `depth` per side (all when absent). */
  view(depth?: number): BookView {
    return { bids: sorted(this.#bids, 'desc', depth), asks: sorted(this.#asks, 'asc', depth) }
  }

  /** The string the checksum is computed over (exposed for tests and for debugging a mismatch). */
  checksumText(): string {
    const { bids, asks } = this.view(CRC_DEPTH)
    const side = (levels: readonly Level[]) => levels.map(([p, s]) => `${p}:${s}`).join(',')
    return `${side(asks)}|${side(bids)}`
  }

  checksum(): number {
    return crc32(this.checksumText())
  }
}

function setLevels(side: Map<string, string>, levels: readonly Level[]): void {
  for (const [price, size] of levels) {
    if (Number(size) === 0) side.delete(price)
    else side.set(price, size)
  }
}

function sorted(side: Map<string, string>, order: 'asc' | 'desc', depth?: number): Level[] {
  const levels = [...side.entries()].map(([p, s]): Level => [p, s])
  levels.sort((a, b) => (order === 'asc' ? Number(a[0]) - Number(b[0]) : Number(b[0]) - Number(a[0])))
  return depth === undefined ? levels : levels.slice(0, depth)
}
