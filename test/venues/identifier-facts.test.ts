import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eventTickerFacts, marketTickerCode } from '../../src/venues/venuek/ticker-facts.js'
import { eventSlugFacts } from '../../src/venues/venuep/slug-facts.js'

/** What the venues' identifiers state, read from real tickers and slugs of both venues (test/fixtures/real-venues). */
test('venuek tickers: the day, the hour or start time, the series and the team codes', () => {
  assert.deepEqual(eventTickerFacts('KXBTCD-26MAY1010', 'KXBTCD'), {
    day: '2026-05-10',
    minutes: 600,
    league: 'btcd',
    codes: undefined,
    codeRun: undefined,
  })
  assert.deepEqual(eventTickerFacts('KXCS2MAP-26MAY110700INOXMOUZN-1', 'KXCS2MAP'), {
    day: '2026-05-11',
    minutes: 420,
    league: 'cs2map',
    codes: undefined,
    codeRun: 'inoxmouzn',
  })
  // A code that begins with digits after a start time: the four digits are the time.
  assert.equal(eventTickerFacts('KXCS2MAP-26MAY1010009ZFAL-1', 'KXCS2MAP')?.codeRun, '9zfal')
  // No start time (basketball, soccer): the day and the codes.
  assert.deepEqual(eventTickerFacts('KXEPLGAME-26SEP05ARSCHE', undefined), {
    day: '2026-09-05',
    minutes: undefined,
    league: 'eplgame',
    codes: undefined,
    codeRun: 'arsche',
  })
  // A month code is not a day: only the series is read.
  assert.deepEqual(eventTickerFacts('KXFED-27APR', 'KXFED'), {
    day: undefined,
    minutes: undefined,
    league: 'fed',
    codes: undefined,
    codeRun: undefined,
  })
})

test("venuek market tickers: a team's code, never a strike", () => {
  assert.equal(marketTickerCode('KXCS2MAP-26MAY110700INOXMOUZN-1-MOUZN', 'KXCS2MAP-26MAY110700INOXMOUZN-1'), 'mouzn')
  assert.equal(marketTickerCode('KXEPLGAME-26SEP05ARSCHE-TIE', 'KXEPLGAME-26SEP05ARSCHE'), 'tie')
  assert.equal(marketTickerCode('KXBTCD-26MAY1010-T78999.99', 'KXBTCD-26MAY1010'), undefined)
  assert.equal(marketTickerCode('KXHIGHNY-26MAY10-B78.5', 'KXHIGHNY-26MAY10'), undefined)
  assert.equal(marketTickerCode('KXEPLTOTAL-26SEP05ARSCHE-3', 'KXEPLTOTAL-26SEP05ARSCHE'), undefined)
})

test('venuep slugs: a game names its league, two codes and its date; other slugs only a trailing date', () => {
  assert.deepEqual(eventSlugFacts('cs2-fal2-9z-2026-05-10'), {
    day: '2026-05-10',
    minutes: undefined,
    league: 'cs2',
    codes: ['fal2', '9z'],
    codeRun: undefined,
  })
  assert.deepEqual(eventSlugFacts('highest-temperature-in-nyc-on-may-10-2026'), undefined)
  assert.deepEqual(eventSlugFacts('fed-decision-in-december'), undefined)
  assert.equal(eventSlugFacts('epl-ars-che-2026-09-05-more-markets'), undefined)
})
