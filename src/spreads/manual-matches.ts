import { existsSync, readFileSync } from 'node:fs'
import { Type, type Static } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import type { ManualMatch } from './matcher.js'

/** Manual cross-venue matches from a JSON file (config/matches.json), validated at boot. */
const FileSchema = Type.Object({
  _comment: Type.Optional(Type.String()),
  matches: Type.Array(
    Type.Object(
      {
        venuep_event: Type.String({ minLength: 1 }),
        venuek_event: Type.String({ minLength: 1 }),
        outcomes: Type.Optional(Type.Array(Type.Object({ venuep_outcome: Type.String({ minLength: 1 }), venuek_outcome: Type.String({ minLength: 1 }) }, { additionalProperties: false }))),
      },
      { additionalProperties: false },
    ),
  ),
}, { additionalProperties: false })

export function loadManualMatches(path: string): ManualMatch[] {
  if (!existsSync(path)) return []
  const raw: unknown = JSON.parse(readFileSync(path, 'utf8'))
  const problems = [...Value.Errors(FileSchema, raw)].map((e) => `${e.path || '/'}: ${e.message}`)
  if (problems.length > 0) throw new Error(`invalid ${path}:\n  - ${problems.join('\n  - ')}`)
  return (raw as Static<typeof FileSchema>).matches.map((m) => ({
    venuepEventId: m.venuep_event,
    venuekEventId: m.venuek_event,
    ...(m.outcomes === undefined ? {} : { outcomes: m.outcomes.map((o) => ({ venuepOutcomeId: o.venuep_outcome, venuekOutcomeId: o.venuek_outcome })) }),
  }))
}
