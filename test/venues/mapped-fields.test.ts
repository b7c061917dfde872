import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { SimulatedClock } from '../../src/core/clock.js'
import { loadConfig } from '../../src/config/load.js'
import { startSimulator, type Simulator } from '../../src/sim/simulator.js'
import { MappedRecords } from '../../src/venues/mapped-records.js'
import { mapVenuekEvent, VENUEK_MAPPED_FIELDS } from '../../src/venues/venuek/map-catalog.js'
import type { KEvent, KSeries } from '../../src/venues/venuek/wire.js'
import { GAMMA_MAPPED_FIELDS, mapGammaEvent } from '../../src/venues/venuep/map-catalog.js'
import type { GammaEvent } from '../../src/venues/venuep/wire.js'
import { REAL_CATALOG_DIR, SHORT_DATED_DIR } from '../helpers/fixtures.js'
import { TEST_ANCHOR_MS } from '../helpers/service.js'

/**
 * An event's fingerprint covers only the fields its mapping reads (mapped-records.ts), so the lists of those fields
 * must hold every field the mappers read. Each raw event the venues' simulators serve, for both real captured
 * catalogs (long-dated and the short-dated week) and for a generated world (every field the simulator writes), is
 * mapped whole and cut to its venue's list: the two records must be equal. A field a mapper starts reading that the
 * list lacks makes some record differ here.
 */
const links = { eventUrl: (id: string) => `https://venue.example/${id}` }
const cut = <T>(raw: T, fields: readonly string[]): T => JSON.parse(JSON.stringify(raw, fields as string[])) as T

interface RawCatalogs {
  readonly gamma: GammaEvent[]
  readonly venuek: KEvent[]
  readonly series: Map<string, KSeries>
}

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url)
  assert.equal(res.status, 200, url)
  return (await res.json()) as T
}

/** Every event each simulated venue lists, as raw wire records (open and closed, whatever their age). */
async function rawCatalogs(sim: Simulator): Promise<RawCatalogs> {
  const gamma: GammaEvent[] = []
  for (const closed of [false, true]) {
    for (let offset = 0; ; offset += 500) {
      const page = await getJson<GammaEvent[]>(
        `${sim.venuep.urls.gamma}/events?limit=500&offset=${offset}&closed=${closed}&order=id&ascending=true`,
      )
      gamma.push(...page)
      if (page.length < 500) break
    }
  }
  const venuek: KEvent[] = []
  let cursor = ''
  do {
    const page = await getJson<{ events: KEvent[]; cursor?: string }>(
      `${sim.venuek.urls.rest}/events?limit=200&with_nested_markets=true&cursor=${encodeURIComponent(cursor)}`,
    )
    venuek.push(...page.events)
    cursor = page.cursor ?? ''
  } while (cursor !== '')
  const { series } = await getJson<{ series: KSeries[] }>(`${sim.venuek.urls.rest}/series`)
  return { gamma, venuek, series: new Map(series.map((s) => [s.ticker ?? '', s])) }
}

const config = loadConfig({ env: { NODE_ENV: 'test' } })
const sources: Record<string, Parameters<typeof startSimulator>[0]['config']> = {
  'real long-dated catalogs': { ...config.sim, catalog: REAL_CATALOG_DIR, wallets: 5, venuekAuth: false },
  'real short-dated week': { ...config.sim, catalog: SHORT_DATED_DIR, wallets: 5, venuekAuth: false },
  'generated world': { ...config.sim, questions: 1500, seed: 42, venuekAuth: false },
}

for (const [name, simConfig] of Object.entries(sources)) {
  describe(`the mapped fields hold every field the mappers read: ${name}`, () => {
    let sim: Simulator
    let raw: RawCatalogs
    before(async () => {
      const clock = new SimulatedClock(TEST_ANCHOR_MS)
      sim = await startSimulator({ config: simConfig, clock, anchorMs: TEST_ANCHOR_MS, startEngine: false })
      raw = await rawCatalogs(sim)
    })
    after(() => sim.close())

    test('venuep: each event maps the same whole and cut to GAMMA_MAPPED_FIELDS', () => {
      assert.ok(raw.gamma.length > 50, `${raw.gamma.length} events`)
      for (const e of raw.gamma) {
        assert.deepEqual(mapGammaEvent(cut(e, GAMMA_MAPPED_FIELDS), links), mapGammaEvent(e, links), e.slug)
      }
    })

    test('venuek: each event maps the same whole and cut to VENUEK_MAPPED_FIELDS', () => {
      assert.ok(raw.venuek.length > 50, `${raw.venuek.length} events`)
      for (const e of raw.venuek) {
        const mapped = mapVenuekEvent(e, raw.series, links)
        assert.deepEqual(mapVenuekEvent(cut(e, VENUEK_MAPPED_FIELDS), raw.series, links), mapped, e.event_ticker)
      }
    })
  })
}

describe('an event that moved only in fields the service does not map is unchanged', () => {
  const market = {
    ticker: 'KXT-1',
    title: 'Will it?',
    status: 'active',
    yes_bid_dollars: '0.4000',
    volume_fp: '100.00',
    previous_yes_bid_dollars: '0.3000',
    no_bid_dollars: '0.5900',
  }
  const event = { event_ticker: 'KXT', series_ticker: 'KXT', title: 'T', markets: [market] }
  const sync = (records: MappedRecords<object | undefined>, e: KEvent) => {
    records.begin()
    const mapped = records.map('KXT', e, '', () => mapVenuekEvent(e, new Map(), links))
    records.commit()
    return mapped
  }

  test('a previous price and the NO side moved: the kept record comes back; the volume moved: a new one', () => {
    const records = new MappedRecords<object | undefined>(VENUEK_MAPPED_FIELDS)
    const first = sync(records, event)
    const rolled = { ...event, markets: [{ ...market, previous_yes_bid_dollars: '0.3500', no_bid_dollars: '0.5800' }] }
    assert.equal(sync(records, rolled), first)
    const traded = { ...event, markets: [{ ...market, volume_fp: '110.00' }] }
    const next = sync(records, traded)
    assert.notEqual(next, first)
    assert.equal((next as { volumeTotal?: number }).volumeTotal, 110)
  })

  test('without a field list every field counts (the whole record)', () => {
    const records = new MappedRecords<object | undefined>()
    const first = sync(records, event)
    const rolled = { ...event, markets: [{ ...market, previous_yes_bid_dollars: '0.3500' }] }
    assert.notEqual(sync(records, rolled), first)
  })
})
