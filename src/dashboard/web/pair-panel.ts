import type { BookAssembler } from '../../stream-client/book-assembler.js'
import { getJson, UnauthorizedError } from './api.js'
import { bookLegs, type BookLeg } from './book-keys.js'
import { BookTable } from './book-table.js'
import { SpreadChart } from './chart.js'
import { byId, element } from './dom.js'
import { evidenceEntries } from './evidence.js'
import { bps, cents, percent, signedCents } from './format.js'
import { isHistoryRange, SpreadSeries, type HistoryPoint, type HistoryRange } from './history.js'
import { spreadKey, type SpreadRow } from './spread-row.js'
import type { SlotOutcome, SubscriptionSlot } from './subscription-slot.js'

/**
 * The selected pair (`#pair`): its spread history as a chart (the range from `/api/v2/spreads/history`, then each
 * value of its `spread` stream appended), both legs' books (the `book` channel at depth 10, assembled and
 * crc-checked by the stream client), and the match evidence. The slots subscribe and unsubscribe as the
 * selection changes; this class only draws what arrives for the keys it asked for.
 */
export const BOOK_DEPTH = 10

export interface PairSlots {
  readonly spread: SubscriptionSlot
  readonly books: readonly [SubscriptionSlot, SubscriptionSlot]
}

export interface PairPanelDeps {
  readonly apiKey: () => string | undefined
  readonly onUnauthorized: (message: string) => void
}

interface HistoryResponse {
  readonly data: readonly HistoryPoint[]
}

