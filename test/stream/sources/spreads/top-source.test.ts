import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { crc32 } from 'node:zlib'
import { Rng } from '../../../../src/sim/world/random.js'
import { pairIdOf } from '../../../../src/spreads/engine/pair-id.js'
import type { Rejection } from '../../../../src/stream/protocol.js'
import { streamId, type StreamId } from '../../../../src/stream/sequencer.js'
import type { ChannelSource } from '../../../../src/stream/source.js'
import { SpreadsTopSource } from '../../../../src/stream/sources/spreads/top-source.js'
import { pairSpec, T0, world, type World } from './fixtures.js'
import { TopClient } from './top-client.js'
import { recordedLog } from '../../../helpers/recorded-log.js'
import type { SpreadReader } from '../../../../src/stream/sources/spreads/engine-feed.js'

function source(w: World): ChannelSource {
  return new SpreadsTopSource({
    engine: w.engine,
    sequencer: w.sequencer,
    clock: w.clock,
    venueIds: ['venuep', 'venuek'],
  })
}

/** Opens the view's stream and returns its log and printed key. */
function open(w: World, s: ChannelSource, key: string) {
  const id = s.resolve(key, {}) as StreamId
  const log = w.sequencer.open(id)
  s.open(log, {})
  return { id, log }
}

/**
 * The REST list the stream's view must equal: /spreads/top for the same parameters, stale rows left out; a view
 * with the scanner's filters is the scanner's list with them (fresh rows are well inside the top list's window).
 */
async function reference(w: World, query: string, limit: number): Promise<Record<string, unknown>[]> {
  // The view's own filters have no REST parameter: applied here, by their definition, to the REST list.
  const params = new URLSearchParams(query)
  const category = params.get('category')?.toLowerCase()
  const words = (params.get('search') ?? '').toLowerCase().split(/\s+/).filter(Boolean)
  params.delete('category')
  params.delete('search')
  const rest = params.toString()
  const all = rest.includes('min_spread')
    ? await w.rest('scan', rest.replace(/limit=\d+&?/, ''))
    : await w.rest('top', `${rest}&limit=200`)
  const titles = (r: Record<string, unknown>) => `${String(r.event_title)}\n${String(r.outcome_title)}`.toLowerCase()
  return all.data
    .filter((r) => r.is_stale === false)
    .filter((r) => category === undefined || r.category === category)
    .filter((r) => words.every((word) => titles(r).includes(word)))
    .slice(0, limit)
}

const id = (i: number) => pairIdOf(pairSpec(i).key)

