import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { SimConfig } from '../config/schema.js'
import type { Logger } from '../core/logger.js'

/**
 * The calendar a deployment's simulated world is laid out on when none is configured: pinned in `DATA_DIR` at the
 * first start (the file `sim-calendar`, the UTC day of that start) and read back at every later start.
 *
 * Why pinned, not a fixed date in the code: the world ages from its calendar (src/sim/world/calendar.ts): questions
 * past their end close and resolve, so a world laid out on a date compiled into the code would be thin for anyone
 * who starts the service months later. Pinned at the first start, a fresh checkout gets a full world, and the same
 * data directory gets the same identifiers and titles at every restart (saved ids keep answering). Delete the file
 * (or set `SIM_CALENDAR`) for a fresh world with other identifiers.
 *
 * A configured calendar (`SIM_CALENDAR`) wins; a replay of captured catalogs has no calendar. When the directory
 * cannot be written, the world is laid out on the code's calendar and a warning says so.
 */
export const CALENDAR_FILE = 'sim-calendar'

export function withPinnedCalendar(sim: SimConfig, dataDir: string, nowMs: number, log: Logger): SimConfig {
  if (sim.calendar !== undefined || sim.catalog !== undefined) return sim
  const path = join(dataDir, CALENDAR_FILE)
  const stored = readCalendar(path)
  if (stored !== undefined) {
    log.info(
      { calendar: stored, file: path },
      'simulated world calendar read from the data directory (same identifiers as at its first start)',
    )
    return { ...sim, calendar: stored }
  }
  const today = new Date(nowMs).toISOString().slice(0, 10)
  try {
    mkdirSync(dataDir, { recursive: true })
    writeFileSync(path, `${today}\n`, { flag: 'wx' })
  } catch (err) {
    const again = readCalendar(path)
    if (again !== undefined) return { ...sim, calendar: again }
    log.warn(
      { file: path, error: (err as Error).message },
      'cannot pin the simulated world calendar in the data directory: the world is laid out on the built-in calendar',
    )
    return sim
  }
  log.info(
    { calendar: today, file: path },
    'simulated world calendar pinned to today in the data directory (delete the file or set SIM_CALENDAR for a fresh world)',
  )
  return { ...sim, calendar: today }
}

/** The stored calendar, or undefined when the file is absent or does not hold a date. */
function readCalendar(path: string): string | undefined {
  let text: string
  try {
    text = readFileSync(path, 'utf8').trim()
  } catch {
    return undefined
  }
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text)) ? text : undefined
}
