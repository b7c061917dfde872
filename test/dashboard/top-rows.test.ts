import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { COLUMNS, planList, rowCells, type RowCells } from '../../src/dashboard/web/top-rows.js'
import { spreadRow } from './records.js'

const a = spreadRow({ id: 'aaaaaaaaaaaaaaaa' })
const b = spreadRow({ id: 'bbbbbbbbbbbbbbbb', event_title: 'Other', spread_bps: 200, price_b: 0.44 })
const c = spreadRow({ id: 'cccccccccccccccc', event_title: 'Third' })

function shown(...rows: [number, ReturnType<typeof spreadRow>][]): Map<string, RowCells> {
  return new Map(rows.map(([rank, r]) => [r.id, rowCells(rank, r)]))
}

describe('top list rows', () => {
  test('a row shows every column of the contract, venues as tags of the prices', () => {
    const cells = rowCells(3, a)
    assert.deepEqual(Object.keys(cells), [...COLUMNS])
    assert.deepEqual(cells, {
      rank: { text: '3' },
      event: { text: 'Fed decision in April?' },
      outcome: { text: 'Cut 25 bps' },
      'price-a': { text: '42.0¢', tag: 'venuek' },
      'price-b': { text: '45.5¢', tag: 'venuep' },
      'spread-bps': { text: '350' },
      edge: { text: '+1.2¢' },
      size: { text: '1,234' },
      confidence: { text: '87%' },
      stale: { text: 'live' },
    })
    const bare = rowCells(1, spreadRow({ executable: null, is_stale: true }))
    assert.deepEqual([bare.edge.text, bare.size.text, bare.stale.text], ['—', '—', 'stale'])
  })

  test('the first list of a view appears without flashing; later, only rows whose shown text changed flash', () => {
    const first = planList(
      new Map(),
      [
        { rank: 1, id: a.id, record: a },
        { rank: 2, id: b.id, record: b },
      ],
      true,
    )
    assert.deepEqual(
      first.rows.map((r) => [r.id, r.isNew, r.flash]),
      [
        [a.id, true, false],
        [b.id, true, false],
      ],
    )
    // b moves up (rank changes for both), a's price moves in a digit nobody sees, c arrives.
    const a2 = { ...a, price_a: 0.42001 }
    const next = planList(
      shown([1, a], [2, b]),
      [
        { rank: 1, id: b.id, record: b },
        { rank: 2, id: a.id, record: a2 },
        { rank: 3, id: c.id, record: c },
      ],
      false,
    )
    assert.deepEqual(
      next.rows.map((r) => [r.id, r.changed, r.flash]),
      [
        [b.id, ['rank'], true],
        [a.id, ['rank'], true],
        [c.id, [...COLUMNS], true],
      ],
    )
    assert.deepEqual(next.removed, [])
  })

  test('an unchanged row does not flash; a price change flashes that cell only; rows that left are removed', () => {
    const moved = { ...b, price_b: 0.47, spread_bps: 500 }
    const plan = planList(
      shown([1, a], [2, b], [3, c]),
      [
        { rank: 1, id: a.id, record: a },
        { rank: 2, id: b.id, record: moved },
      ],
      false,
    )
    assert.deepEqual(
      plan.rows.map((r) => [r.id, r.changed, r.flash]),
      [
        [a.id, [], false],
        [b.id, ['price-b', 'spread-bps'], true],
      ],
    )
    assert.deepEqual(plan.removed, [c.id])
  })

  test('a venue swap (the cheaper side changes) flashes both prices even when the prices read the same', () => {
    const swapped = { ...a, platform_a: 'venuep', platform_b: 'venuek' }
    const plan = planList(shown([1, a]), [{ rank: 1, id: a.id, record: swapped }], false)
    assert.deepEqual(plan.rows[0]?.changed, ['price-a', 'price-b'])
  })
})
