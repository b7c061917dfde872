import { unit } from './random.js'

/**
 * Fair-value paths as pure functions of time. A path is a sum of smoothed value-noise octaves in logit space,
 * so the value at any instant is computed in O(octaves) without storing history: price history, live books
 * and trades all read the same function and therefore agree with each other.
 */
const OCTAVES: readonly { periodMs: number; amplitude: number }[] = [
  { periodMs: 20 * 86_400_000, amplitude: 0.9 },
  { periodMs: 4 * 86_400_000, amplitude: 0.45 },
  { periodMs: 86_400_000, amplitude: 0.22 },
  { periodMs: 4 * 3_600_000, amplitude: 0.1 },
  { periodMs: 45 * 60_000, amplitude: 0.05 },
  { periodMs: 6 * 60_000, amplitude: 0.025 },
  { periodMs: 40_000, amplitude: 0.012 },
]

function smoothstep(x: number): number {
  return x * x * (3 - 2 * x)
}

/** Value noise in [-1, 1] for one octave. */
function octave(seed: number, index: number, t: number, periodMs: number): number {
  const x = t / periodMs
  const i = Math.floor(x)
  const f = smoothstep(x - i)
  const a = unit(seed, index, i) * 2 - 1
  const b = unit(seed, index, i + 1) * 2 - 1
  return a + (b - a) * f
}

/** Multi-octave noise, roughly in [-1.8, 1.8], scaled by `volatility`. */
export function noise(seed: number, t: number, volatility: number): number {
  let sum = 0
  for (let k = 0; k < OCTAVES.length; k++) {
    const o = OCTAVES[k] as { periodMs: number; amplitude: number }
    sum += o.amplitude * octave(seed, k, t, o.periodMs)
  }
  return sum * volatility
}

export function logistic(x: number): number {
  return 1 / (1 + Math.exp(-x))
}

export function logit(p: number): number {
  const q = Math.min(1 - 1e-9, Math.max(1e-9, p))
  return Math.log(q / (1 - q))
}

/** Standard normal CDF (Abramowitz–Stegun 7.1.26), accurate to ~1e-7: enough for threshold ladders. */
export function normalCdf(x: number): number {
  const sign = x < 0 ? -1 : 1
  const z = Math.abs(x) / Math.SQRT2
  const t = 1 / (1 + 0.3275911 * z)
  const y =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-z * z)
  return 0.5 * (1 + sign * y)
}
