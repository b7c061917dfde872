/**
 * The numbers of a venue actor's published quotes, in rows of `QUOTE_ROW_WIDTH` doubles inside fixed chunks of
 * Float64Arrays, a row per live quote (published-quote.ts).
 *
 * Why: a quote's eight numbers as object fields were eight heap-number boxes, as V8 keeps every double-valued field
 * (16 bytes each, besides the field's 8): at the venues' real size 2.1 million boxes and 32.5 MiB, the largest single
 * kind of number in the heap (docs/SCALE.md, "Who holds the heap"), each one an object the collector marks. In a row
 * they are 64 bytes of a typed array's store, outside the objects the collector walks.
 *
 * Rows are reused: a quote gives its row back when its instrument leaves the actor (`PublishedQuote.detach`), so the
 * chunks follow the instruments streamed now, not every instrument the actor ever streamed. Chunks are never moved
 * or replaced, so a quote holds its chunk directly.
 */
export const QUOTE_ROW_WIDTH = 8
const ROWS_PER_CHUNK = 1024
const CHUNK_CELLS = ROWS_PER_CHUNK * QUOTE_ROW_WIDTH

export class QuoteRows {
  readonly #chunks: Float64Array[] = []
  /** Rows given back, reused before a new one is cut. */
  readonly #free: number[] = []
  #next = 0

  /** A row of NaNs: its number (for `release`) and where its cells are. */
  take(): { readonly row: number; readonly cells: Float64Array; readonly at: number } {
    const row = this.#free.pop() ?? this.#next++
    const chunk = (row / ROWS_PER_CHUNK) >>> 0
    const cells = (this.#chunks[chunk] ??= new Float64Array(CHUNK_CELLS))
    const at = (row % ROWS_PER_CHUNK) * QUOTE_ROW_WIDTH
    cells.fill(Number.NaN, at, at + QUOTE_ROW_WIDTH)
    return { row, cells, at }
  }

  /** Gives `row` back; its cells may be another quote's from the next `take`. */
  release(row: number): void {
    this.#free.push(row)
  }

  /** Rows held by quotes now. */
  get used(): number {
    return this.#next - this.#free.length
  }

  /** Rows cut so far (held and free). */
  get cut(): number {
    return this.#next
  }
}