describe('stream source: spreads.top', () => {
  test('keys are views in the REST parameter names, printed canonical; bad ones are rejected with the reason', () => {
    const w = world(2)
    const s = source(w)
    const canonical = 'limit=20&window=24&sort=confidence&executable_only=false'
    assert.deepEqual(s.resolve('', {}), streamId('spreads.top', canonical))
    assert.deepEqual(s.resolve('window=24&limit=20', {}), streamId('spreads.top', canonical))
    assert.deepEqual(
      s.resolve('platforms=venuek,venuep,venuek&min_spread=0.02&sort=net_edge&limit=5', {}),
      streamId(
        'spreads.top',
        'limit=5&window=24&sort=net_edge&executable_only=false&min_spread=0.02&platforms=venuek,venuep',
      ),
    )
    // The view's own filters compare case-insensitively: one stream for any spelling.
    assert.deepEqual(
      s.resolve('search=%20Trump%20%20Wins&category=Politics&limit=5', {}),
      streamId(
        'spreads.top',
        'limit=5&window=24&sort=confidence&executable_only=false&category=politics&search=trump%20wins',
      ),
    )
    const rejected = (key: string) => s.resolve(key, {}) as Rejection
    assert.deepEqual(rejected('limit=500'), {
      key: 'limit=500',
      code: 'BAD_REQUEST',
      reason: 'limit: Input should be less than or equal to 200',
    })
    assert.deepEqual(rejected('limit=5&sort=volume&min_spread=2'), {
      key: 'limit=5&sort=volume&min_spread=2',
      code: 'BAD_REQUEST',
      reason:
        "sort: Input should be 'net_edge', 'spread' or 'confidence'; min_spread: Input should be less than or equal to 1",
    })
    assert.deepEqual(rejected('limit=5&minspread=0.1'), {
      key: 'limit=5&minspread=0.1',
      code: 'BAD_REQUEST',
      reason:
        'unknown parameter minspread; a view takes limit, window, sort, executable_only, min_net_edge, min_spread, min_volume, platforms, category, search',
    })
    assert.deepEqual(rejected('category=polit%20ics&search=%20%20'), {
      key: 'category=polit%20ics&search=%20%20',
      code: 'BAD_REQUEST',
      reason: "category: String should match pattern '^[A-Za-z0-9_-]+$'; search: String should match pattern '\\S'",
    })
    assert.deepEqual(rejected(`search=${'x'.repeat(101)}`).reason, 'search: String should have at most 100 characters')
    assert.deepEqual(rejected('platforms=venuep,venuez'), {
      key: 'platforms=venuep,venuez',
      code: 'BAD_REQUEST',
      reason: 'platforms: venuez is not one of venuep, venuek',
    })
  })

  test('snapshot is the ranked list; deltas upsert moved or changed items and remove those that left', () => {
    const w = world(3)
    const s = source(w)
    // Pair 0 has the widest gap, then 1; pair 2 a small one.
    w.quote('p', 0, 0.3)
    w.quote('k', 0, 0.5)
    w.quote('p', 1, 0.4)
    w.quote('k', 1, 0.55)
    w.quote('p', 2, 0.5)
    w.quote('k', 2, 0.51)
    const key = 'limit=2&window=24&sort=spread&executable_only=false'
    const { log } = open(w, s, 'limit=2&sort=spread')
    const topic = `spreads.top|${key}`
    const snap = JSON.parse(s.snapshot(log)) as Record<string, unknown>
    const record = (i: number) => {
      const items = (snap.d as { upsert: { id: string; record: unknown }[] }).upsert
      return items.find((x) => x.id === id(i))?.record
    }
    assert.deepEqual(snap, {
      type: 'snapshot',
      ch: 'spreads.top',
      key,
      epoch: 'e1.0',
      seq: 0,
      ts: T0,
      lts: T0,
      pts: T0,
      d: {
        upsert: [
          { rank: 1, id: id(0), record: record(0) },
          { rank: 2, id: id(1), record: record(1) },
        ],
        remove: [],
        crc: crc32(`${id(0)},${id(1)}`),
      },
    })
    assert.equal((record(0) as { spread: number }).spread, 0.2)
    w.clock.increment(1_000)
    // Pair 2 jumps to the top: it enters at 1, pair 0 moves to 2, pair 1 leaves.
    w.quote('k', 2, 0.9)
    const frames = w.sink.of(topic)
    assert.equal(frames.length, 1)
    const d = frames[0]?.d as { upsert: { rank: number; id: string; record: { spread: number } }[] }
    assert.deepEqual(frames[0], {
      type: 'delta',
      ch: 'spreads.top',
      key,
      epoch: 'e1.0',
      seq: 1,
      ts: T0 + 1_000,
      lts: T0 + 1_000,
      pts: T0 + 1_000,
      d: {
        upsert: [
          { rank: 1, id: id(2), record: d.upsert[0]?.record },
          { rank: 2, id: id(0), record: record(0) },
        ],
        remove: [id(1)],
        crc: crc32(`${id(2)},${id(0)}`),
      },
    })
    assert.equal(d.upsert[0]?.record.spread, 0.4)
    // A change below the list moves nothing: no frame.
    w.quote('k', 1, 0.56)
    assert.equal(w.sink.of(topic).length, 1)
    // A listed record that changes in place is upserted at its rank.
    w.quote('p', 0, 0.29)
    assert.deepEqual(
      (w.sink.of(topic)[1]?.d as { upsert: { rank: number; id: string }[] }).upsert.map((u) => [u.rank, u.id]),
      [[2, id(0)]],
    )
  })

  test('a stale spread leaves the list (feed down, or its older quote past the cutoff) and the next moves up', () => {
    const w = world(3)
    const s = source(w)
    w.quote('p', 0, 0.3)
    w.quote('k', 0, 0.5)
    w.quote('p', 1, 0.4)
    w.quote('k', 1, 0.55)
    const { log } = open(w, s, 'limit=1&sort=spread')
    const client = new TopClient()
    client.apply(JSON.parse(s.snapshot(log)) as Record<string, unknown>)
    const topic = `spreads.top|${log.id.key}`
    const follow = () => {
      for (const f of w.sink.of(topic).slice((client.seq ?? 0) - 0)) client.apply(f)
    }
    assert.deepEqual(client.ids, [id(0)])
    w.quote('k', 0, 0.5, true)
    follow()
    assert.deepEqual(client.ids, [id(1)], 'pair 0 is on a stale feed')
    w.quote('k', 0, 0.5)
    follow()
    assert.deepEqual(client.ids, [id(0)])
    // Pair 1's quotes are refreshed, pair 0's are not: past 45 minutes pair 0 is stale by age.
    w.clock.increment(30 * 60_000)
    w.quote('p', 1, 0.4)
    w.quote('k', 1, 0.55)
    follow()
    w.clock.increment(15 * 60_000 + 1)
    follow()
    assert.deepEqual(client.ids, [id(1)])
    assert.equal(client.seq, 3)
  })

  test("a view's failure is logged and contained: the spread actor goes on", () => {
    const w = world(2)
    const recorded = recordedLog()
    let broken = false
    const e = w.engine
    const reader: SpreadReader = {
      subscribe: (l) => e.subscribe(l),
      record: (k) => e.record(k),
      spec: (k) => e.spec(k),
      keyOfId: (k) => e.keyOfId(k),
      ready: e.ready,
      byConfidence: (visit) => {
        if (broken) throw new Error('boom')
        e.byConfidence(visit)
      },
      bySpread: (m, visit) => e.bySpread(m, visit),
      byNetEdge: (m, visit) => e.byNetEdge(m, visit),
      withoutEdge: (visit) => e.withoutEdge(visit),
      get topEpoch() {
        return e.topEpoch
      },
      noteTopFloor: (f) => e.noteTopFloor(f),
    }
    const s = new SpreadsTopSource({
      engine: reader,
      sequencer: w.sequencer,
      clock: w.clock,
      log: recorded.log,
      venueIds: [],
    })
    open(w, s, 'limit=1')
    broken = true
    w.quote('p', 0, 0.3)
    w.quote('k', 0, 0.5)
    assert.equal(e.snapshot().status, 'running')
    assert.ok(e.record(pairSpec(0).key) !== undefined, 'the engine priced the pair')
    assert.deepEqual(
      recorded.entries().map((x) => [x.level, x.msg]),
      // One change (the second leg's quote priced the pair), one error line (50: pino's error level).
      [[50, 'stream source failed on a spread change; its streams may be behind until resynced']],
    )
  })

  test('property: snapshot + deltas reproduce the REST /spreads/top list of the view at every step', async () => {
    for (const seed of [1, 2, 3]) {
      const rng = new Rng(seed)
      const pairs = 24
      const w = world(pairs)
      const s = source(w)
      const views = [
        ['limit=5', 5],
        ['limit=8&sort=spread', 8],
        ['limit=6&sort=net_edge', 6],
        ['limit=4&window=1', 4],
        ['limit=30&sort=spread&window=1', 30],
        ['limit=6&sort=spread&min_spread=0.1&min_volume=0', 6],
        ['limit=5&category=sports', 5],
        ['limit=4&sort=spread&search=O1', 4],
        ['limit=6&category=Politics&search=event%200', 6],
      ] as const
      const clients = views.map(([query]) => {
        const { log } = open(w, s, query)
        const client = new TopClient()
        client.apply(JSON.parse(s.snapshot(log)) as Record<string, unknown>)
        return { query, topic: `spreads.top|${log.id.key}`, log, client, seen: 0, listed: 0, staleLeft: 0 }
      })
      for (let step = 0; step < 250; step++) {
        const roll = rng.next()
        if (roll < 0.8) {
          const venue = rng.pick(['p', 'k'] as const)
          const prob = rng.chance(0.05) ? undefined : Math.round(rng.next() * 1e4) / 1e4
          w.quote(venue, rng.int(0, pairs - 1), prob, rng.chance(0.08))
        } else if (roll < 0.9) {
          w.clock.increment(rng.int(0, 20 * 60_000))
        } else if (roll < 0.95) {
          w.engine.send({ type: 'rescore' })
        } else {
          const kept = Array.from({ length: pairs }, (_, i) => i).filter(() => rng.chance(0.8))
          w.engine.send({ type: 'pairs', specs: kept.map((i) => pairSpec(i)) })
        }
        for (const [v, c] of clients.entries()) {
          const frames = w.sink.of(c.topic)
          for (const f of frames.slice(c.seen)) c.client.apply(f)
          c.seen = frames.length
          const expected = await reference(w, c.query, views[v]?.[1] as number)
          c.listed += expected.length
          // /spreads/top ranks fresh spreads only too: the stale ones are counted on the scanner, which lists them.
          assert.ok(
            (await w.rest('top', c.query)).data.every((r) => r.is_stale === false),
            'no stale row on /spreads/top',
          )
          c.staleLeft += (await w.rest('scan', 'min_spread=0&min_volume=0')).data.filter(
            (r) => r.is_stale === true,
          ).length
          const where = `seed ${seed}, step ${step}, view ${c.query}`
          assert.deepEqual(
            c.client.ids,
            expected.map((r) => r.id),
            where,
          )
          assert.deepEqual(c.client.records, expected, where)
          if (rng.chance(0.05)) {
            // A snapshot on request says what the client holds, at its seq.
            const again = new TopClient()
            const snap = JSON.parse(s.snapshot(c.log)) as Record<string, unknown>
            again.apply(snap)
            assert.deepEqual([again.ids, snap.seq], [c.client.ids, c.client.seq], where)
          }
        }
      }
      // Not a vacuous pass: every view held records, moved often, and stale spreads existed that the lists left out.
      for (const c of clients) {
        assert.ok(
          c.seen > 20 && c.listed > 150 && c.staleLeft > 10,
          `${c.query}: ${c.seen} frames, ${c.listed} listed, ${c.staleLeft} stale left out`,
        )
      }
    }
  })
})
