import { existsSync, readFileSync, unwatchFile, watchFile } from 'node:fs'
import { Type, type Static } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import type { Logger } from '../../core/logger.js'
import type { DenyRule, ManualMatch, MatchInput } from './matcher.js'

/**
 * What reviewers decide about matches, in a JSON file (config/matches.json, `spreads.manualMatchesPath`):
 * - `matches`: pairs of events (and optionally of their outcomes) that are the same; they win over automatic ones;
 * - `deny`: automatic pairs that are not the same, between two events or two of their outcomes.
 * The file is read at boot (an invalid file fails the boot) and again whenever it changes while running
 * (`watchMatchOverrides`): a reviewer removes a wrong match without a restart. An invalid edit while running is
 * logged and ignored; the last valid version stays in force.
 */
const Reviewed = {
  reason: Type.Optional(Type.String({ description: 'Why: the deciding fields.' })),
  reviewer: Type.Optional(Type.String()),
  date: Type.Optional(Type.String()),
}

const FileSchema = Type.Object(
  {
    _comment: Type.Optional(Type.String()),
    matches: Type.Array(
      Type.Object(
        {
          venuep_event: Type.String({ minLength: 1 }),
          venuek_event: Type.String({ minLength: 1 }),
          outcomes: Type.Optional(Type.Array(Type.Object({ venuep_outcome: Type.String({ minLength: 1 }), venuek_outcome: Type.String({ minLength: 1 }) }, { additionalProperties: false }))),
          ...Reviewed,
        },
        { additionalProperties: false },
      ),
    ),
    deny: Type.Optional(
      Type.Array(
        Type.Object(
          {
            venuep_event: Type.String({ minLength: 1 }),
            venuek_event: Type.String({ minLength: 1 }),
            venuep_outcome: Type.Optional(Type.String({ minLength: 1 })),
            venuek_outcome: Type.Optional(Type.String({ minLength: 1 })),
            ...Reviewed,
          },
          { additionalProperties: false },
        ),
      ),
    ),
  },
  { additionalProperties: false },
)

/** The overrides in `path`; none when the file does not exist. Throws on an invalid file, naming each problem. */
export function loadMatchOverrides(path: string): MatchInput {
  if (!existsSync(path)) return { manual: [], deny: [] }
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'))
  } catch (err) {
    throw new Error(`invalid ${path}: ${(err as Error).message}`)
  }
  const problems = [...Value.Errors(FileSchema, raw)].map((e) => `${e.path || '/'}: ${e.message}`)
  if (problems.length > 0) throw new Error(`invalid ${path}:\n  - ${problems.join('\n  - ')}`)
  const file = raw as Static<typeof FileSchema>
  const manual: ManualMatch[] = file.matches.map((m) => ({
    venuepEventId: m.venuep_event,
    venuekEventId: m.venuek_event,
    ...(m.outcomes === undefined ? {} : { outcomes: m.outcomes.map((o) => ({ venuepOutcomeId: o.venuep_outcome, venuekOutcomeId: o.venuek_outcome })) }),
  }))
  const deny: DenyRule[] = (file.deny ?? []).map((d) => ({
    venuepEventId: d.venuep_event,
    venuekEventId: d.venuek_event,
    ...(d.venuep_outcome === undefined ? {} : { venuepOutcomeId: d.venuep_outcome }),
    ...(d.venuek_outcome === undefined ? {} : { venuekOutcomeId: d.venuek_outcome }),
  }))
  return { manual, deny }
}

/**
 * The overrides, kept current: `current()` is the last valid version of the file; `onChange` runs after the file
 * changed and was read. Polls the file's mtime (fs.watchFile: it works where inotify does not, e.g. bind mounts).
 */
export class MatchOverrides {
  #current: MatchInput
  readonly #path: string
  readonly #log: Logger
  #listener: (() => void) | undefined

  constructor(path: string, log: Logger) {
    this.#path = path
    this.#log = log
    this.#current = loadMatchOverrides(path)
  }

  current(): MatchInput {
    return this.#current
  }

  watch(onChange: () => void, intervalMs = 2_000): void {
    this.unwatch()
    this.#listener = () => {
      try {
        this.#current = loadMatchOverrides(this.#path)
        this.#log.info({ path: this.#path, manual: this.#current.manual?.length ?? 0, deny: this.#current.deny?.length ?? 0 }, 'match overrides reloaded')
        onChange()
      } catch (err) {
        this.#log.error({ err, path: this.#path }, 'match overrides not reloaded: the file is invalid; the previous version stays in force')
      }
    }
    watchFile(this.#path, { interval: intervalMs, persistent: false }, this.#listener)
  }

  unwatch(): void {
    if (this.#listener !== undefined) unwatchFile(this.#path, this.#listener)
    this.#listener = undefined
  }
}
