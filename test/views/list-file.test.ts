import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test } from 'node:test'
import fc from 'fast-check'
import { readFileBytes } from '../../src/core/sealed-file.js'
import { runToEnd } from '../../src/core/slices.js'
import { decodeListFileSteps, writeListFile, type ViewSeeds } from '../../src/views/list-file.js'
import { ListIndex, type SortKeys } from '../../src/views/list-index.js'

/**
 * A restart's lists read back from their file (issue 35): a list offered the seed of a list of the same records
 * takes every ordering and its search index, and answers every query (each sort key, both orders, status filters,
 * searches) as a list built from nothing does; a seed of a list that changed since has the records that are new or
 * changed merged in, or, where too many are, its part refused and built anew, with the same answers; a damaged file
 * or another venue's is refused whole.
 */
const dir = mkdtempSync(join(tmpdir(), 'list-file-'))
after(() => rmSync(dir, { recursive: true, force: true }))

interface Row {
  readonly id: string
  readonly status: string
  readonly category: string
  readonly v: number | undefined
  readonly w: number | undefined
  readonly title: string
}

const KEYS: SortKeys<Row> = { v: (r) => r.v, w: (r) => r.w }
const text = (r: Row) => r.title
const SEARCHES = ['row', 'fed', 'ra', 'e r', 'zz', 'Δ', 'rate cut']

const key = fc.option(fc.oneof(fc.integer({ min: -3, max: 6 }), fc.constant(-0), fc.double({ noNaN: true })), {
  nil: undefined,
  freq: 4,
})
const rows = fc
  .array(
    fc.record({
      status: fc.constantFrom('open', 'closed'),
      category: fc.constantFrom('a', 'b'),
      v: key,
      w: key,
      title: fc.constantFrom('Fed rate cut', 'row  row', 'Rate hike?', 'ΔΕΛΤΑ market', 'ra', ''),
    }),
    { maxLength: 120 },
  )
  .map((fields) => fields.map((f, i): Row => ({ id: `r${(i * 7919) % 1000}`, ...f })))

function prepared(items: readonly Row[], seed?: ViewSeeds, sameRecords = false): ListIndex<Row> {
  const index = new ListIndex(items, KEYS, text)
  const offered = seed?.lists.get('rows')
  runToEnd(index.prepareSteps(undefined, undefined, offered && { seed: offered, sameRecords }))
  return index
}

function assertSameAnswers(got: ListIndex<Row>, want: ListIndex<Row>, n: number): void {
  for (const sort of ['v', 'w'])
    for (const order of ['asc', 'desc'] as const)
      for (const status of ['all', 'open']) {
        const q = { status, sort, order, offset: 0, limit: n + 1 }
        assert.deepEqual(
          got.query(q).items.map((r) => r.id),
          want.query(q).items.map((r) => r.id),
          `${status} by ${sort} ${order}`,
        )
      }
  for (const search of SEARCHES) {
    const q = { status: 'all', search, sort: 'v', order: 'asc' as const, offset: 0, limit: n + 1 }
    assert.deepEqual(
      got.query(q).items.map((r) => r.id),
      want.query(q).items.map((r) => r.id),
      `search "${search}"`,
    )
  }
}

/** The list's seed, written to a list file and read back. */
async function roundTrip(list: ListIndex<Row>, fetchedAt: number): Promise<ViewSeeds> {
  const seed = runToEnd(list.seedSteps())
  assert.ok(seed !== undefined, 'a prepared list gives a seed')
  const path = join(dir, `lists.${fetchedAt}.jsonl`)
  await writeListFile(path, 'venuep', 'http://venue', { fetchedAt, lists: new Map([['rows', seed]]) })
  const read = runToEnd(decodeListFileSteps(await readFileBytes(path), 'venuep', 'http://venue'))
  assert.ok(read.ok, read.ok ? '' : read.reason)
  assert.equal(read.seeds.fetchedAt, fetchedAt)
  return read.seeds
}

test('a list seeded from its file takes every part and answers every query as a list built from nothing', async () => {
  let run = 0
  await fc.assert(
    fc.asyncProperty(rows, fc.boolean(), async (items, sameRecords) => {
      const seeds = await roundTrip(prepared(items), ++run)
      // A restart's records are new objects read from the catalog file, equal to the ones the seed was taken from.
      const again = items.map((r) => ({ ...r }))
      const seeded = prepared(again, seeds, sameRecords)
      assert.deepEqual(seeded.seeded, { taken: 3, refused: 0 })
      assertSameAnswers(seeded, prepared(again), again.length)
    }),
    { numRuns: 150 },
  )
})

