import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { loadConfig } from '../../src/config/load.js'
import { CALENDAR_FILE, withPinnedCalendar } from '../../src/sim/pinned-calendar.js'
import { checkedLogger } from '../helpers/checked-logger.js'

/**
 * A deployment's simulated world keeps its identifiers across restarts: the calendar it is laid out on is pinned in
 * DATA_DIR at the first start and read back later, however much later; a configured calendar or a replay wins.
 */
const sim = loadConfig({ env: { NODE_ENV: 'test' } }).sim
const DAY = 86_400_000
const FIRST_START = Date.UTC(2027, 2, 14, 23, 59)

test('the first start pins its UTC day; every later start reads it back', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sim-calendar-'))
  try {
    const logs = checkedLogger()
    assert.equal(withPinnedCalendar(sim, dir, FIRST_START, logs.log).calendar, '2027-03-14')
    assert.equal(readFileSync(join(dir, CALENDAR_FILE), 'utf8'), '2027-03-14\n')
    for (const later of [FIRST_START + 60_000, FIRST_START + 37 * DAY, FIRST_START + 400 * DAY]) {
      assert.equal(withPinnedCalendar(sim, dir, later, logs.log).calendar, '2027-03-14')
    }
    assert.deepEqual(logs.warnings(), [])
    assert.deepEqual(logs.problems(), [])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('a configured calendar and a replay are left alone, and nothing is written', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sim-calendar-'))
  try {
    const logs = checkedLogger()
    const configured = { ...sim, calendar: '2026-01-01' }
    assert.equal(withPinnedCalendar(configured, dir, FIRST_START, logs.log), configured)
    const replay = { ...sim, catalog: 'test/fixtures/real-venues' }
    assert.equal(withPinnedCalendar(replay, dir, FIRST_START, logs.log), replay)
    assert.throws(() => readFileSync(join(dir, CALENDAR_FILE)), { code: 'ENOENT' })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('a file that holds no date is replaced by a fresh pin; a directory that cannot be written warns and uses the built-in calendar', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sim-calendar-'))
  try {
    const logs = checkedLogger()
    writeFileSync(join(dir, CALENDAR_FILE), 'not a date\n')
    // The unreadable pin is not overwritten (wx): the world falls back to the built-in calendar, with a warning.
    assert.equal(withPinnedCalendar(sim, dir, FIRST_START, logs.log).calendar, undefined)
    const blocked = join(dir, 'a-file')
    writeFileSync(blocked, '')
    assert.equal(withPinnedCalendar(sim, blocked, FIRST_START, logs.log).calendar, undefined)
    assert.deepEqual(
      logs.warnings().map((l) => l.msg),
      [
        'cannot pin the simulated world calendar in the data directory: the world is laid out on the built-in calendar',
        'cannot pin the simulated world calendar in the data directory: the world is laid out on the built-in calendar',
      ],
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
