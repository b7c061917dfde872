import { describe, test } from 'node:test'

/**
 * `describe(title, body)`, or, when `skip` gives a reason, one skipped test with that title and reason.
 *
 * Why not `describe(title, { skip }, body)`: node:test never registers a skipped suite's tests, so its summary
 * counts nothing under "skipped" and the suite silently drops out of what `npm test` reports. A skipped test is
 * counted, printed with its reason, and listed again at the end of the run (skipped-reporter.ts).
 */
export function describeOrSkip(title: string, skip: string | undefined, body: () => void): void {
  if (skip === undefined) describe(title, body)
  else test(title, { skip }, () => undefined)
}
