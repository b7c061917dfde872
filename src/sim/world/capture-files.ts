import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { TSchema } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { VkCatalogFileSchema, VpCatalogFileSchema, type VkCapturedEvent, type VpCapturedEvent } from './capture.js'

/**
 * Reads a directory of captured catalogs (`venuep.json` and `venuek.json` in test/fixtures/real-venues/FORMAT.md)
 * and checks them against the format before a replay builds on them: a malformed capture fails the boot with
 * the file, the path and the problem, instead of serving half a catalog.
 */
export interface CapturedCatalogs {
  /** Absolute directory the files were read from. */
  readonly dir: string
  readonly venuep: readonly VpCapturedEvent[]
  readonly venuek: readonly VkCapturedEvent[]
}

export class CaptureFormatError extends Error {
  override readonly name = 'CaptureFormatError'
}

const MAX_REPORTED = 10

/** `dir` relative to the process's working directory, like every other path in the configuration. */
export function readCapturedCatalogs(dir: string): CapturedCatalogs {
  const abs = resolve(dir)
  const venuep = readChecked(join(abs, 'venuep.json'), VpCatalogFileSchema).events
  const venuek = readChecked(join(abs, 'venuek.json'), VkCatalogFileSchema).events
  checkUnique(join(abs, 'venuep.json'), 'event id', venuep.map((e) => e.id))
  checkUnique(join(abs, 'venuep.json'), 'event slug', venuep.map((e) => e.slug))
  checkUnique(join(abs, 'venuep.json'), 'market id', venuep.flatMap((e) => e.markets.map((m) => m.id)))
  checkUnique(join(abs, 'venuep.json'), 'condition id', venuep.flatMap((e) => e.markets.map((m) => m.conditionId)))
  checkUnique(join(abs, 'venuep.json'), 'token id', venuep.flatMap((e) => e.markets.flatMap((m) => m.clobTokenIds)))
  checkUnique(join(abs, 'venuek.json'), 'event ticker', venuek.map((e) => e.event_ticker))
  checkUnique(join(abs, 'venuek.json'), 'market ticker', venuek.flatMap((e) => e.markets.map((m) => m.ticker)))
  for (const e of venuek) {
    for (const m of e.markets) {
      if (m.event_ticker !== e.event_ticker) throw new CaptureFormatError(`${join(abs, 'venuek.json')}: market ${m.ticker} names event ${m.event_ticker} but sits in ${e.event_ticker}`)
    }
  }
  return { dir: abs, venuep, venuek }
}

function readChecked<S extends TSchema>(file: string, schema: S): import('@sinclair/typebox').Static<S> {
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

function checkUnique(file: string, what: string, values: readonly string[]): void {
  const seen = new Set<string>()
  for (const v of values) {
    if (seen.has(v)) throw new CaptureFormatError(`${file}: ${what} ${v} appears twice`)
    seen.add(v)
  }
}