test('a seed of a list that has changed since (records gone, new, with other keys or texts) answers as a fresh list', async () => {
  // Per record of the seed's list: kept, gone, or changed (the same id, other fields); then some new records.
  const fate = fc.constantFrom('kept', 'kept', 'kept', 'kept', 'kept', 'kept', 'gone', 'changed')
  const world = fc.record({ items: rows, fates: fc.array(fate, { minLength: 120, maxLength: 120 }), extra: rows })
  let run = 1000
  await fc.assert(
    fc.asyncProperty(world, async ({ items, fates, extra }) => {
      const seeds = await roundTrip(prepared(items), ++run)
      const next: Row[] = []
      items.forEach((r, i) => {
        const f = fates[i]
        const other = extra[i % Math.max(extra.length, 1)]
        if (f === 'kept' || (f === 'changed' && other === undefined)) next.push({ ...r })
        else if (f === 'changed' && other !== undefined) next.push({ ...other, id: r.id })
      })
      for (const r of extra.slice(0, 6)) next.push({ ...r, id: `new-${r.id}` })
      const seeded = prepared(next, seeds, false)
      const parts = seeded.seeded as { taken: number; refused: number }
      assert.equal(parts.taken + parts.refused, 3)
      assertSameAnswers(seeded, prepared(next), next.length)
    }),
    { numRuns: 200 },
  )
})

test('a seed is merged with the few records that changed, and refused where too many did', async () => {
  const items: Row[] = Array.from({ length: 40 }, (_, i) => ({
    id: `r${i}`,
    status: i % 3 === 0 ? 'closed' : 'open',
    category: 'a',
    v: i % 5,
    w: 100 - i,
    title: `Row ${i} rate`,
  }))
  const seeds = await roundTrip(prepared(items), 1)
  // One record's v moved to the other end and its title changed, one record gone, one new: merged into every part.
  const few = items
    .slice(1)
    .map((r) => (r.id === 'r7' ? { ...r, v: 99, title: 'Renamed' } : { ...r }))
    .concat([{ id: 'n1', status: 'open', category: 'a', v: 2, w: 50, title: 'New rate' }])
  const merged = prepared(few, seeds, false)
  assert.deepEqual(merged.seeded, { taken: 3, refused: 0 })
  assertSameAnswers(merged, prepared(few), few.length)
  // Half the records with another v and another title: the v ordering and the search index are built anew.
  const many = items.map((r, i) => (i % 2 === 0 ? { ...r, v: 50 + i, title: `Other ${i}` } : { ...r }))
  const rebuilt = prepared(many, seeds, false)
  assert.deepEqual(rebuilt.seeded, { taken: 1, refused: 2 })
  assertSameAnswers(rebuilt, prepared(many), many.length)
  // The same records in another order (a venue listed them so): placed by id, every part taken.
  const reversed = items.map((r) => ({ ...r })).reverse()
  const reordered = prepared(reversed, seeds, true)
  assert.deepEqual(reordered.seeded, { taken: 3, refused: 0 })
  assertSameAnswers(reordered, prepared(reversed), reversed.length)
})

test('a list larger than a line of its file (arrays cut into slices) reads back whole', async () => {
  // 20,000 records: ids and texts over three lines each, postings over several.
  const items: Row[] = Array.from({ length: 20_000 }, (_, i) => ({
    id: `r${i}`,
    status: i % 4 === 0 ? 'closed' : 'open',
    category: i % 2 === 0 ? 'a' : 'b',
    v: i % 97,
    w: i % 13 === 0 ? undefined : (i * 7919) % 20_000,
    title: `Will rate ${i % 500} be cut by ${i}? row`,
  }))
  const seeds = await roundTrip(prepared(items), 99)
  const seed = seeds.lists.get('rows')
  assert.ok(seed?.search !== undefined && seed.search.postings.length > 131_072, 'postings over more than a line')
  const again = items.map((r) => ({ ...r }))
  const seeded = prepared(again, seeds, true)
  assert.deepEqual(seeded.seeded, { taken: 3, refused: 0 })
  assertSameAnswers(seeded, prepared(again), again.length)
})

test('a damaged list file, or one of another venue or source, is refused whole with the reason', async () => {
  const items: Row[] = [{ id: 'a', status: 'open', category: 'a', v: 1, w: 2, title: 'Fed' }]
  await roundTrip(prepared(items), 7)
  const path = join(dir, 'lists.7.jsonl')
  const bytes = readFileSync(path)
  const decode = (b: Buffer | undefined, venue = 'venuep', source = 'http://venue') =>
    runToEnd(decodeListFileSteps(b, venue, source))
  assert.deepEqual(decode(bytes, 'venuek'), { ok: false, missing: false, reason: "it is venuep's lists" })
  assert.deepEqual(decode(bytes, 'venuep', 'http://other'), {
    ok: false,
    missing: false,
    reason: 'its catalog was listed from http://venue, not http://other',
  })
  const damaged = Buffer.from(bytes)
  damaged[40] = (damaged[40] as number) ^ 1
  assert.deepEqual(decode(damaged), {
    ok: false,
    missing: false,
    reason: 'damaged: its digest does not match its contents',
  })
  writeFileSync(path, bytes.subarray(0, bytes.length - 10))
  assert.equal(decode(await readFileBytes(path)).ok, false)
  assert.deepEqual(decode(undefined), { ok: false, missing: true, reason: 'no list file' })
})
