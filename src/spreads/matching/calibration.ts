import { existsSync, readFileSync } from 'node:fs'
import { Type, type Static } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import type { MatchQuality } from './match-types.js'

/**
 * What a match quality is worth: the share of pairs of that quality that were really the same contract, measured by
 * `npm run eval:matching` on labelled pairs (the simulator's ground truth and the hand-labelled real pairs) and
 * written to config/match-calibration.json. The spread's confidence uses the 95% lower bound (Wilson) of that
 * share as its match factor, so a quality backed by few labelled pairs counts for less than one backed by many.
 * Manual overrides are a reviewer's word: 1.
 */
export type MatchWeights = Readonly<Record<MatchQuality, number>>

/** Before any measurement (no calibration file): the weights the service used before it had one. */
export const UNCALIBRATED: MatchWeights = Object.freeze({ manual: 1, auto_high: 0.9, auto_medium: 0.7 })

const GradeSchema = Type.Object(
  {
    pairs: Type.Integer({ minimum: 0, description: 'Published pairs of this quality among the labelled ones.' }),
    correct: Type.Integer({ minimum: 0, description: 'Of those, the pairs labelled the same contract.' }),
    precision: Type.Number({ minimum: 0, maximum: 1 }),
    lower95: Type.Number({ minimum: 0, maximum: 1, description: 'Wilson 95% lower bound of the precision.' }),
  },
  { additionalProperties: false },
)

export const CalibrationSchema = Type.Object(
  {
    _comment: Type.Optional(Type.String()),
    measured_at: Type.String(),
    command: Type.String(),
    qualities: Type.Object({ auto_high: GradeSchema, auto_medium: GradeSchema }, { additionalProperties: false }),
  },
  { additionalProperties: false },
)
export type Calibration = Static<typeof CalibrationSchema>

/** The weights of a calibration file; UNCALIBRATED when there is none. Throws on an invalid file. */
export function loadMatchWeights(path: string): MatchWeights {
  if (!existsSync(path)) return UNCALIBRATED
  const raw: unknown = JSON.parse(readFileSync(path, 'utf8'))
  const problems = [...Value.Errors(CalibrationSchema, raw)].map((e) => `${e.path || '/'}: ${e.message}`)
  if (problems.length > 0) throw new Error(`invalid ${path}:\n  - ${problems.join('\n  - ')}`)
  return weightsOf(raw as Calibration)
}

export function weightsOf(c: Calibration): MatchWeights {
  return Object.freeze({
    manual: 1,
    auto_high: c.qualities.auto_high.lower95,
    auto_medium: c.qualities.auto_medium.lower95,
  })
}

/** Wilson score interval's lower bound at 95% for `correct` of `n` (0 when n is 0). */
export function wilsonLower(correct: number, n: number): number {
  if (n === 0) return 0
  const z = 1.959964
  const p = correct / n
  const denom = 1 + (z * z) / n
  const centre = p + (z * z) / (2 * n)
  const margin = z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))
  return Math.max(0, (centre - margin) / denom)
}
