import { logistic, logit, noise, normalCdf } from './path.js'
import { hashInts, hashString } from './random.js'
import type { Question, SimVenue } from './types.js'

/**
 * Fair values. `contractFair` is the truth both venues track; `venueFair` adds a small venue-specific
 * deviation and any dislocation the live engine opened, so the same question trades at slightly different
 * prices on the two venues, and sometimes at very different ones.
 *
 * A ladder's and a deadline ladder's contracts are ordered: P(above $160) ≥ P(above $168), P(below 2%) ≤ P(below
 * 3%), P(before Jul 1) ≤ P(before Jan 1). A venue's deviation and dislocations therefore move such a question as a
 * whole, as a shift of its underlying (the ladder's level, the deadline's hazard) on that venue, never one contract
 * alone: every venue's fair values keep the order (and a range ladder's brackets still sum to one, up to the live
 * clamp). Candidates and binary questions deviate per contract.
 */
const RESOLUTION_RAMP_MS = 3 * 86_400_000
const LIVE_MIN = 0.004
const LIVE_MAX = 0.996

/**
 * Probability that contract `index` of question `q` is true, as of time `t` (ms). `shift` moves a ladder's or a
 * deadline ladder's underlying (logit-like units, see `venueFair`); other models ignore it.
 */
export function contractFair(q: Question, index: number, t: number, shift = 0): number {
  const at = q.lifecycle === 'active' ? t : Math.min(t, q.endTime)
  const raw = rawFair(q, index, at, shift)
  if (q.resolvedAt === undefined) return raw
  const won = q.contracts[index]?.won === true ? 1 : 0
  if (t >= q.resolvedAt) return won
  const start = q.resolvedAt - RESOLUTION_RAMP_MS
  if (t <= start) return raw
  const w = ((t - start) / RESOLUTION_RAMP_MS) ** 2
  return raw * (1 - w) + won * w
}

/** The path before any resolution ramp: also used to draw winners. */
export function rawFair(q: Question, index: number, t: number, shift = 0): number {
  const m = q.model
  switch (m.kind) {
    case 'binary': {
      const p = clampLive(logistic(m.base + noise(q.seed, t, q.volatility)))
      return index === 0 ? p : 1 - p
    }
    case 'multi': {
      let sum = 0
      let mine = 0
      for (let i = 0; i < m.bases.length; i++) {
        const base = m.bases[i] as number
        // A placeholder (base -Infinity) has no share: skipping it keeps large candidate lists cheap to price.
        if (base === Number.NEGATIVE_INFINITY) continue
        const e = Math.exp(base + noise(hashInts(q.seed, i), t, q.volatility))
        sum += e
        if (i === index) mine = e
      }
      return clampLive(mine / sum)
    }
    case 'ladder': {
      const level = ladderLevel(q, m.logLevel, m.sigma, t) + shift * LEVEL_PER_LOGIT * m.sigma
      const bounds = m.bounds?.[index]
      if (bounds !== undefined)
        return clampLive(
          normalCdf((Math.log(bounds[1]) - level) / m.sigma) - normalCdf((Math.log(bounds[0]) - level) / m.sigma),
        )
      const threshold = q.contracts[index]?.threshold
      if (threshold === undefined) throw new Error(`ladder contract ${index} of ${q.id} has no threshold`)
      return clampLive(1 - normalCdf((Math.log(threshold) - level) / m.sigma))
    }
    case 'deadline': {
      // "Before D": the chance the event happens between t and D at a yearly hazard rate that moves with the path.
      const deadline = m.deadlines[index]
      if (deadline === undefined) throw new Error(`deadline contract ${index} of ${q.id} has no deadline`)
      const hazard = Math.exp(m.logHazard + noise(q.seed, t, q.volatility) + shift)
      return clampLive(1 - Math.exp((-hazard * Math.max(0, deadline - t)) / YEAR_MS))
    }
  }
}

const YEAR_MS = 365.25 * 86_400_000

