import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Tests run from dist/test/...; fixtures stay in the source tree under test/fixtures. */
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')

export function readFixture(relativePath: string): string {
  return readFileSync(join(REPO_ROOT, 'test/fixtures', relativePath), 'utf8')
}

export function fixtureJson<T>(relativePath: string): T {
  return JSON.parse(readFixture(relativePath)) as T
}

/** The real venue catalogs (test/fixtures/real-venues): what `sim.catalog` replays in the tests. */
export const REAL_CATALOG_DIR = join(REPO_ROOT, 'test/fixtures/real-venues')

/** A real week of short-dated series of both venues (test/fixtures/real-venues/short-dated, its SOURCES.md). */
export const SHORT_DATED_DIR = join(REPO_ROOT, 'test/fixtures/real-venues/short-dated')
