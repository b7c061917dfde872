import { createHash } from 'node:crypto'
import { existsSync, readFileSync, unwatchFile, watchFile } from 'node:fs'
import { Type, type Static } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import type { Logger } from '../../core/logger.js'
import { aliasLookup, nameKey, type AliasLookup } from './names.js'

/**
 * Reviewed names (config/aliases.json, `spreads.aliasesPath`): groups of names that are one team, player, city or
 * person across venues where the general rules of names.ts cannot tell ("SGE" / "Eintracht Frankfurt", a nickname
 * against a city). Two names in one group are the same; two names in different groups are not, whatever the rules
 * say (a reviewer's "not the same" is a group of its own). Operators extend the file; the running service reads it
 * again when it changes (`AliasFile.watch`) and matches everything again with it. An invalid edit is logged and
 * ignored: the last valid version stays in force (an invalid file at boot fails the boot, as config/matches.json).
 */
const FileSchema = Type.Object(
  {
    _comment: Type.Optional(Type.String()),
    groups: Type.Array(
      Type.Object(
        {
          names: Type.Array(Type.String({ minLength: 1 }), { minItems: 2 }),
          reason: Type.Optional(Type.String()),
          reviewer: Type.Optional(Type.String()),
          date: Type.Optional(Type.String()),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
)

export interface Aliases {
  readonly lookup: AliasLookup
  /** A digest of the groups: a new version matches everything again (matcher.ts). */
  readonly version: string
  readonly groups: readonly (readonly string[])[]
}

export const NO_ALIAS_FILE: Aliases = { lookup: aliasLookup([]), version: '', groups: [] }

/** The groups in `path` (none when the file does not exist). Throws on an invalid file, naming each problem. */
export function loadAliases(path: string): Aliases {
  if (!existsSync(path)) return NO_ALIAS_FILE
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'))
  } catch (err) {
    throw new Error(`invalid ${path}: ${(err as Error).message}`)
  }
  const problems = [...Value.Errors(FileSchema, raw)].map((e) => `${e.path || '/'}: ${e.message}`)
  if (problems.length > 0) throw new Error(`invalid ${path}:\n  - ${problems.join('\n  - ')}`)
  const groups = (raw as Static<typeof FileSchema>).groups.map((g) => g.names)
  // A name in two groups would make both groups one; that is a reviewer's decision to write, not to infer.
  const seen = new Map<string, number>()
  groups.forEach((names, i) => {
    for (const n of names) {
      const key = nameKey(n).words
      if (key === '') problems.push(`/groups/${i}: "${n}" has no letters or digits`)
      const other = seen.get(key)
      if (other !== undefined && other !== i) problems.push(`/groups/${i}: "${n}" is already in group ${other}`)
      seen.set(key, i)
    }
  })
  if (problems.length > 0) throw new Error(`invalid ${path}:\n  - ${problems.join('\n  - ')}`)
  const version = createHash('sha256').update(JSON.stringify(groups)).digest('hex').slice(0, 16)
  return { lookup: aliasLookup(groups), version, groups }
}

/** The alias groups, kept current (polls the file's mtime, as MatchOverrides does). */
export class AliasFile {
  #current: Aliases
  readonly #path: string
  readonly #log: Logger
  #listener: (() => void) | undefined

  constructor(path: string, log: Logger) {
    this.#path = path
    this.#log = log
    this.#current = loadAliases(path)
  }

  current(): Aliases {
    return this.#current
  }

  watch(onChange: () => void, intervalMs = 2_000): void {
    this.unwatch()
    this.#listener = () => {
      try {
        this.#current = loadAliases(this.#path)
        this.#log.info({ path: this.#path, groups: this.#current.groups.length }, 'name aliases reloaded')
        onChange()
      } catch (err) {
        this.#log.error(
          { err, path: this.#path },
          'name aliases not reloaded: the file is invalid; the previous version stays in force',
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
