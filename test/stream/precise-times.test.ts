import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import WebSocket from 'ws'
import { startTestService, type TestService } from '../helpers/service.js'
import { settle, waitFor } from '../helpers/wait.js'

/**
 * `stream.preciseTimes` (STREAM_PRECISE_TIMES): the stream's `lts` and `pts` carry microseconds, and their whole
 * milliseconds are the service's clock as before; `ts` (venue time) stays whole. Off (the default, every other
 * stream test), they are integers.
 */
let s: TestService

before(async () => {
  s = await startTestService({ questions: 30, config: { stream: { preciseTimes: true } } })
})
after(() => s?.close())

test('with preciseTimes, quote deltas carry lts and pts with microseconds; ts stays whole', async () => {
  const keys: string[] = []
  for (const actor of Object.values(s.app.venues))
    for (const q of actor.quotes()) if (!q.stale && keys.length < 40) keys.push(`${actor.venue}:${q.instrumentId}`)
  const ws = new WebSocket(`${s.baseUrl.replace('http', 'ws')}/api/v2/stream`, {
    headers: { 'x-api-key': s.apiKey as string },
  })
  const frames: Record<string, unknown>[] = []
  ws.on('message', (data: Buffer) => frames.push(JSON.parse(data.toString('utf8')) as Record<string, unknown>))
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
  })
  ws.send(JSON.stringify({ op: 'subscribe', id: 1, ch: 'quote', keys }))
  await waitFor(
    () => frames.some((f) => (f.d as { ev?: string } | undefined)?.ev === 'snapshots_done'),
    5_000,
    'snapshots_done',
  )
  const start = s.clock.now()
  for (let i = 0; i < 100 && frames.filter((f) => f.type === 'delta').length < 20; i++) {
    s.advance(200, 50)
    await settle(10)
  }
  ws.close()
  const deltas = frames.filter((f) => f.type === 'delta')
  assert.ok(deltas.length >= 20, `${deltas.length} deltas`)
  for (const f of deltas) {
    const { ts, lts, pts } = f as { ts: number; lts: number; pts: number }
    assert.ok(Number.isInteger(ts), `ts ${ts} is whole ms`)
    for (const t of [lts, pts]) {
      assert.ok(Math.floor(t) >= start && Math.floor(t) <= s.clock.now(), `${t} is the service's clock`)
      assert.equal(Math.round(t * 1000) / 1000, t, `${t} has at most µs`)
    }
  }
  // Fractions, not whole ms dressed up: the stamps are spread inside their milliseconds.
  const fractions = new Set(deltas.flatMap((f) => [f.lts as number, f.pts as number].map((t) => t % 1)))
  assert.ok(fractions.size > 10, `${fractions.size} distinct fractions`)
})
