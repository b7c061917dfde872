/**
 * A node:test reporter that prints, after the run, every skipped test grouped by the reason it was skipped, so what
 * `npm test` did not check (the Postgres suites without TEST_DATABASE_URL, the live venue tests without
 * RUN_LIVE_TESTS) is said once, plainly, below the summary instead of scattered through hundreds of lines.
 * `npm test` runs it beside the spec reporter; it prints nothing when nothing was skipped.
 */
interface TestEvent {
  readonly type: string
  readonly data: { readonly name?: string; readonly skip?: string | boolean }
}

export default async function* skippedReporter(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  const byReason = new Map<string, string[]>()
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue
    // No file names: node:test gives the file that called test(), a helper's for the suites describeOrSkip skips.
    const { skip, name } = event.data
    if (skip === undefined || skip === false) continue
    const reason = skip === true ? 'no reason given' : skip
    const names = byReason.get(reason) ?? []
    names.push(name ?? '?')
    byReason.set(reason, names)
  }
  if (byReason.size === 0) return
  const count = [...byReason.values()].reduce((n, names) => n + names.length, 0)
  const lines = [
    ``,
    `Skipped: ${count} test${count === 1 ? '' : 's'} not run, so what they check was not checked by this run.`,
  ]
  for (const [reason, names] of byReason) {
    lines.push(`  ${reason}:`)
    for (const name of names) lines.push(`    - ${name}`)
  }
  yield `${lines.join('\n')}\n`
}
