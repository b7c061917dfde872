import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import fc from 'fast-check'
import { call, invalid, ok } from '../helpers/api.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { settle, waitFor } from '../helpers/wait.js'

/**
 * /spreads and /spreads/top for arbitrage (issue 19 item 5): paging of the scanner, the executable-edge filters
 * (`executable_only`, `min_net_edge`) and `sort=net_edge|spread|confidence` on both, against the simulator. Every
 * answer is compared whole with a reference computed here, from the rows of the unfiltered lists: filtered,
 * ordered (value descending, nulls last, ties by the pair's id) and paged by the test's own code.
 */
type Row = {
  event_slug: string
  outcome_key: string
  platform_a: string
  platform_b: string
  spread: number
  confidence: number
  is_stale: boolean
  volume_min: number | null
  executable: { net_edge: number; size: number } | null
}
type ScanBody = { data: Row[]; count: number; total: number; limit: number | null; offset: number }
type TopBody = { data: Row[]; count: number }
type Sort = 'net_edge' | 'spread' | 'confidence'
const SORTS: readonly Sort[] = ['net_edge', 'spread', 'confidence']

let s: TestService

before(async () => {
  const quiet = { staleAfterMs: 3_600_000, probeReplyMs: 3_600_000, snapshotTimeoutMs: 3_600_000 }
  const catalog = { refreshMs: 7_200_000 }
  s = await startTestService({
    questions: 150,
    config: { venues: { venuep: { feed: quiet, catalog }, venuek: { feed: quiet, catalog } } },
  })
  await waitFor(() => s.app.spreads.pairCount > 20, 5_000, 'matched pairs in the spread engine')
  // Dislocations on a dozen shared contracts, alternately on each venue, so some gaps can be traded at a profit
  // (a positive net edge with size) beside the many that cannot.
  // Pairs the engine holds (the matcher found them): a dislocation of a pair it does not hold opens no gap.
  const held = (p: (typeof s.sim.world.truth.outcomePairs)[number]) =>
    [...s.app.spreads.eventRecords(p.a.event)].some(
      (r) => s.app.spreads.spec(r.key)?.b.outcome.instrumentId === p.b.outcome,
    )
  const pairs = s.sim.world.truth.outcomePairs
    .filter((p) => s.sim.world.questionsById.get(p.questionId)!.lifecycle === 'active' && held(p))
    .slice(0, 12)
  pairs.forEach((pair, i) => {
    const contract = s.sim.world.questionsById.get(pair.questionId)!.contracts.find((c) => c.key === pair.contractKey)!
    s.sim.engine.openDislocation(contract, i % 2 === 0 ? 'venuek' : 'venuep', 1.5, 3_600_000, s.clock.now())
  })
  await waitFor(() => executableNow() >= 3, 5_000, 'gaps with a positive net edge and size')
  await settle(100)
})

after(async () => {
  await s?.close()
})

/** Records the engine holds that can be traded at a profit now. */
function executableNow(): number {
  let n = 0
  s.app.spreads.bySpread(0, (r) => {
    if (r.executable !== undefined && r.executable.netEdge > 0 && r.executable.size > 0) n++
  })
  return n
}

const keyOf = (r: Row) => `${r.event_slug}|${r.outcome_key}`

/** The pair's id: the documented tie-break (the order pairs were first matched). */
function pairId(r: Row): number {
  const record = s.app.spreads.record(keyOf(r))
  assert.ok(record !== undefined, `${keyOf(r)} is a pair the engine holds`)
  return record.pairId
}

function value(r: Row, sort: Sort): number | null {
  return sort === 'net_edge' ? (r.executable?.net_edge ?? null) : r[sort]
}

/** The reference order: value descending, rows without one last, ties by pair id. */
function ordered(rows: readonly Row[], sort: Sort): Row[] {
  return [...rows].sort((a, b) => {
    const va = value(a, sort)
    const vb = value(b, sort)
    if (va !== vb) return va === null ? 1 : vb === null ? -1 : vb - va
    return pairId(a) - pairId(b)
  })
}

