import { createLogger, type Logger } from '../../src/core/logger.js'
import { lineProblems } from './checked-logger.js'

/**
 * The service's logger (as main.ts makes it, at info level) writing into memory: every line parsed, in order, so a
 * test can assert what an operator reads, and every line checked to be one a log shipper reads unambiguously.
 */
export interface RecordedLog {
  readonly log: Logger
  /** Every line so far, parsed, in order. */
  readonly entries: () => readonly Readonly<Record<string, unknown>>[]
  /** `<problem>: <line>` for every line that is not one JSON object with distinct keys. */
  readonly problems: () => readonly string[]
}

export function recordedLog(): RecordedLog {
  const entries: Record<string, unknown>[] = []
  const problems: string[] = []
  const log = createLogger('info', 'predmkt', {
    write(line: string) {
      const found = lineProblems(line)
      for (const problem of found) problems.push(`${problem}: ${line.slice(0, 400)}`)
      if (found.length === 0) entries.push(JSON.parse(line) as Record<string, unknown>)
    },
  })
  return { log, entries: () => entries, problems: () => problems }
}
