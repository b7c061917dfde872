import { readFileSync } from 'node:fs'
import type { Static, TSchema } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'

/**
 * Checks for captured catalog files (test/fixtures/real-venues/FORMAT.md), shared by the peers that read one: a
 * malformed capture fails the boot with the file, the path and the problem, instead of serving half a catalog.
 */
export class CaptureFormatError extends Error {
  override readonly name = 'CaptureFormatError'
}

const MAX_REPORTED = 10

export function readChecked<S extends TSchema>(file: string, schema: S): Static<S> {
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'))
  } catch (err) {
    throw new CaptureFormatError(`${file}: ${err instanceof Error ? err.message : String(err)}`)
  }
  const check = TypeCompiler.Compile(schema)
  if (!check.Check(raw)) {
    const problems = [...check.Errors(raw)].slice(0, MAX_REPORTED).map((e) => `  ${e.path || '/'}: ${e.message}`)
    throw new CaptureFormatError(`${file} does not follow the captured-catalog format:\n${problems.join('\n')}`)
  }
  return raw
}

export function checkUnique(file: string, what: string, values: readonly string[]): void {
  const seen = new Set<string>()
  for (const v of values) {
    if (seen.has(v)) throw new CaptureFormatError(`${file}: ${what} ${v} appears twice`)
    seen.add(v)
  }
}
