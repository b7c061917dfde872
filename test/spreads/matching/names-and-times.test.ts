import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { easternDay, instantOn, timeOfDay } from '../../../src/spreads/matching/clock-times.js'
import { aliasLookup, compareNames, nameKey, sameCode } from '../../../src/spreads/matching/names.js'

/** Names across venues (names.ts) and times of day with their zones (clock-times.ts). */
const cmp = (a: string, b: string) => compareNames(nameKey(a), nameKey(b))

test('names: equal, shortened, a person, a city told apart by a letter, a code; never a name suffix or another team', () => {
  assert.equal(cmp('Leviatán Esports', 'Leviatan eSports'), 'same')
  assert.equal(cmp('Team Falcons', 'Falcons'), 'same')
  assert.equal(cmp('DRX Challengers', 'Kiwoom DRX Challengers'), 'strong')
  assert.equal(cmp('Sinner', 'Jannik Sinner'), 'strong')
  assert.equal(cmp('Zach Johnson', 'Zachary Johnson'), 'strong')
  assert.equal(cmp('Los Angeles L', 'Los Angeles Lakers'), 'strong')
  assert.equal(cmp('EF', 'Eternal Fire'), 'weak')
  assert.equal(cmp('MNTE', 'Monte'), 'weak')
  assert.equal(cmp('TL', 'Team Liquid'), 'weak')
  assert.equal(cmp('Donald Trump', 'Donald Trump Jr.'), 'none')
  assert.equal(cmp('Los Angeles L', 'Los Angeles C'), 'none')
  assert.equal(cmp('Heroic', 'FURIA'), 'none')
  assert.ok(sameCode('g21', 'g2') && sameCode('k271', 'k27') && !sameCode('lal', 'lac'))
})

test('aliases: one group is the same name, two groups never, whatever the rules say', () => {
  const aliases = aliasLookup([
    ['Eintracht Frankfurt', 'SGE'],
    ['Frankfurt Galaxy', 'Frankfurt'],
  ])
  assert.equal(compareNames(nameKey('SGE'), nameKey('Eintracht Frankfurt'), aliases), 'same')
  assert.equal(compareNames(nameKey('Frankfurt'), nameKey('Eintracht Frankfurt'), aliases), 'none')
  assert.equal(compareNames(nameKey('Frankfurt'), nameKey('Eintracht Frankfurt')), 'strong', 'without the file')
})

test('times of day: "10AM ET" is EDT in May and EST in December; the clocks change on the right Sundays', () => {
  const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`)
  const at = (iso: string, text: string) => new Date(instantOn(day(iso), timeOfDay(text)!)!).toISOString()
  assert.equal(at('2026-05-10', 'may 10, 10am et'), '2026-05-10T14:00:00.000Z')
  assert.equal(at('2026-05-10', 'may 10, 2026 at 10am edt'), '2026-05-10T14:00:00.000Z')
  assert.equal(at('2026-12-30', 'at 12pm et'), '2026-12-30T17:00:00.000Z')
  assert.equal(at('2026-05-09', 'may 9, 10pm et'), '2026-05-10T02:00:00.000Z')
  assert.equal(
    at('2026-03-08', '3am et'),
    '2026-03-08T07:00:00.000Z',
    'daylight time from 2 am, second Sunday of March',
  )
  assert.equal(
    at('2026-11-01', '3am et'),
    '2026-11-01T08:00:00.000Z',
    'standard time from 2 am, first Sunday of November',
  )
  assert.equal(timeOfDay('bitcoin above 79,000'), undefined)
  assert.equal(timeOfDay('at noon et')?.minutes, 720)
})

test('the Eastern day of any instant is the day whose Eastern hours hold it', () => {
  fc.assert(
    fc.property(fc.integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2030, 0, 1) }), (ms) => {
      const d = easternDay(ms)
      const start = Date.parse(`${d}T00:00:00Z`)
      const hour = Math.floor((ms - start) / 3_600_000)
      // The instant is 4 or 5 hours behind UTC in Eastern time: its Eastern date is that of ms − 4 h or ms − 5 h.
      const candidates = [4, 5].map((h) => new Date(ms - h * 3_600_000).toISOString().slice(0, 10))
      assert.ok(candidates.includes(d), `${new Date(ms).toISOString()} → ${d}`)
      assert.ok(hour >= 4 && hour < 29, `${new Date(ms).toISOString()} → ${d}`)
    }),
  )
})
