import type { Logger } from '../../src/core/logger.js'
import { createLogger } from '../../src/core/logger.js'

/**
 * The service's own logger (createLogger, as main.ts makes it) at debug level, writing to a sink that parses
 * every line and records the ones a machine cannot read unambiguously: not JSON, or an object with a key twice
 * (a field shadowing a binding or one of pino's base fields). Test services log through it and fail on close if
 * any line was bad. Lines at warn level or above are also kept, parsed, so a test can assert what the service
 * complained about.
 */
export interface CheckedLogger {
  readonly log: Logger
  /** Lines written so far. */
  readonly lines: () => number
  /** `<problem>: <line>` for every bad line so far. */
  readonly problems: () => readonly string[]
  /** Every readable line at warn level (40) or above so far, parsed, in order. */
  readonly warnings: () => readonly Readonly<Record<string, unknown>>[]
  /** Every line written so far, as written (only with `keepAll`: a test that searches the whole log). */
  readonly all: () => readonly string[]
}

export interface CheckedLoggerOptions {
  /** pino level (default `debug`, as the test services log); `trace` for a test that wants every line. */
  readonly level?: string
  /** Keep every line (`all()`), for a test that searches the log for what must never be in it. */
  readonly keepAll?: boolean
}

const WARN_LEVEL = 40

export function checkedLogger(options: CheckedLoggerOptions = {}): CheckedLogger {
  let lines = 0
  const problems: string[] = []
  const warnings: Record<string, unknown>[] = []
  const all: string[] = []
  const log = createLogger(options.level ?? 'debug', 'predmkt', {
    write(line: string) {
      lines++
      if (options.keepAll === true) all.push(line)
      const found = lineProblems(line)
      for (const problem of found) problems.push(`${problem}: ${line.slice(0, 400)}`)
      if (found.length > 0) return
      const entry = JSON.parse(line) as Record<string, unknown>
      if (typeof entry.level === 'number' && entry.level >= WARN_LEVEL) warnings.push(entry)
    },
  })
  return { log, lines: () => lines, problems: () => problems, warnings: () => warnings, all: () => all }
}

export function lineProblems(line: string): string[] {
  try {
    JSON.parse(line)
  } catch {
    return ['not JSON']
  }
  return duplicateKeys(line).map((k) => `duplicate key "${k}"`)
}

/**
 * Keys that occur twice in one object anywhere in a valid JSON text (JSON.parse keeps the last silently). A
 * small scanner: strings are skipped whole, and a string followed by `:` is a key of the innermost object.
 */
export function duplicateKeys(text: string): string[] {
  const dupes: string[] = []
  const stack: (Set<string> | null)[] = []
  let i = 0
  while (i < text.length) {
    const c = text[i]
    if (c === '{') stack.push(new Set())
    else if (c === '[') stack.push(null)
    else if (c === '}' || c === ']') stack.pop()
    else if (c === '"') {
      let j = i + 1
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1
      const raw = text.slice(i, j + 1)
      let k = j + 1
      while (text[k] === ' ' || text[k] === '\n' || text[k] === '\t' || text[k] === '\r') k++
      const keys = stack[stack.length - 1]
      if (text[k] === ':' && keys !== undefined && keys !== null) {
        const key = JSON.parse(raw) as string
        if (keys.has(key)) dupes.push(key)
        keys.add(key)
      }
      i = j + 1
      continue
    }
    i++
  }
  return dupes
}
