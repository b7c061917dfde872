import { existsSync, readFileSync, unwatchFile, watchFile } from 'node:fs'
import { Type, type Static, type TOptional, type TString } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import type { Logger } from '../../core/logger.js'
import type { VenueId } from '../../model/types.js'
import type { DenyRule, DenySide, ManualMatch } from './match-types.js'
import type { MatchInput } from './matcher.js'

/**
 * What reviewers decide about matches, in a JSON file (config/matches.json, `spreads.manualMatchesPath`):
 * - `matches`: pairs of events (and optionally of their outcomes) that are the same; they win over automatic ones;
 * - `deny`: automatic pairs that are not the same, between two events or two of their outcomes.
 * Each entry names the events of two venues by the venues' ids: `<venue>_event`, and `<venue>_outcome` for outcomes
 * (any two of the venues the service runs; registry order makes the first of them side A, as in matcher.ts).
 * The file is read at boot (an invalid file fails the boot) and again whenever it changes while running
 * (`MatchOverrides.watch`): a reviewer removes a wrong match without a restart. An invalid edit while running is
 * logged and ignored; the last valid version stays in force.
 */
const Reviewed = {
  reason: Type.Optional(Type.String({ description: 'Why: the deciding fields.' })),
  reviewer: Type.Optional(Type.String()),
  date: Type.Optional(Type.String()),
}

/** `<venue>_<suffix>` for each venue, each optional (which two an entry names is checked after the schema). */
function perVenue(venues: readonly VenueId[], suffix: 'event' | 'outcome'): Record<string, TOptional<TString>> {
  return Object.fromEntries(venues.map((v) => [`${v}_${suffix}`, Type.Optional(Type.String({ minLength: 1 }))]))
}

function fileSchema(venues: readonly VenueId[]) {
  return Type.Object(
    {
      _comment: Type.Optional(Type.String()),
      matches: Type.Array(
        Type.Object(
          {
            ...perVenue(venues, 'event'),
            outcomes: Type.Optional(
              Type.Array(Type.Object(perVenue(venues, 'outcome'), { additionalProperties: false })),
            ),
            ...Reviewed,
          },
          { additionalProperties: false },
        ),
      ),
      deny: Type.Optional(
        Type.Array(
          Type.Object(
            { ...perVenue(venues, 'event'), ...perVenue(venues, 'outcome'), ...Reviewed },
            { additionalProperties: false },
          ),
        ),
      ),
    },
    { additionalProperties: false },
  )
}

type Fields = Readonly<Record<string, unknown>>

/**
 * The two venues an entry names events of, in registry order; undefined (with a problem noted) unless exactly two.
 * Outcomes, where given, must be of the same two venues.
 */
function venuePair(
  entry: Fields,
  outcomes: readonly Fields[],
  venues: readonly VenueId[],
  at: string,
  problems: string[],
): [VenueId, VenueId] | undefined {
  const named = venues.filter((v) => entry[`${v}_event`] !== undefined)
  if (named.length !== 2) {
    problems.push(
      `${at}: names the events of ${named.length} venues (${named.join(', ') || 'none'}); an entry pairs two, e.g. ${venues
        .slice(0, 2)
        .map((v) => `${v}_event`)
        .join(' and ')}`,
    )
    return undefined
  }
  for (const o of outcomes) {
    const stray = venues.filter((v) => o[`${v}_outcome`] !== undefined && !named.includes(v))
    if (stray.length > 0) problems.push(`${at}: an outcome of ${stray.join(', ')}, whose event the entry does not name`)
  }
  return [named[0] as VenueId, named[1] as VenueId]
}

/**
 * The overrides in `path` for the venues `venues` (registry order); none when the file does not exist. Throws on an
 * invalid file, naming each problem.
 */
export function loadMatchOverrides(path: string, venues: readonly VenueId[]): MatchInput {
  if (!existsSync(path)) return { manual: [], deny: [] }
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'))
  } catch (err) {
    throw new Error(`invalid ${path}: ${(err as Error).message}`)
  }
  const schema = fileSchema(venues)
  const problems = [...Value.Errors(schema, raw)].map((e) => `${e.path || '/'}: ${e.message}`)
  if (problems.length > 0) throw new Error(`invalid ${path}:\n  - ${problems.join('\n  - ')}`)
  const file = raw as Static<typeof schema>
  const manual: ManualMatch[] = []
  file.matches.forEach((m: Fields & { outcomes?: readonly Fields[] }, i) => {
    const pair = venuePair(m, m.outcomes ?? [], venues, `/matches/${i}`, problems)
    if (pair === undefined) return
    const [a, b] = pair
    const outcomes = m.outcomes?.map((o) => ({ a: o[`${a}_outcome`], b: o[`${b}_outcome`] }))
    if (outcomes?.some((o) => o.a === undefined || o.b === undefined) === true)
      problems.push(`/matches/${i}/outcomes: each names an outcome of ${a} and one of ${b}`)
    manual.push({
      a: side(m, a),
      b: side(m, b),
      ...(outcomes === undefined ? {} : { outcomes: outcomes as { a: string; b: string }[] }),
    })
  })
  const deny: DenyRule[] = []
  ;(file.deny ?? []).forEach((d: Fields, i) => {
    const pair = venuePair(d, [d], venues, `/deny/${i}`, problems)
    if (pair === undefined) return
    deny.push({ a: side(d, pair[0], true), b: side(d, pair[1], true) })
  })
  if (problems.length > 0) throw new Error(`invalid ${path}:\n  - ${problems.join('\n  - ')}`)
  return { manual, deny }
}

function side(entry: Fields, venue: VenueId, withOutcome = false): DenySide {
  const outcomeId = entry[`${venue}_outcome`] as string | undefined
  return {
    venue,
    eventId: entry[`${venue}_event`] as string,
    ...(withOutcome && outcomeId !== undefined ? { outcomeId } : {}),
  }
}

/**
 * The overrides, kept current: `current()` is the last valid version of the file; `onChange` runs after the file
 * changed and was read. Polls the file's mtime (fs.watchFile: it works where inotify does not, e.g. bind mounts).
 */
export class MatchOverrides {
  #current: MatchInput
  readonly #path: string
  readonly #venues: readonly VenueId[]
  readonly #log: Logger
  #listener: (() => void) | undefined

  /** `venues`: the venues entries may name, in registry order. */
  constructor(path: string, venues: readonly VenueId[], log: Logger) {
    this.#path = path
    this.#venues = venues
    this.#log = log
    this.#current = loadMatchOverrides(path, venues)
  }

  current(): MatchInput {
    return this.#current
  }

  watch(onChange: () => void, intervalMs = 2_000): void {
    this.unwatch()
    this.#listener = () => {
      try {
        this.#current = loadMatchOverrides(this.#path, this.#venues)
        this.#log.info(
          { path: this.#path, manual: this.#current.manual?.length ?? 0, deny: this.#current.deny?.length ?? 0 },
          'match overrides reloaded',
        )
        onChange()
      } catch (err) {
        this.#log.error(
          { err, path: this.#path },
          'match overrides not reloaded: the file is invalid; the previous version stays in force',
        )
      }
    }
    watchFile(this.#path, { interval: intervalMs, persistent: false }, this.#listener)
  }

  unwatch(): void {
    if (this.#listener !== undefined) unwatchFile(this.#path, this.#listener)
    this.#listener = undefined
  }
}
