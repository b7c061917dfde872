import type { World } from '../world/world.js'
import { num, seconds } from './format.js'
import { WireError } from './wire-error.js'
import { venuepOf } from './state.js'

const MINUTE = 60_000
const INTERVAL_MS: Readonly<Record<string, number | 'max'>> = {
  '1h': 60 * MINUTE,
  '6h': 360 * MINUTE,
  '1d': 1440 * MINUTE,
  '1w': 7 * 1440 * MINUTE,
  '1m': 30 * 1440 * MINUTE,
  max: 'max',
  all: 'max',
}
/** Server minimum fidelity per interval (live-probe figures, venuep.md §2.4). */
const MIN_FIDELITY: Readonly<Record<string, number>> = { '1w': 5, '1m': 10 }
const FIDELITY_LADDER = [1, 5, 15, 30, 60, 180, 360, 720, 1440, 10_080]
const DEFAULT_POINTS = 1000
const MAX_POINTS = 20_000

export interface PricePoint {
  readonly t: number
  readonly p: number
}

function bad(message: string): WireError {
  return new WireError(400, { error: `invalid filters: ${message}` })
}

function secondsParam(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name)
  if (v === null || v === '') return undefined
  if (!/^\d+$/.test(v)) throw bad(`'${name}' must be a unix timestamp in seconds`)
  return Number(v) * 1000
}

/**
 * `GET /prices-history` (venuep.md §2.4): `{history:[{t,p}]}` with `t` in unix seconds and `p` a number.
 * Points come from the world's venuep fair value at each bucket time (token 1 is 1 − p), so history agrees
 * with the live book's centre and with the trades the wallets made. Points exist only while the market
 * existed: from its creation (a replay: from the replay's start) to now, or to its close/resolution; a resolved
 * market's path ramps to 1 or 0.
 *
 * Choices where the docs are silent:
 * - `fidelity` defaults to the smallest of FIDELITY_LADDER minutes giving at most DEFAULT_POINTS points.
 * - More than MAX_POINTS buckets is a 400 (the real host rejects over-long ranges at fine fidelity).
 * - Neither `interval` nor `startTs`/`endTs` is a 400; `startTs` alone runs to now, `endTs` alone from creation.
 * - An unknown token id gives `{"history":[]}`, like a market that never traded.
 */
export function pricesHistory(world: World, q: URLSearchParams, now: number): { history: PricePoint[] } {
  const market = q.get('market') ?? ''
  if (market === '') throw bad("'market' is required")
  const interval = q.get('interval') ?? ''
  const startMs = secondsParam(q, 'startTs')
  const endMs = secondsParam(q, 'endTs')
  if (interval !== '' && (startMs !== undefined || endMs !== undefined)) {
    throw bad("'interval' and 'startTs'/'endTs' are mutually exclusive")
  }
  if (interval === '' && startMs === undefined && endMs === undefined)
    throw bad("one of 'interval' or 'startTs'/'endTs' is required")
  const span = interval === '' ? undefined : INTERVAL_MS[interval]
  if (interval !== '' && span === undefined)
    throw bad(`'interval' must be one of ${Object.keys(INTERVAL_MS).join(', ')}`)
  if (startMs !== undefined && endMs !== undefined && startMs > endMs) throw bad("'startTs' must not be after 'endTs'")
  const fidelityText = q.get('fidelity') ?? ''
  if (fidelityText !== '' && !/^[1-9]\d*$/.test(fidelityText))
    throw bad("'fidelity' must be a positive number of minutes")
  const explicit = fidelityText === '' ? undefined : Number(fidelityText)
  const minimum = MIN_FIDELITY[interval]
  if (explicit !== undefined && minimum !== undefined && explicit < minimum) {
    throw bad(`minimum 'fidelity' for '${interval}' range is ${minimum}`)
  }

  const ref = venuepOf(world).tokens.get(market)
  // A replayed market the simulation does not walk has one captured price and no series.
  if (ref === undefined || !ref.market.contract.walks) return { history: [] }
  const m = ref.market
  const question = m.canonical
  const born = Math.max(m.event.createdAt, world.historyStartMs)
  const last = Math.min(now, question.resolvedAt ?? (question.lifecycle === 'active' ? now : question.endTime))
  let from: number
  let to: number
  if (span === 'max') [from, to] = [born, last]
  else if (span !== undefined) [from, to] = [now - span, now]
  else [from, to] = [startMs ?? born, endMs ?? now]
  from = Math.max(from, born)
  to = Math.min(to, last)
  if (to < from) return { history: [] }

  const fitting = FIDELITY_LADDER.find((f) => (to - from) / (f * MINUTE) <= DEFAULT_POINTS)
  const fidelity = explicit ?? fitting ?? (FIDELITY_LADDER.at(-1) as number)
  const step = fidelity * MINUTE
  const first = Math.ceil(from / step) * step
  if ((to - first) / step + 1 > MAX_POINTS) throw bad(`range too long for 'fidelity' ${fidelity}; increase 'fidelity'`)
  const history: PricePoint[] = []
  for (let t = first; t <= to; t += step) {
    const yes = world.venueFair(m.contract, 'venuep', t)
    history.push({ t: seconds(t), p: num(ref.index === 0 ? yes : 1 - yes, 4) })
  }
  return { history }
}
