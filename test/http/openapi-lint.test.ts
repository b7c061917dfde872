import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { startTestService } from '../helpers/service.js'

/**
 * The published OpenAPI document passes an independent linter: Redocly CLI's recommended ruleset, with the
 * departures decided in test/openapi-lint (redocly.yaml and its ignore file, each with its reason). A new
 * warning fails this test until it is fixed or decided there.
 */
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')
const LINT_CONFIG_DIR = join(REPO_ROOT, 'test/openapi-lint')
const REDOCLY = join(REPO_ROOT, 'node_modules/@redocly/cli/bin/cli.js')

interface LintReport {
  readonly totals: { readonly errors: number; readonly warnings: number; readonly ignored: number }
  readonly problems: readonly {
    readonly ruleId: string
    readonly severity: string
    readonly message: string
    readonly ignored?: boolean
    readonly location: readonly { readonly pointer: string }[]
  }[]
}

test('the served OpenAPI document is clean under redocly lint (recommended ruleset)', async () => {
  const s = await startTestService({ questions: 40 })
  const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'))
  try {
    const res = await fetch(`${s.baseUrl}/api/v2/openapi.json`)
    assert.equal(res.status, 200)
    // The ignore file names the document by its path relative to itself, so all three sit in one directory.
    writeFileSync(join(dir, 'openapi.json'), await res.text())
    copyFileSync(join(LINT_CONFIG_DIR, 'redocly.yaml'), join(dir, 'redocly.yaml'))
    copyFileSync(join(LINT_CONFIG_DIR, '.redocly.lint-ignore.yaml'), join(dir, '.redocly.lint-ignore.yaml'))
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [REDOCLY, 'lint', 'openapi.json', '--config', 'redocly.yaml', '--format', 'json'],
      {
        cwd: dir,
        // No telemetry and no update check: the suite talks to no network.
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', CI: 'true' },
        maxBuffer: 16 * 1024 * 1024,
      },
    ).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }))
    const report = JSON.parse(stdout) as LintReport
    const open = report.problems
      .filter((p) => p.ignored !== true)
      .map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`)
    assert.deepEqual(open, [])
    assert.deepEqual({ errors: report.totals.errors, warnings: report.totals.warnings }, { errors: 0, warnings: 0 })
    // Every accepted finding still exists: a stale entry in the ignore file would hide nothing and mislead.
    assert.equal(report.totals.ignored, 7)
  } finally {
    rmSync(dir, { recursive: true, force: true })
    await s.close()
  }
})

test('the document declares a relative server, so it describes whichever host serves it', async () => {
  const s = await startTestService({ questions: 20 })
  try {
    const doc = (await (await fetch(`${s.baseUrl}/api/v2/openapi.json`)).json()) as {
      servers: unknown
      tags: { name: string; description?: string }[]
    }
    assert.deepEqual(doc.servers, [{ url: '/', description: 'This deployment (the host that served this document).' }])
    assert.deepEqual(
      doc.tags.filter((t) => t.description === undefined),
      [],
    )
  } finally {
    await s.close()
  }
})