function passesEdge(r: Row, executableOnly: boolean, minNetEdge: number | undefined): boolean {
  if (executableOnly && !(r.executable !== null && r.executable.net_edge > 0 && r.executable.size > 0)) return false
  if (minNetEdge !== undefined && !(r.executable !== null && r.executable.net_edge >= minNetEdge)) return false
  return true
}

/** Every row /spreads can list (volume_min known) at this stale cutoff, as /spreads gives them. */
const SCAN_ALL = '/api/v2/spreads?min_spread=0&min_volume=0'

/** Reads `path` while the world holds still: `reference()` the same before and after. */
async function stillRead<T, R>(reference: () => Promise<R>, path: () => Promise<T>): Promise<{ ref: R; got: T }> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const ref = await reference()
    const got = await path()
    if (JSON.stringify(await reference()) === JSON.stringify(ref)) return { ref, got }
    await settle(20)
  }
  throw new Error('the spreads never held still for one read')
}

describe('GET /api/v2/spreads: paging', () => {
  test("without limit every match (today's answer), with limit and offset consecutive pages that tile it, whole bodies", async () => {
    for (const sort of SORTS) {
      const full = await ok<ScanBody>(s, 'listSpreads', `${SCAN_ALL}&sort=${sort}`)
      assert.ok(full.count > 40, `${sort}: enough rows to page (${full.count})`)
      assert.deepEqual(
        { ...full, data: [] },
        { data: [], count: full.data.length, total: full.data.length, limit: null, offset: 0 },
      )
      for (const limit of [1, 7, 50]) {
        const walked: Row[] = []
        for (let offset = 0; offset <= full.total + limit; offset += limit) {
          const page = await ok<ScanBody>(s, 'listSpreads', `${SCAN_ALL}&sort=${sort}&limit=${limit}&offset=${offset}`)
          const data = full.data.slice(offset, offset + limit)
          assert.deepEqual(
            page,
            { data, count: data.length, total: full.total, limit, offset },
            `${sort}, limit ${limit}, offset ${offset}`,
          )
          walked.push(...page.data)
        }
        assert.deepEqual(walked, full.data, `${sort}, limit ${limit}: the pages concatenate to the unpaged list`)
        assert.equal(new Set(walked.map(keyOf)).size, walked.length, 'no row twice')
      }
      // An offset alone skips; one past the end gives an empty page with the total.
      const tail = await ok<ScanBody>(s, 'listSpreads', `${SCAN_ALL}&sort=${sort}&offset=5`)
      assert.deepEqual(tail, {
        data: full.data.slice(5),
        count: full.count - 5,
        total: full.total,
        limit: null,
        offset: 5,
      })
      assert.deepEqual(await ok<ScanBody>(s, 'listSpreads', `${SCAN_ALL}&sort=${sort}&offset=100000&limit=3`), {
        data: [],
        count: 0,
        total: full.total,
        limit: 3,
        offset: 100_000,
      })
    }
    // The defaults keep the spec's scanner: largest gap first, every match.
    const byDefault = await ok<ScanBody>(s, 'listSpreads', '/api/v2/spreads')
    assert.deepEqual(
      byDefault,
      await ok<ScanBody>(s, 'listSpreads', '/api/v2/spreads?sort=spread&executable_only=false&offset=0'),
    )
    assert.equal(byDefault.limit, null)
  })

  test('bounds and values of the new parameters: 422 with the validation body', async () => {
    await invalid(s, 'listSpreads', '/api/v2/spreads?limit=0&offset=-1', [
      ['query', 'limit'],
      ['query', 'offset'],
    ])
    await invalid(s, 'listSpreads', '/api/v2/spreads?limit=1001', [['query', 'limit']])
    await invalid(s, 'listSpreads', '/api/v2/spreads?limit=2.5&offset=x', [
      ['query', 'limit'],
      ['query', 'offset'],
    ])
    await invalid(s, 'listSpreads', '/api/v2/spreads?min_net_edge=-1.01&sort=volume&executable_only=maybe', [
      ['query', 'min_net_edge'],
      ['query', 'sort'],
      ['query', 'executable_only'],
    ])
    await invalid(s, 'listSpreads', '/api/v2/spreads?min_net_edge=1.5', [['query', 'min_net_edge']])
    await invalid(s, 'listSpreads', '/api/v2/spreads?min_net_edge=nan', [['query', 'min_net_edge']])
    await invalid(s, 'topSpreads', '/api/v2/spreads/top?sort=net&min_net_edge=2&executable_only=2', [
      ['query', 'sort'],
      ['query', 'min_net_edge'],
      ['query', 'executable_only'],
    ])
    const r = await call<{ detail: { type: string; loc: string[]; ctx?: object }[] }>(
      s,
      'listSpreads',
      '/api/v2/spreads?limit=1001',
    )
    assert.deepEqual(
      r.body.detail.map((d) => [d.type, d.loc, d.ctx]),
      [['less_than_equal', ['query', 'limit'], { le: 1_000 }]],
    )
    // The bounds themselves are accepted.
    for (const q of [
      'limit=1',
      'limit=1000',
      'min_net_edge=-1',
      'min_net_edge=1',
      'executable_only=true',
      'sort=net_edge',
    ])
      await ok(s, 'listSpreads', `/api/v2/spreads?${q}`)
  })
})

