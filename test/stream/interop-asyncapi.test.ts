import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { Ajv } from 'ajv'
import { SimulatedClock } from '../../src/core/clock.js'
import { buildAsyncApi } from '../../src/http/asyncapi.js'
import { nodeStreamClient } from '../../src/stream-client/node-client.js'
import type { ServerFrame } from '../../src/stream-client/wire.js'
import { waitFor } from '../helpers/wait.js'
import { Harness, VALID_KEY } from './server/harness.js'

let h: Harness
before(async () => {
  h = await new Harness().start()
})
after(() => h.close())

test('interop: the real server frames match the AsyncAPI messages (control frames, and envelopes)', async () => {
  const doc = buildAsyncApi() as any
  const v = (name: string) => {
    const ajv = new Ajv({ strict: false, allErrors: true })
    const rw = (x: unknown) => JSON.parse(JSON.stringify(x).replace(/"#\/components\/schemas\//g, '"#/definitions/'))
    return ajv.compile({ ...rw(doc.components.messages[name].payload), definitions: rw(doc.components.schemas) })
  }
  const frames: ServerFrame[] = []
  const client = nodeStreamClient({
    url: `ws://127.0.0.1:${h.port}/api/v2/stream`,
    apiKey: VALID_KEY,
    clock: new SimulatedClock(0),
  })
  client.onFrame((f) => frames.push(f))
  await client.connect()
  await client.subscribe('quote', ['venuep:A', 'nope'])
  await client.subscribe('book', ['venuep:B'], { depth: 25 })
  h.quote.emit('venuep:A', 1)
  h.clock.increment(1000)
  await client.ping()
  await client.list()
  await client.snapshot('quote', ['venuep:A'])
  await client.snapshot('quote', ['venuep:zzz']).catch(() => {})
  await client.unsubscribe(client.subscriptions[0]!)
  await waitFor(() => frames.some((f) => f.type === 'hb'), 5000, 'hb')
  const seen = new Set<string>()
  for (const f of frames) {
    const name =
      f.type === 'marker' && (f as any).key === null
        ? 'snapshotsDone'
        : ['snapshot', 'delta', 'marker'].includes(f.type)
          ? `${(f as any).ch}${f.type[0]!.toUpperCase()}${f.type.slice(1)}`
          : f.type
    seen.add(name)
    const validate = v(name)
    const ok = validate(
      ['snapshot', 'delta'].includes(f.type)
        ? {
            ...f,
            d: name.startsWith('book')
              ? { bids: [], asks: [], crc: 0 }
              : { best_bid: null, best_ask: null, bid_size: null, ask_size: null, probability: null, stale: true },
          }
        : f,
    )
    assert.ok(ok, `${name}: ${JSON.stringify(f)} ${JSON.stringify(validate.errors)}`)
  }
  for (const name of ['welcome', 'ack', 'pong', 'hb', 'quoteSnapshot', 'quoteDelta', 'bookSnapshot', 'snapshotsDone'])
    assert.ok(seen.has(name), `a ${name} frame was checked`)
  client.close()
})
