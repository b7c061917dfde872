import type { BookView } from '../../stream-client/book-assembler.js'
import { element } from './dom.js'
import { levelPrice, levelSize } from './format.js'

/**
 * One leg's order book, `table#book-a` / `#book-b`: `data-venue`, `data-crc` (`pending` until the first book,
 * `ok` after a frame whose checksum matched, `bad` after a mismatch until the snapshot the client asked for
 * arrives), and one `tbody tr` per level index: bid size, bid, ask, ask size, best first.
 */
export type CrcState = 'ok' | 'bad' | 'pending'

export class BookTable {
  readonly #table: HTMLTableElement
  readonly #caption: HTMLTableCaptionElement
  readonly #tbody: HTMLTableSectionElement

  constructor(table: HTMLTableElement) {
    this.#table = table
    this.#caption = table.caption ?? table.createCaption()
    this.#tbody = table.tBodies[0] ?? table.createTBody()
  }

  /** A new leg: its venue and what the caption says, the levels cleared. */
  reset(venue: string, caption: string): void {
    this.#table.dataset.venue = venue
    this.#caption.textContent = caption
    this.#tbody.replaceChildren()
    this.crc('pending')
  }

  /** A note in the caption (e.g. why the server refused the book). */
  note(caption: string): void {
    this.#caption.textContent = caption
  }

  crc(state: CrcState): void {
    if (this.#table.dataset.crc !== state) this.#table.dataset.crc = state
  }

  render(view: BookView, depth: number): void {
    const n = Math.min(depth, Math.max(view.bids.length, view.asks.length))
    const rows: HTMLTableRowElement[] = []
    for (let i = 0; i < n; i++) {
      const bid = view.bids[i]
      const ask = view.asks[i]
      const tr = element('tr')
      tr.append(
        element('td', bid === undefined ? '' : levelSize(bid[1]), 'bid'),
        element('td', bid === undefined ? '' : levelPrice(bid[0]), 'bid'),
        element('td', ask === undefined ? '' : levelPrice(ask[0]), 'ask'),
        element('td', ask === undefined ? '' : levelSize(ask[1]), 'ask'),
      )
      rows.push(tr)
    }
    this.#tbody.replaceChildren(...rows)
  }
}
