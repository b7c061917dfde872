/**
 * Counts the service's log by level as it streams in. The service logs one pino JSON object per line on stdout
 * (src/core/logger.ts: `level` is pino's number, 30 info, 40 warn, 50 error, 60 fatal); the embedded store's
 * process writes to the same pipe. A line that is not a JSON object (a Node warning on stderr, a crash trace)
 * is counted as `unparsed` and kept, since nothing the service means to say comes out that way.
 */
export const LEVEL_NAMES: Readonly<Record<number, string>> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
}

const KEPT_LINES = 20

export class LogCounter {
  readonly byLevel = new Map<string, number>()
  /** Warn lines by their `msg`, with how many. */
  readonly warnByMsg = new Map<string, number>()
  /** The first lines at error level or above, verbatim. */
  readonly errorLines: string[] = []
  readonly unparsedLines: string[] = []
  #errors = 0
  #unparsed = 0
  #partial = ''

  /** Feeds a chunk of the output; a line split across chunks is held until its end arrives. */
  push(chunk: string): void {
    const lines = (this.#partial + chunk).split('\n')
    this.#partial = lines.pop() ?? ''
    for (const line of lines) this.#line(line)
  }

  /** Counts a last line that had no newline (the process ended). */
  end(): void {
    if (this.#partial !== '') this.#line(this.#partial)
    this.#partial = ''
  }

  get errors(): number {
    return this.#errors
  }

  get unparsed(): number {
    return this.#unparsed
  }

  #line(raw: string): void {
    const line = raw.trim()
    if (line === '') return
    let entry: { level?: unknown; msg?: unknown } | undefined
    try {
      const parsed: unknown = JSON.parse(line)
      if (typeof parsed === 'object' && parsed !== null) entry = parsed as { level?: unknown; msg?: unknown }
    } catch {
      entry = undefined
    }
    if (entry === undefined || typeof entry.level !== 'number') {
      this.#unparsed++
      this.#bump('unparsed')
      if (this.unparsedLines.length < KEPT_LINES) this.unparsedLines.push(line.slice(0, 500))
      return
    }
    const level = entry.level
    this.#bump(LEVEL_NAMES[level] ?? String(level))
    if (level >= 50) {
      this.#errors++
      if (this.errorLines.length < KEPT_LINES) this.errorLines.push(line.slice(0, 2_000))
    } else if (level >= 40) {
      const msg = typeof entry.msg === 'string' ? entry.msg : '(no msg)'
      this.warnByMsg.set(msg, (this.warnByMsg.get(msg) ?? 0) + 1)
    }
  }

  #bump(name: string): void {
    this.byLevel.set(name, (this.byLevel.get(name) ?? 0) + 1)
  }
}
