import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { fetchCursorPages, fetchOffsetPages } from '../../src/venues/paging.js'

/**
 * Paging stops at the venue's end of data or at the `maxItems` guard, and says which: `capped` is true only when
 * the venue listed more than the guard (it reads one item past it to know), never when the venue simply ended,
 * even exactly at the guard. A venue that pages forever costs at most one page past the guard.
 */
const range = (from: number, to: number): number[] => Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i)

/** An offset-paged venue listing `total` items (Infinity: it never ends), recording the offsets asked for. */
function offsetVenue(total: number, delayMs = 0) {
  const offsets: number[] = []
  const fetchPage = async (offset: number, limit: number): Promise<number[]> => {
    offsets.push(offset)
    // Out-of-order completion: later pages may answer first.
    if (delayMs > 0) await new Promise((r) => setTimeout(r, (offset * 7919) % delayMs))
    return range(offset, Math.min(total, offset + limit))
  }
  return { fetchPage, offsets }
}

/** A cursor-paged venue listing `total` items (Infinity: it never ends), `pageSize` per page. */
function cursorVenue(total: number, pageSize: number) {
  const cursors: (string | undefined)[] = []
  const fetchPage = async (cursor: string | undefined) => {
    cursors.push(cursor)
    const from = cursor === undefined ? 0 : Number(cursor)
    const items = range(from, Math.min(total, from + pageSize))
    const next = from + pageSize
    return { items, cursor: next < total ? String(next) : '' }
  }
  return { fetchPage, cursors }
}

describe('fetchOffsetPages', () => {
  test('a venue that ends below the guard: every item, not capped, stops at the short page', async () => {
    const v = offsetVenue(25)
    assert.deepEqual(await fetchOffsetPages(v.fetchPage, { pageSize: 10, maxItems: 100, concurrency: 1 }), {
      items: range(0, 25),
      capped: false,
    })
    assert.deepEqual(v.offsets, [0, 10, 20])
  })

  test('a venue that ends exactly at the guard is not capped (one probe past it says so)', async () => {
    const v = offsetVenue(30)
    assert.deepEqual(await fetchOffsetPages(v.fetchPage, { pageSize: 10, maxItems: 30, concurrency: 1 }), {
      items: range(0, 30),
      capped: false,
    })
    assert.deepEqual(v.offsets, [0, 10, 20, 30])
  })

  test('a venue that lists more than the guard: the first maxItems, capped', async () => {
    const v = offsetVenue(31)
    assert.deepEqual(await fetchOffsetPages(v.fetchPage, { pageSize: 10, maxItems: 30, concurrency: 1 }), {
      items: range(0, 30),
      capped: true,
    })
    const w = offsetVenue(1_000)
    assert.deepEqual(await fetchOffsetPages(w.fetchPage, { pageSize: 10, maxItems: 25, concurrency: 1 }), {
      items: range(0, 25),
      capped: true,
    })
    assert.deepEqual(w.offsets, [0, 10, 20])
  })

  test('a venue that pages forever, four requests in flight: capped after at most one page past the guard, in offset order', async () => {
    const v = offsetVenue(Number.POSITIVE_INFINITY, 5)
    assert.deepEqual(await fetchOffsetPages(v.fetchPage, { pageSize: 10, maxItems: 95, concurrency: 4 }), {
      items: range(0, 95),
      capped: true,
    })
    assert.deepEqual(
      [...v.offsets].sort((a, b) => a - b),
      range(0, 10).map((p) => p * 10),
    )
  })

  test('no room left (maxItems 0): one page tells whether anything was cut', async () => {
    assert.deepEqual(await fetchOffsetPages(offsetVenue(3).fetchPage, { pageSize: 10, maxItems: 0, concurrency: 4 }), {
      items: [],
      capped: true,
    })
    const empty = offsetVenue(0)
    assert.deepEqual(await fetchOffsetPages(empty.fetchPage, { pageSize: 10, maxItems: 0, concurrency: 4 }), {
      items: [],
      capped: false,
    })
    assert.deepEqual(empty.offsets, [0])
  })
})

describe('fetchCursorPages', () => {
  test('a venue that ends below the guard: every item, not capped', async () => {
    const v = cursorVenue(25, 10)
    assert.deepEqual(await fetchCursorPages(v.fetchPage, { maxItems: 100 }), { items: range(0, 25), capped: false })
    assert.deepEqual(v.cursors, [undefined, '10', '20'])
  })

  test('a venue that ends exactly at the guard is not capped', async () => {
    const v = cursorVenue(30, 10)
    assert.deepEqual(await fetchCursorPages(v.fetchPage, { maxItems: 30 }), { items: range(0, 30), capped: false })
    // The last page came with an empty cursor: no probe needed.
    assert.deepEqual(v.cursors, [undefined, '10', '20'])
  })

  test('a venue whose last page ends at the guard but still hands out a cursor: the probe page is empty, not capped', async () => {
    const cursors: (string | undefined)[] = []
    const fetchPage = async (cursor: string | undefined) => {
      cursors.push(cursor)
      const from = cursor === undefined ? 0 : Number(cursor)
      return { items: range(from, Math.min(30, from + 10)), cursor: String(from + 10) }
    }
    assert.deepEqual(await fetchCursorPages(fetchPage, { maxItems: 30 }), { items: range(0, 30), capped: false })
    assert.deepEqual(cursors, [undefined, '10', '20', '30'])
  })

  test('a venue that pages forever: the first maxItems, capped, at most one page past the guard', async () => {
    const v = cursorVenue(Number.POSITIVE_INFINITY, 10)
    assert.deepEqual(await fetchCursorPages(v.fetchPage, { maxItems: 25 }), { items: range(0, 25), capped: true })
    assert.deepEqual(v.cursors, [undefined, '10', '20'])
    const w = cursorVenue(Number.POSITIVE_INFINITY, 10)
    assert.deepEqual(await fetchCursorPages(w.fetchPage, { maxItems: 30 }), { items: range(0, 30), capped: true })
    assert.deepEqual(w.cursors, [undefined, '10', '20', '30'])
  })

  test('no room left (maxItems 0): one page tells whether anything was cut', async () => {
    assert.deepEqual(await fetchCursorPages(cursorVenue(3, 10).fetchPage, { maxItems: 0 }), { items: [], capped: true })
    assert.deepEqual(await fetchCursorPages(cursorVenue(0, 10).fetchPage, { maxItems: 0 }), {
      items: [],
      capped: false,
    })
  })

  test('a cursor that loops ends paging without claiming a cap (the venue repeated itself, it did not list more)', async () => {
    const fetchPage = async (_cursor: string | undefined) => ({ items: [1, 2], cursor: 'same' })
    assert.deepEqual(await fetchCursorPages(fetchPage, { maxItems: 100 }), { items: [1, 2, 1, 2], capped: false })
  })
})
