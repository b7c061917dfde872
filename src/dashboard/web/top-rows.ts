import { bps, cents, contracts, percent, signedCents } from './format.js'
import type { SpreadRow } from './spread-row.js'

/**
 * What each row of the top list shows, and which rows and cells changed between two lists: the decisions behind
 * the table's moves and flashes, kept free of the DOM so they are unit-tested (test/dashboard/top-rows.test.ts).
 *
 * A cell's value is the text it shows (two records that print the same are the same to a reader, so a price that
 * moved in the fifth decimal does not flash). The stale column's value is the word only: its age is redrawn every
 * second without flashing.
 */
export const COLUMNS = [
  'rank',
  'event',
  'outcome',
  'price-a',
  'price-b',
  'spread-bps',
  'edge',
  'size',
  'confidence',
  'stale',
] as const
export type Column = (typeof COLUMNS)[number]

export interface Cell {
  readonly text: string
  /** A short label before the text (the venue of a price), not part of the value. */
  readonly tag?: string
}

export type RowCells = Readonly<Record<Column, Cell>>

export function rowCells(rank: number, r: SpreadRow): RowCells {
  const x = r.executable
  return {
    rank: { text: String(rank) },
    event: { text: r.event_title },
    outcome: { text: r.outcome_title },
    'price-a': { text: cents(r.price_a), tag: r.platform_a },
    'price-b': { text: cents(r.price_b), tag: r.platform_b },
    'spread-bps': { text: bps(r.spread_bps) },
    edge: { text: x === null ? '—' : signedCents(x.net_edge) },
    size: { text: x === null ? '—' : contracts(x.size) },
    confidence: { text: percent(r.confidence) },
    stale: { text: r.is_stale ? 'stale' : 'live' },
  }
}

export interface RowPlan {
  readonly id: string
  readonly record: SpreadRow
  readonly cells: RowCells
  /** Columns whose text (or tag) differs from the row's previous cells; every column for a new row. */
  readonly changed: readonly Column[]
  readonly isNew: boolean
  /** Whether the row flashes: it changed, and this is not the first list of a view (which only appears). */
  readonly flash: boolean
}

export interface ListPlan {
  /** In rank order. */
  readonly rows: readonly RowPlan[]
  /** Ids shown before and no longer listed. */
  readonly removed: readonly string[]
}

export interface RankedRecord {
  readonly rank: number
  readonly id: string
  readonly record: SpreadRow
}

/**
 * The plan from the cells shown (`before`, by id) to `items` (in rank order). `initial`: the list of a view just
 * opened, whose rows appear without flashing.
 */
export function planList(
  before: ReadonlyMap<string, RowCells>,
  items: readonly RankedRecord[],
  initial: boolean,
): ListPlan {
  const listed = new Set<string>()
  const rows = items.map((item): RowPlan => {
    listed.add(item.id)
    const cells = rowCells(item.rank, item.record)
    const old = before.get(item.id)
    const changed = old === undefined ? [...COLUMNS] : COLUMNS.filter((c) => !sameCell(old[c], cells[c]))
    const isNew = old === undefined
    return { id: item.id, record: item.record, cells, changed, isNew, flash: !initial && changed.length > 0 }
  })
  const removed = [...before.keys()].filter((id) => !listed.has(id))
  return { rows, removed }
}

function sameCell(a: Cell, b: Cell): boolean {
  return a.text === b.text && a.tag === b.tag
}