/**
 * A ladder's level moves by this many standard deviations per unit of shift: an at-the-money strike (slope φ(0) ≈
 * 0.399 per σ) then moves as much as one logit unit moves a price of one half (slope 0.25), so a venue's deviation
 * and a dislocation are as large on a ladder as on a binary question.
 */
const LEVEL_PER_LOGIT = 0.25 / 0.3989

/** Whether the question's contracts are ordered (thresholds, ranges, deadlines): its venue shifts move it whole. */
export function isOrdered(q: Question): boolean {
  return q.model.kind === 'ladder' || q.model.kind === 'deadline'
}

/** The ladder's underlying (log) at t: the path's level, also used to draw which strikes resolved YES. */
export function ladderLevel(q: Question, logLevel: number, sigma: number, t: number): number {
  return logLevel + noise(q.seed, t, q.volatility) * sigma * 0.8
}

/**
 * The `base` of a binary model whose active path, quoted on `venue`, is at `p` at time `t`: a replay starts each
 * market's path at its captured price. Exact while the path stays inside the live range [LIVE_MIN, LIVE_MAX].
 */
export function binaryBaseThrough(seed: number, volatility: number, venue: SimVenue, t: number, p: number): number {
  return logit(clampLive(p)) - venueDeviation(seed, 0, venue, t) - noise(seed, t, volatility)
}

function clampLive(p: number): number {
  return Math.min(LIVE_MAX, Math.max(LIVE_MIN, p))
}

export interface Dislocation {
  readonly venue: SimVenue
  readonly start: number
  readonly end: number
  /** Logit-space offset applied on `venue` while the dislocation lasts. */
  readonly offset: number
}

/** Dislocations by contract key, opened by the live engine and kept so price history reflects them. */
export type DislocationLog = Map<string, Dislocation[]>

/** Per venue id, the salt of its deviations: the hash of the id, so each venue's quotes wander on their own. */
const venueSalts = new Map<string, number>()

function venueSalt(venue: SimVenue): number {
  let salt = venueSalts.get(venue)
  if (salt === undefined) venueSalts.set(venue, (salt = hashString(venue)))
  return salt
}

/** How far (logit units) `venue` quotes contract `index` of the question seeded `seed` off its fair value at `t`. */
function venueDeviation(seed: number, index: number, venue: SimVenue, t: number): number {
  return noise(hashInts(seed, index, venueSalt(venue)), t, 0.07)
}

/** The price venue `venue` quotes around for contract `index` at time `t`. */
export function venueFair(
  q: Question,
  index: number,
  venue: SimVenue,
  t: number,
  dislocations?: DislocationLog,
): number {
  if (isOrdered(q)) {
    // The shift is inside the path (rawFair clamps it to the live range); a settled 0 or 1 stays.
    return contractFair(q, index, t, questionShift(q, venue, t, dislocations))
  }
  const p = contractFair(q, index, t)
  if (p <= 0 || p >= 1) return p
  let x = logit(p) + venueDeviation(q.seed, index, venue, t)
  const log = dislocations?.get(q.contracts[index]?.key ?? '')
  if (log !== undefined) {
    for (const d of log) if (d.venue === venue && t >= d.start && t < d.end) x += d.offset
  }
  return clampLive(logistic(x))
}

/**
 * How far `venue` quotes an ordered question's underlying off the truth at `t`: one deviation for the question, plus
 * every dislocation open on that venue on any of its contracts (the engine opens them per contract; on a ladder they
 * move the ladder).
 */
function questionShift(q: Question, venue: SimVenue, t: number, dislocations: DislocationLog | undefined): number {
  let shift = venueDeviation(q.seed, 0, venue, t)
  if (dislocations === undefined || dislocations.size === 0) return shift
  for (const c of q.contracts) {
    const log = dislocations.get(c.key)
    if (log === undefined) continue
    for (const d of log) if (d.venue === venue && t >= d.start && t < d.end) shift += d.offset
  }
  return shift
}
