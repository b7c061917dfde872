import { cpus } from 'node:os'

/** One section of RESULTS.md: a heading, optional lines, a table of measures and optional lines after it. */
export interface Row {
  readonly measure: string
  readonly result: string
  readonly target: string
  readonly ok: boolean | undefined
}

/** The target and verdict of a row that reports a figure without judging it. */
export const OBSERVATION = { target: '— (observation)', ok: undefined } as const

export interface Section {
  readonly title: string
  /** Lines between the heading and the table (e.g. when and on what a section was measured). */
  readonly lead?: readonly string[]
  readonly rows: readonly Row[]
  /** Lines after the table (how the figures are measured, for sections that say so themselves). */
  readonly method?: readonly string[]
}

export interface SectionDef {
  /** What `node dist/bench/run.js <name>` runs. */
  readonly name: string
  /** Its heading in RESULTS.md. */
  readonly title: string
  /**
   * Bullets for the closing "How each figure is measured" part of RESULTS.md (static text: which file, what is
   * measured); empty for sections that explain themselves below their table.
   */
  readonly method: readonly string[]
  /** `selected`: every section this invocation runs (sections may share a service run). */
  run(selected: ReadonlySet<string>): Promise<Omit<Section, 'title'>>
}

export function stamp(d: Date): string {
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`
}

function machine(): string {
  return `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} vCPU, Node ${process.version}, ${process.platform}`
}

/** The first line of a section measured on its own: when and on what. */
export function measuredLead(): string {
  return `Measured ${stamp(new Date())} — ${machine()}.`
}

export function log(what: string): void {
  process.stderr.write(`bench: ${what}\n`)
}

/** A duration given in ns: 850 ns, 1.23 µs, 12.3 µs, 1.23 ms. */
export function ns(x: number): string {
  if (x >= 1e6) return `${(x / 1e6).toFixed(2)} ms`
  if (x >= 1e3) return `${(x / 1e3).toFixed(x >= 1e4 ? 1 : 2)} µs`
  return `${Math.round(x)} ns`
}