describe('executable-edge filters and sorts', () => {
  test('executable_only and min_net_edge: every row qualifies and none is left out, on both routes', async () => {
    const all = (await ok<ScanBody>(s, 'listSpreads', SCAN_ALL)).data
    const top = (await ok<TopBody>(s, 'topSpreads', '/api/v2/spreads/top?limit=200&window=720')).data
    assert.ok(top.length < 200, 'the top list holds every pair in its window')
    // Both kinds in the world (rows without an executable edge: the last test).
    assert.ok(
      all.some((r) => passesEdge(r, true, undefined)) &&
        all.some((r) => r.executable !== null && r.executable.net_edge <= 0),
    )
    for (const [executableOnly, minNetEdge] of [
      [true, undefined],
      [false, 0],
      [false, -0.05],
      [false, 0.01],
      [true, -1],
      [false, -1],
    ] as const) {
      const q = `executable_only=${executableOnly}${minNetEdge === undefined ? '' : `&min_net_edge=${minNetEdge}`}`
      const scan = await ok<ScanBody>(s, 'listSpreads', `${SCAN_ALL}&${q}`)
      const keep = all.filter((r) => passesEdge(r, executableOnly, minNetEdge))
      assert.deepEqual(scan.data, keep, `/spreads ${q}`)
      const best = await ok<TopBody>(s, 'topSpreads', `/api/v2/spreads/top?limit=200&window=720&${q}`)
      assert.deepEqual(
        best.data,
        top.filter((r) => passesEdge(r, executableOnly, minNetEdge)),
        `/spreads/top ${q}`,
      )
    }
  })

  test('/spreads/top?sort=net_edge&executable_only=true: the best trade first, every row with a positive net edge and size', async () => {
    const body = await ok<TopBody>(s, 'topSpreads', '/api/v2/spreads/top?sort=net_edge&executable_only=true&window=720')
    assert.ok(body.count >= 3)
    for (const r of body.data) assert.ok(r.executable !== null && r.executable.net_edge > 0 && r.executable.size > 0)
    const all = (await ok<TopBody>(s, 'topSpreads', '/api/v2/spreads/top?limit=200&window=720')).data
    assert.equal(body.data[0]?.executable?.net_edge, Math.max(...all.map((r) => r.executable?.net_edge ?? -Infinity)))
    // Today's list (by confidence) is unchanged by the additions: the same bytes with the defaults spelled out.
    const plain = await call(s, 'topSpreads', '/api/v2/spreads/top')
    assert.deepEqual(
      (await call(s, 'topSpreads', '/api/v2/spreads/top?sort=confidence&executable_only=false')).body,
      plain.body,
    )
  })

  test('every sort orders by its value, rows without one last, ties by pair id; ties do occur', async () => {
    let ties = 0
    for (const sort of SORTS) {
      for (const path of [`${SCAN_ALL}&sort=${sort}`, `/api/v2/spreads/top?limit=200&window=720&sort=${sort}`]) {
        const rows = (await ok<TopBody>(s, path.includes('top') ? 'topSpreads' : 'listSpreads', path)).data
        for (let i = 1; i < rows.length; i++) {
          const [a, b] = [rows[i - 1] as Row, rows[i] as Row]
          const [va, vb] = [value(a, sort), value(b, sort)]
          const where = `${path}: rows ${i - 1}/${i} (${va}, ${vb})`
          if (va === null) assert.equal(vb, null, `${where}: rows without a value come last`)
          else if (vb !== null) assert.ok(va >= vb, where)
          if (va === vb) {
            ties++
            assert.ok(pairId(a) < pairId(b), `${where}: a tie ordered by pair id`)
          }
        }
      }
    }
    assert.ok(ties > 10, `ties were exercised (${ties})`)
  })
})

