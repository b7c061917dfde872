import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import * as N from '../../src/sim/world/names.js'
import { Rng } from '../../src/sim/world/random.js'
import { easternInstant, easternOf } from '../../src/sim/world/shapes/eastern-time.js'
import { cryptoHourly } from '../../src/sim/world/templates/crypto-hourly.js'
import type { ContractSpec, QuestionSpec } from '../../src/sim/world/templates/types.js'

/**
 * The hourly crypto family worded as the real venues word it (the short-dated captures): the ticker style's
 * `KXBTCD-26MAY1010` "Bitcoin price on May 10, 2026 at 10am EDT?" with `-T78999.99` "$79,000 or above" markets, the
 * slug style's "Bitcoin above ___ on May 10, 10AM ET?" with "Bitcoin above 79,000 on May 10, 10AM ET?" markets titled
 * "79,000". The world-level tests (family-worlds.test.ts) check the same through the simulator's wire.
 */
const BITCOIN = N.COINS.find(([, sym]) => sym === 'BTC')!
const HOUR = 3_600_000
const ctx = { lifecycle: 'active' as const, createdAt: Date.UTC(2026, 4, 9) }
/** The planner's end for a question dated May 10, 2026: 16:00 UTC that day. */
const MAY_10 = Date.UTC(2026, 4, 10, 16)
// A level of about $80,000, as on the real May 10 ladder.
const params = { coin: BITCOIN, hour: 10, drift: Math.log(80_000 / BITCOIN[2]), more: 2 }

const at = (spec: QuestionSpec, threshold: number): [ContractSpec, number] => {
  const i = spec.contracts.findIndex((c) => c.threshold === threshold)
  assert.ok(i >= 0, `a ${threshold} strike`)
  return [spec.contracts[i]!, i]
}

describe('hourly crypto: one event per coin and ET hour on each venue, one market per strike', () => {
  const spec = cryptoHourly.build(params, MAY_10, new Rng(3), ctx)

  test('the ticker style: KXBTCD-26MAY1010, "$79,000 or above", greater than 78999.99, closing at the hour', () => {
    assert.equal(spec.endTime, Date.UTC(2026, 4, 10, 14), '10am EDT')
    assert.equal(spec.tickers.seriesTicker, 'KXBTCD')
    assert.equal(spec.tickers.eventTicker, 'KXBTCD-26MAY1010')
    assert.equal(spec.tickers.title, 'Bitcoin price on May 10, 2026 at 10am EDT?')
    const [c, i] = at(spec, 79_000)
    assert.deepEqual(
      [c.tickersSuffix, c.tickersLabel, c.strikeType, c.floor, c.cap, spec.tickers.marketTitle(i)],
      ['T78999.99', '$79,000 or above', 'greater', 78999.99, undefined, 'Bitcoin price on May 10, 2026 at 10am EDT?'],
    )
    assert.equal(spec.tickers.dates, undefined, 'closes at the observation (the event end)')
  })

  test('the slug style: "Bitcoin above ___ on May 10, 10AM ET?", markets "Bitcoin above 79,000 …" titled "79,000"', () => {
    const s = spec.slugs
    assert.equal(s.title, 'Bitcoin above ___ on May 10, 10AM ET?')
    assert.equal(s.slug, 'bitcoin-above-on-may-10-2026-10am-et')
    assert.equal(s.outcomes, undefined, 'a group of Yes/No markets')
    assert.equal(s.groupTitles, 'title')
    const [, i] = at(spec, 79_000)
    assert.equal(s.marketQuestion(i), 'Bitcoin above 79,000 on May 10, 10AM ET?')
    assert.equal(s.groupItemTitle?.(i), '79,000')
    assert.equal(s.marketSlug?.(i), 'bitcoin-above-79000-on-may-10-2026-10am-et')
    assert.equal(s.endDate, spec.endTime)
    assert.deepEqual(
      s.tags?.map((t) => t.label),
      ['Crypto', 'Bitcoin', 'Hourly'],
    )
  })

  test('each venue lists its own window of the row, overlapping; the neighbouring strike is a look-alike', () => {
    const shared = spec.contracts.filter((c) => c.onSlugs && c.onTickers)
    assert.ok(shared.length >= 3, 'strikes on both venues')
    assert.ok(
      spec.contracts.some((c) => c.onSlugs !== c.onTickers),
      'strikes one venue lists alone',
    )
    const thresholds = spec.contracts.map((c) => c.threshold as number)
    assert.deepEqual(
      thresholds,
      [...thresholds].sort((a, b) => a - b),
    )
    spec.contracts.forEach((c, i) => {
      if (i + 1 === spec.contracts.length) return assert.equal(c.lookalikeOf, undefined)
      assert.deepEqual([c.lookalikeOf, c.lookalikeReason], [i + 1, 'neighbouring strike'])
    })
    // "$X or above" (> X − 0.01 in cents) and "above X" are one contract: the bounds start half a cent below X.
    assert.ok(spec.model.kind === 'ladder' && spec.model.bounds?.[0]?.[0] === thresholds[0]! - 0.005)
  })

  test('the next hours are siblings with their own events; EST in winter, EDT in summer', () => {
    const siblings = cryptoHourly.siblings!(params, MAY_10, new Rng(3), ctx)
    assert.deepEqual(
      siblings.map((s) => [s.tickers.eventTicker, s.slugs.slug, s.facet, s.endTime - spec.endTime]),
      [
        ['KXBTCD-26MAY1011', 'bitcoin-above-on-may-10-2026-11am-et', '11am ET', HOUR],
        ['KXBTCD-26MAY1012', 'bitcoin-above-on-may-10-2026-12pm-et', '12pm ET', 2 * HOUR],
      ],
    )
    assert.equal(spec.facet, '10am ET')
    const winter = cryptoHourly.build({ ...params, hour: 0 }, Date.UTC(2026, 10, 22, 16), new Rng(3), ctx)
    assert.equal(winter.tickers.eventTicker, 'KXBTCD-26NOV2200')
    assert.equal(winter.tickers.title, 'Bitcoin price on Nov 22, 2026 at 12am EST?')
    assert.equal(winter.slugs.title, 'Bitcoin above ___ on November 22, 12AM ET?')
    assert.equal(winter.endTime, Date.UTC(2026, 10, 22, 5))
  })

  test('Eastern time: daylight time from the second Sunday of March to the first Sunday of November', () => {
    assert.equal(easternInstant(2026, 2, 8, 1), Date.UTC(2026, 2, 8, 6), '1am EST before the change')
    assert.equal(easternInstant(2026, 2, 8, 3), Date.UTC(2026, 2, 8, 7), '3am EDT after it')
    assert.equal(easternInstant(2026, 10, 1, 1), Date.UTC(2026, 10, 1, 5), 'the repeated 1am: its first, EDT')
    assert.equal(easternInstant(2026, 10, 1, 2), Date.UTC(2026, 10, 1, 7), '2am EST')
    assert.deepEqual(easternOf(Date.UTC(2026, 4, 11, 3, 30)), {
      year: 2026,
      month: 4,
      day: 10,
      hour: 23,
      minute: 30,
      daylight: true,
    })
  })
})
