import { element, setText } from './dom.js'
import { age, parseUtc } from './format.js'
import type { SpreadRow } from './spread-row.js'
import { COLUMNS, planList, type Cell, type Column, type RankedRecord, type RowCells } from './top-rows.js'

/**
 * The top list's table: one `tr[data-id]` per listed pair in rank order, each focusable (`tabindex="0"`, Enter or
 * Space selects, like a click), cells `td[data-col]`. A new list moves rows to their ranks (only rows out of
 * place are moved, so focus and selection stay on their pair) and flashes the cells that changed for FLASH_MS:
 * the row gets `flash`, the cells `changed` (top-rows.ts decides which).
 */
export const FLASH_MS = 600

interface Row {
  readonly tr: HTMLTableRowElement
  readonly tds: Readonly<Record<Column, HTMLTableCellElement>>
  readonly age: HTMLSpanElement
  cells: RowCells
  record: SpreadRow
  flashTimer: ReturnType<typeof setTimeout> | undefined
}

export class TopTable {
  readonly #tbody: HTMLTableSectionElement
  readonly #rows = new Map<string, Row>()
  readonly #onSelect: (record: SpreadRow) => void
  #selected: string | undefined

  constructor(tbody: HTMLTableSectionElement, onSelect: (record: SpreadRow) => void) {
    this.#tbody = tbody
    this.#onSelect = onSelect
    tbody.addEventListener('click', (e) => this.#activate(e.target))
    tbody.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' && e.key !== ' ') return
      e.preventDefault() // Space would scroll the page.
      this.#activate(e.target)
    })
  }

  get size(): number {
    return this.#rows.size
  }

  record(id: string): SpreadRow | undefined {
    return this.#rows.get(id)?.record
  }

  /** Shows `items` (in rank order); `initial` for the first list of a view (rows appear without flashing). */
  render(items: readonly RankedRecord[], initial: boolean, now: number): void {
    const before = new Map([...this.#rows].map(([id, row]) => [id, row.cells]))
    const plan = planList(before, items, initial)
    for (const id of plan.removed) {
      const row = this.#rows.get(id)
      if (row === undefined) continue
      clearTimeout(row.flashTimer)
      row.tr.remove()
      this.#rows.delete(id)
    }
    // Moving a row takes it out of the document for a moment, which blurs it: give the focus back after.
    const focused = document.activeElement
    let expected: ChildNode | null = this.#tbody.firstChild
    for (const p of plan.rows) {
      let row = this.#rows.get(p.id)
      if (row === undefined) {
        row = this.#create(p.id, p.record, p.cells)
        this.#rows.set(p.id, row)
      } else {
        for (const col of p.changed) writeCell(row.tds[col], p.cells[col], col === 'stale' ? row.age : undefined)
        row.cells = p.cells
        row.record = p.record
      }
      this.#age(row, now)
      if (row.tr !== expected) this.#tbody.insertBefore(row.tr, expected)
      else expected = expected.nextSibling
      if (p.flash) this.#flash(row, p.changed)
    }
    if (focused instanceof HTMLElement && focused !== document.activeElement && focused.isConnected)
      focused.focus({ preventScroll: true })
  }

  /** Marks the selected pair's row (`tr.selected`); undefined clears it. */
  select(id: string | undefined): void {
    if (this.#selected !== undefined) mark(this.#rows.get(this.#selected)?.tr, false)
    this.#selected = id
    if (id !== undefined) mark(this.#rows.get(id)?.tr, true)
  }

  /** Redraws the data ages (once a second). */
  tick(now: number): void {
    for (const row of this.#rows.values()) this.#age(row, now)
  }

  clear(): void {
    for (const row of this.#rows.values()) clearTimeout(row.flashTimer)
    this.#rows.clear()
    this.#tbody.replaceChildren()
  }

  #create(id: string, record: SpreadRow, cells: RowCells): Row {
    const tr = element('tr')
    tr.dataset.id = id
    tr.tabIndex = 0
    if (id === this.#selected) mark(tr, true)
    const ageSpan = element('span', '', 'age')
    const tds = {} as Record<Column, HTMLTableCellElement>
    for (const col of COLUMNS) {
      const td = element('td')
      td.dataset.col = col
      writeCell(td, cells[col], col === 'stale' ? ageSpan : undefined)
      tr.append(td)
      tds[col] = td
    }
    return { tr, tds, age: ageSpan, cells, record, flashTimer: undefined }
  }

  #age(row: Row, now: number): void {
    const t = parseUtc(row.record.updated_at)
    setText(row.age, Number.isFinite(t) ? age(now - t) : '')
  }

  #flash(row: Row, changed: readonly Column[]): void {
    clearTimeout(row.flashTimer)
    for (const td of Object.values(row.tds)) td.classList.remove('changed')
    row.tr.classList.remove('flash')
    // Restart the animation of a row that flashes again within FLASH_MS.
    void row.tr.offsetWidth
    for (const col of changed) row.tds[col].classList.add('changed')
    row.tr.classList.add('flash')
    row.flashTimer = setTimeout(() => {
      row.flashTimer = undefined
      row.tr.classList.remove('flash')
      for (const td of Object.values(row.tds)) td.classList.remove('changed')
    }, FLASH_MS)
  }

  #activate(target: EventTarget | null): void {
    const tr = target instanceof Element ? target.closest('tr') : null
    const id = tr?.dataset.id
    const row = id === undefined ? undefined : this.#rows.get(id)
    if (row !== undefined) this.#onSelect(row.record)
  }
}

/** The selected row: `selected` for the eye (and the contract), `aria-current` for assistive technology. */
function mark(tr: HTMLTableRowElement | undefined, selected: boolean): void {
  if (tr === undefined) return
  tr.classList.toggle('selected', selected)
  if (selected) tr.setAttribute('aria-current', 'true')
  else tr.removeAttribute('aria-current')
}

function writeCell(td: HTMLTableCellElement, cell: Cell, ageSpan: HTMLSpanElement | undefined): void {
  const parts: Node[] = []
  if (cell.tag !== undefined) parts.push(element('span', cell.tag, 'venue-tag'))
  if (ageSpan !== undefined) {
    parts.push(element('span', cell.text, cell.text === 'stale' ? 'stale-yes' : 'stale-no'), ageSpan)
  } else parts.push(document.createTextNode(cell.text))
  td.replaceChildren(...parts)
}