describe('random parameter combinations against a brute-force reference', () => {
  /**
   * A `min_net_edge`: a bound, a round value, or a row's own net edge (so the boundary, equal to the bound, is
   * tried: `≥`, not `>`).
   */
  const minNetEdge = (rows: readonly Row[]) =>
    fc.oneof(
      fc.constantFrom(-1, -0.05, -0.01, 0, 0.005, 0.03, 1),
      fc.integer({ min: -1000, max: 1000 }).map((n) => n / 1000),
      fc.constantFrom(...rows.flatMap((r) => (r.executable === null ? [] : [r.executable.net_edge]))),
    )

  const scanParams = (rows: readonly Row[]) =>
    fc.record(
      {
        sort: fc.constantFrom(...SORTS),
        executable_only: fc.boolean(),
        min_net_edge: minNetEdge(rows),
        min_spread: fc.constantFrom(0, 0.005, 0.02, 0.05, 0.2),
        min_volume: fc.constantFrom(0, 1000, 50_000, 1_000_000),
        platforms: fc.constantFrom('venuep,venuek', 'venuek', 'venuep'),
        event_slug: fc.nat(40),
        limit: fc.integer({ min: 1, max: 40 }),
        offset: fc.integer({ min: 0, max: 120 }),
        stale_cutoff_minutes: fc.constantFrom(1, 45, 10_080),
      },
      { requiredKeys: [] },
    )

  test('/spreads: any combination is the reference filter, order and page of every row', async () => {
    const rows = (await ok<ScanBody>(s, 'listSpreads', SCAN_ALL)).data
    const slugs = [...new Set(rows.map((r) => r.event_slug))]
    await fc.assert(
      fc.asyncProperty(scanParams(rows), async (p) => {
        const slug =
          p.event_slug === undefined ? undefined : (slugs[p.event_slug % (slugs.length + 1)] ?? 'no-such-event')
        const query = new URLSearchParams()
        for (const [k, v] of Object.entries({ ...p, event_slug: slug })) if (v !== undefined) query.set(k, String(v))
        const cutoff = p.stale_cutoff_minutes ?? 45
        const { ref, got } = await stillRead(
          async () => (await ok<ScanBody>(s, 'listSpreads', `${SCAN_ALL}&stale_cutoff_minutes=${cutoff}`)).data,
          () => ok<ScanBody>(s, 'listSpreads', `/api/v2/spreads?${query}`),
        )
        const platforms = new Set((p.platforms ?? 'venuep,venuek').split(','))
        const matches = ordered(
          ref.filter(
            (r) =>
              r.spread >= (p.min_spread ?? 0.02) &&
              (r.volume_min as number) >= (p.min_volume ?? 1000) &&
              platforms.has(r.platform_a) &&
              platforms.has(r.platform_b) &&
              (slug === undefined || r.event_slug === slug) &&
              passesEdge(r, p.executable_only ?? false, p.min_net_edge),
          ),
          p.sort ?? 'spread',
        )
        const offset = p.offset ?? 0
        const data = p.limit === undefined ? matches.slice(offset) : matches.slice(offset, offset + p.limit)
        assert.deepEqual(
          got,
          { data, count: data.length, total: matches.length, limit: p.limit ?? null, offset },
          `/api/v2/spreads?${query}`,
        )
      }),
      { seed: 19_005, numRuns: 150, endOnFailure: true },
    )
  })

  const topParams = (rows: readonly Row[]) =>
    fc.record(
      {
        sort: fc.constantFrom(...SORTS),
        executable_only: fc.boolean(),
        min_net_edge: minNetEdge(rows),
        limit: fc.integer({ min: 1, max: 200 }),
        window: fc.constantFrom(1, 24, 720),
      },
      { requiredKeys: [] },
    )

  test('/spreads/top: any combination is the reference filter and order of the rows in its window, cut at limit', async () => {
    const rows = (await ok<TopBody>(s, 'topSpreads', '/api/v2/spreads/top?limit=200&window=720')).data
    await fc.assert(
      fc.asyncProperty(topParams(rows), async (p) => {
        const query = new URLSearchParams()
        for (const [k, v] of Object.entries(p)) if (v !== undefined) query.set(k, String(v))
        const { ref, got } = await stillRead(
          async () =>
            (await ok<TopBody>(s, 'topSpreads', `/api/v2/spreads/top?limit=200&window=${p.window ?? 24}`)).data,
          () => ok<TopBody>(s, 'topSpreads', `/api/v2/spreads/top?${query}`),
        )
        assert.ok(ref.length < 200, 'the reference holds every pair in the window')
        const data = ordered(
          ref.filter((r) => passesEdge(r, p.executable_only ?? false, p.min_net_edge)),
          p.sort ?? 'confidence',
        ).slice(0, p.limit ?? 20)
        assert.deepEqual(got, { data, count: data.length }, `/api/v2/spreads/top?${query}`)
      }),
      { seed: 19_005, numRuns: 150, endOnFailure: true },
    )
  })
})