export class PairPanel {
  readonly #section = byId('pair', HTMLElement)
  readonly #hint = byId('pair-hint', HTMLParagraphElement)
  readonly #title = byId('pair-title', HTMLHeadingElement)
  readonly #sub = byId('pair-sub', HTMLParagraphElement)
  readonly #chartEl = byId('pair-chart', HTMLDivElement)
  readonly #chartStatus = byId('chart-status', HTMLParagraphElement)
  readonly #evidence = byId('evidence', HTMLElement)
  readonly #books: readonly [BookTable, BookTable] = [
    new BookTable(byId('book-a', HTMLTableElement)),
    new BookTable(byId('book-b', HTMLTableElement)),
  ]
  readonly #rangeButtons: HTMLButtonElement[]
  readonly #deps: PairPanelDeps
  #slots: PairSlots | undefined
  #chart: SpreadChart | undefined
  #record: SpreadRow | undefined
  #legs: readonly [BookLeg, BookLeg] | undefined
  #range: HistoryRange = '1d'
  #series: SpreadSeries | undefined
  /** Live values that arrived before the history: appended once it is in. */
  #early: { tsMs: number; bps: number }[] = []
  /** Bumped per history request: an answer to an older one is dropped. */
  #request = 0

  constructor(deps: PairPanelDeps) {
    this.#deps = deps
    this.#rangeButtons = [...this.#section.querySelectorAll<HTMLButtonElement>('button[data-range]')]
    for (const b of this.#rangeButtons)
      b.addEventListener('click', () => {
        const range = b.dataset.range
        if (isHistoryRange(range) && this.#record !== undefined) {
          this.#range = range
          this.#pressRange()
          void this.#loadHistory()
        }
      })
  }

  get selectedId(): string | undefined {
    return this.#record?.id
  }

  /** The slots of the current connection (a new key makes a new connection). */
  useSlots(slots: PairSlots): void {
    this.#slots = slots
    if (this.#record !== undefined) this.#subscribe()
  }

  select(record: SpreadRow): void {
    if (record.id === this.#record?.id) return
    this.#record = record
    this.#legs = bookLegs(record)
    this.#section.hidden = false
    this.#hint.hidden = true
    this.#title.textContent = `${record.event_title}: ${record.outcome_title}`
    this.#describe(record)
    this.#renderEvidence(record)
    this.#legs.forEach((leg, i) => {
      const table = this.#books[i] as BookTable
      table.reset(leg.venue, leg.key === undefined ? `${leg.venue}: no contract named` : `${leg.venue} book`)
    })
    this.#chart ??= new SpreadChart(this.#chartEl)
    // Nothing of the pair before stays on the chart while this one's history loads.
    this.#early = []
    this.#series = undefined
    this.#chart.setData([[], []])
    this.#subscribe()
    void this.#loadHistory()
  }

  /** A `spread` stream value (the record now). */
  onSpread(key: string, value: unknown, tsMs: number): void {
    const r = this.#record
    if (r === undefined || key !== spreadKey(r) || value === null || typeof value !== 'object') return
    const record = value as SpreadRow
    this.#describe(record)
    if (this.#series === undefined) this.#early.push({ tsMs, bps: record.spread_bps })
    else if (this.#series.append(tsMs, record.spread_bps)) this.#drawSeries()
  }

  onBook(key: string, book: BookAssembler): void {
    const i = this.#legIndex(key)
    if (i === undefined) return
    const table = this.#books[i] as BookTable
    table.crc('ok')
    table.note(`${this.#legs?.[i]?.venue ?? ''} book`)
    table.render(book.view(BOOK_DEPTH), BOOK_DEPTH)
  }

  /** The client found the book's checksum wrong and asked for a snapshot: show it until the snapshot comes. */
  onCrcMismatch(key: string): void {
    const i = this.#legIndex(key)
    if (i !== undefined) (this.#books[i] as BookTable).crc('bad')
  }

  /** A `venue_disconnect` on a book (its levels are gone until the venue is back) or the `resync` that ends it. */
  onBookStale(key: string, stale: boolean): void {
    const i = this.#legIndex(key)
    if (i === undefined || !stale) return
    const table = this.#books[i] as BookTable
    table.render({ bids: [], asks: [] }, BOOK_DEPTH)
    table.crc('pending')
    table.note(`${this.#legs?.[i]?.venue ?? ''} book: venue disconnected, waiting for its resync`)
  }

  /** What the server said to a book subscription (a refused key names why). */
  onBookOutcome(index: 0 | 1, o: SlotOutcome): void {
    if (o.kind === 'subscribed' && o.rejected.length > 0)
      this.#books[index].note(
        `${this.#legs?.[index]?.venue ?? ''} book unavailable: ${o.rejected.map((r) => r.reason).join('; ')}`,
      )
    else if (o.kind === 'failed') this.#books[index].note(`book unavailable: ${o.message}`)
  }

  #subscribe(): void {
    const slots = this.#slots
    const r = this.#record
    if (slots === undefined || r === undefined) return
    slots.spread.set({ keys: [spreadKey(r)] })
    this.#legs?.forEach((leg, i) => {
      slots.books[i]?.set(leg.key === undefined ? undefined : { keys: [leg.key], depth: BOOK_DEPTH })
    })
  }

  #legIndex(key: string): 0 | 1 | undefined {
    if (this.#legs?.[0].key === key) return 0
    if (this.#legs?.[1].key === key) return 1
    return undefined
  }

  async #loadHistory(): Promise<void> {
    const r = this.#record
    if (r === undefined) return
    const request = ++this.#request
    this.#series = undefined
    this.#chartEl.removeAttribute('data-points')
    this.#chartStatus.textContent = `Loading ${this.#range} history…`
    const q = new URLSearchParams({ event_slug: r.event_slug, outcome_key: r.outcome_key, range: this.#range })
    let points: readonly HistoryPoint[]
    try {
      points = (await getJson<HistoryResponse>(`/api/v2/spreads/history?${q.toString()}`, this.#deps.apiKey())).data
    } catch (err) {
      if (request !== this.#request) return
      if (err instanceof UnauthorizedError) this.#deps.onUnauthorized(err.message)
      this.#chartStatus.textContent = `History unavailable: ${err instanceof Error ? err.message : String(err)}`
      points = []
    }
    if (request !== this.#request || r.id !== this.#record?.id) return
    const series = new SpreadSeries(points)
    for (const p of this.#early) series.append(p.tsMs, p.bps)
    this.#early = []
    this.#series = series
    this.#chartEl.dataset.points = String(series.historyPoints)
    if (this.#chartStatus.textContent?.startsWith('History unavailable') !== true)
      this.#chartStatus.textContent =
        series.historyPoints === 0
          ? `No samples in the last ${this.#range} yet; live values are drawn as they come.`
          : `${series.historyPoints} ${series.historyPoints === 1 ? 'sample' : 'samples'} (${this.#range}), extended live.`
    this.#drawSeries()
  }

  #drawSeries(): void {
    if (this.#series === undefined) return
    this.#chartEl.dataset.livePoints = String(this.#series.livePoints)
    this.#chart?.setData(this.#series.data())
  }

  #pressRange(): void {
    for (const b of this.#rangeButtons) b.setAttribute('aria-pressed', String(b.dataset.range === this.#range))
  }

  #describe(r: SpreadRow): void {
    const x = r.executable
    const parts = [
      `${r.platform_a} ${cents(r.price_a)} → ${r.platform_b} ${cents(r.price_b)}`,
      `spread ${bps(r.spread_bps)} bps`,
      x === null
        ? 'no executable edge (a book is missing)'
        : `net edge ${signedCents(x.net_edge)} × ${Math.round(x.size)}`,
      `confidence ${percent(r.confidence)}`,
      r.is_stale ? 'stale' : 'live',
    ]
    this.#sub.textContent = parts.join(' · ')
  }

  #renderEvidence(r: SpreadRow): void {
    const nodes: HTMLElement[] = []
    for (const entry of evidenceEntries(r)) {
      nodes.push(element('dt', entry.term))
      for (const v of entry.values) nodes.push(element('dd', v))
    }
    this.#evidence.replaceChildren(...nodes)
  }
}
