import { Rng } from './random.js'
import type { Lifecycle } from './types.js'

/**
 * The generated world's calendar, and how the world looks when the simulator starts later than it.
 *
 * Identifiers and titles must be a function of the seed alone: a user who saved an event slug, a condition id or a
 * ticker expects it to answer after a restart, a day or a year later. Titles and tickers carry dates ("Before Jul 1,
 * 2027", `-27JUL01`), and which questions exist, open or ended, is laid out around an instant. So the world is laid
 * out once, around a fixed instant, its calendar (`WORLD_CALENDAR_MS`, config `sim.calendar`), never around the
 * start: the same seed and calendar give the same questions, identifiers and titles at every start, and a question
 * still open the same dates (an ended one's venues show its end as their close, as the listings always did).
 *
 * Dates do not slide with the start. A title names the date its market's own dates say, as on the real venues, and
 * the matcher relies on it (a venue's end time falls on the day the other venue's title names); moving every date by
 * the time since the calendar, even by one day, cost a third of the simulated world's true pairs and some false ones
 * (recall 0.91 → 0.66, precision 0.999 → 0.986 at 1,200 questions). Instead the world ages: started after the
 * calendar instant, a question whose end has passed is closed, and resolved (winners drawn from its seed) once its
 * resolution time has passed too, as the real venues would show it by then; a question that was closed at the
 * calendar instant resolves within three days of it. No open market asks about a date that has passed. The price
 * paths, history, books and trades are laid out around the start, as before.
 *
 * The cost: the world's open part thins as the calendar ages (of 1,849 open questions at seed 42, 1,703 are still open
 * 5 days later, 1,004 after 37 days, 225 after 400 days). A later `sim.calendar` lays out a fresh world, with other
 * identifiers. A venue's own ladders (hourly and daily series, a peer folder's ladders.ts) are listed on a rolling
 * schedule from the start instead: each observation's event has the same identifiers whenever it is listed. A clock
 * before the calendar instant sees the world as of that instant.
 */
const HOUR = 3_600_000

/** 2026-11-21T12:00:00Z: the instant the generated world is laid out around (its titles' calendar). */
export const WORLD_CALENDAR_MS = Date.UTC(2026, 10, 21, 12)

/** A question's lifecycle as laid out on the calendar, and when it resolved (if it had). */
export interface PlannedLifecycle {
  readonly lifecycle: Lifecycle
  readonly endTime: number
  readonly resolvedAt: number | undefined
  /** The question's seed: its resolution time is drawn from it, apart from every other draw. */
  readonly seed: number
}

/** Mixed into a question's seed for its resolution time, a stream no other draw uses. */
const RESOLUTION_SALT = 0x2f6b_3a91

/**
 * The question's lifecycle at `anchorMs`, a start at or after the calendar instant: an open question whose end has
 * passed is closed, and resolved 1-31 hours after its end; a question closed at the calendar instant resolves 6-72
 * hours after that instant. Resolved stays resolved. The draw depends on the question's seed only, so every start
 * agrees on when a question resolved.
 */
export function lifecycleAt(
  q: PlannedLifecycle,
  calendarMs: number,
  anchorMs: number,
): { lifecycle: Lifecycle; resolvedAt: number | undefined } {
  if (anchorMs <= calendarMs || q.lifecycle === 'resolved') return { lifecycle: q.lifecycle, resolvedAt: q.resolvedAt }
  if (q.lifecycle === 'active' && q.endTime > anchorMs) return { lifecycle: 'active', resolvedAt: undefined }
  const r = new Rng(q.seed ^ RESOLUTION_SALT)
  const resolvedAt = Math.floor(
    q.lifecycle === 'closed' ? calendarMs + (6 + r.next() * 66) * HOUR : q.endTime + (1 + r.next() * 30) * HOUR,
  )
  return resolvedAt <= anchorMs ? { lifecycle: 'resolved', resolvedAt } : { lifecycle: 'closed', resolvedAt: undefined }
}