describe('rows without an executable edge', () => {
  // Last: it leaves venuek's feed down (the clock holds still, so nothing reconnects).
  test('a feed down: no row has an edge; sort=net_edge lists them all by pair id, the edge filters none, /spreads/top none', async () => {
    const before = (await ok<ScanBody>(s, 'listSpreads', SCAN_ALL)).data
    s.sim.venuek.faults.dropSockets()
    await waitFor(
      () => executableNow() === 0 && countWithEdge() === 0,
      5_000,
      'every record without an executable edge',
    )
    await settle(50)
    const rows = (await ok<ScanBody>(s, 'listSpreads', `${SCAN_ALL}&sort=net_edge`)).data
    assert.ok(rows.length > 40 && rows.every((r) => r.executable === null))
    assert.deepEqual(
      rows.map(keyOf),
      [...before].sort((a, b) => pairId(a) - pairId(b)).map(keyOf),
      'the same rows, by pair id',
    )
    // /spreads lists them, marked stale; /spreads/top ranks fresh spreads only, so with a feed down it is empty.
    const top = await ok<TopBody>(s, 'topSpreads', '/api/v2/spreads/top?sort=net_edge&limit=5&window=720')
    assert.deepEqual(top.data, [], 'the stale spreads left the top list')
    for (const q of ['executable_only=true', 'min_net_edge=-1']) {
      assert.deepEqual(
        await ok<ScanBody>(s, 'listSpreads', `${SCAN_ALL}&${q}`),
        { data: [], count: 0, total: 0, limit: null, offset: 0 },
        q,
      )
      assert.deepEqual(await ok<TopBody>(s, 'topSpreads', `/api/v2/spreads/top?${q}`), { data: [], count: 0 }, q)
    }
  })
})

/** Records the engine holds with an executable edge of any sign. */
function countWithEdge(): number {
  let n = 0
  s.app.spreads.bySpread(0, (r) => {
    if (r.executable !== undefined) n++
  })
  return n
}
