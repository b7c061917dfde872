import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { crc32 as zlibCrc32 } from 'node:zlib'
import { DEFAULT_STREAM_URL, parseWatchArgs, renderScreen } from '../../tools/watch-view.js'
import { waitFor } from '../helpers/wait.js'
import { FakePeer, PeerStream } from './fake-peer.js'

/** `npm run watch`: its arguments, its screen, and the built tool against a fake stream server. */
const record = (id: string, event: string, outcome: string, spread: number, confidence: number, stale = false) => ({
  id,
  event_title: event,
  outcome_title: outcome,
  spread,
  confidence,
  is_stale: stale,
})

describe('watch arguments', () => {
  test('flags over environment over defaults; limit 20 by default; the key is required', () => {
    assert.deepEqual(parseWatchArgs([], { API_KEY: 'k' }), { url: DEFAULT_STREAM_URL, apiKey: 'k', view: 'limit=20' })
    assert.equal(DEFAULT_STREAM_URL, 'ws://127.0.0.1:8080/api/v2/stream')
    assert.deepEqual(
      parseWatchArgs(['--limit', '5', '--url=ws://h:1/api/v2/stream'], { API_KEY: 'k', STREAM_URL: 'x' }),
      {
        url: 'ws://h:1/api/v2/stream',
        apiKey: 'k',
        view: 'limit=5',
      },
    )
    assert.deepEqual(parseWatchArgs(['--view', 'limit=3&min_spread=0.02', '--key', 'j'], { STREAM_URL: 'ws://e' }), {
      url: 'ws://e',
      apiKey: 'j',
      view: 'limit=3&min_spread=0.02',
    })
    assert.deepEqual(parseWatchArgs([], {}), { error: 'an API key is required (--key or API_KEY)' })
    assert.deepEqual(parseWatchArgs(['--limit', '0'], { API_KEY: 'k' }), {
      error: '--limit must be a positive integer, not 0',
    })
    assert.deepEqual(parseWatchArgs(['--nope'], { API_KEY: 'k' }), { error: 'unknown argument --nope' })
  })
})

describe('watch screen', () => {
  test('a row per item by rank (rank, event, outcome, spread, confidence), feed state from hb, stale rows starred', () => {
    const lines = renderScreen({
      url: 'ws://h/api/v2/stream',
      view: 'limit=2',
      state: 'open',
      items: [
        { rank: 1, id: 'a', record: record('a', 'Belmora election 2028', 'Green Coalition', 0.2, 0.857508) },
        { rank: 2, id: 'b', record: record('b', 'Fed April', 'Hold', 0.05, 0.9, true) },
      ],
      heartbeat: {
        type: 'hb',
        n: 5,
        ts: 0,
        venues: { venuep: { state: 'up', age_ms: 140 }, venuek: { state: 'degraded', age_ms: 5_200 } },
      },
      resyncing: false,
      width: 80,
    })
    assert.deepEqual(lines, [
      'top spreads  limit=2  ws://h/api/v2/stream',
      'open  feeds: venuep up 140ms  venuek degraded 5.2s',
      '',
      'rank event                               outcome                   spread   conf',
      '   1 Belmora election 2028               Green Coalition           0.2000   0.86',
      '  2* Fed April                           Hold                      0.0500   0.90',
      '',
      '* stale: a quote behind it is old',
    ])
    assert.equal(lines[3]!.length, 80, 'the table fills the width')
    const down = renderScreen({
      url: 'ws://h',
      view: 'limit=2',
      state: 'reconnecting',
      note: 'last close 1006',
      items: [],
      heartbeat: undefined,
      resyncing: false,
      width: 60,
    })
    assert.deepEqual(down.slice(1, 2).concat(down.slice(4)), [
      'reconnecting (last close 1006)  feeds: (no heartbeat yet)',
      '  (empty list)',
    ])
  })
})

describe('npm run watch (the built tool)', () => {
  let peer: FakePeer
  before(async () => {
    peer = await FakePeer.start()
  })
  after(() => peer.close())

  test('subscribes to spreads.top limit=20 with the key from API_KEY and prints the list as frames arrive', async () => {
    const tool = resolve(import.meta.dirname, '../../tools/watch.js')
    const child = spawn(process.execPath, [tool], {
      env: { ...process.env, STREAM_URL: peer.url, API_KEY: 'good-key' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    // The test bounds every wait itself: a hung tool must fail the test, not hold the run.
    const within = <T>(p: Promise<T>, what: string) =>
      Promise.race([
        p,
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`timed out: ${what}`)), 10_000).unref()),
      ])
    let out = ''
    child.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')))
    try {
      const conn = await within(peer.connection(0), 'the connection')
      assert.equal(conn.request.headers['x-api-key'], 'good-key')
      assert.deepEqual(await within(conn.nextCommand('subscribe'), 'the subscribe'), {
        op: 'subscribe',
        id: 1,
        ch: 'spreads.top',
        keys: ['limit=20'],
      })
      const s = new PeerStream('spreads.top', 'limit=20', 't')
      conn.send(
        s.snapshot({
          upsert: [{ rank: 1, id: 'a', record: record('a', 'Fed April', 'Hold', 0.12, 0.7) }],
          remove: [],
          crc: zlibCrc32('a'),
        }),
      )
      conn.send({ type: 'hb', n: 1, ts: 0, venues: { venuep: { state: 'up', age_ms: 10 } } })
      await waitFor(() => out.includes('feeds: venuep up 10ms'), 10_000, 'the heartbeat on screen')
      assert.match(out, / {3}1 Fed April +Hold +0\.1200 +0\.70/)
    } finally {
      child.kill('SIGINT')
      await within(new Promise((r) => child.once('exit', r)), 'the tool to exit on SIGINT').catch((e: unknown) => {
        child.kill('SIGKILL')
        throw e
      })
    }
  })
})
