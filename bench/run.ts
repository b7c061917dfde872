import { cpus } from 'node:os'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { authSection } from './sections/auth.js'
import { brokerSection } from './sections/broker.js'
import { dataSection } from './sections/data.js'
import { historySection } from './sections/history.js'
import { httpSection } from './sections/http.js'
import { proxiesSection } from './sections/proxies.js'
import { matchingSection } from './sections/matching.js'
import { scaleSection } from './sections/scale.js'
import { log, stamp, type Row, type Section, type SectionDef } from './sections/section.js'
import { spreadsSection } from './sections/spreads.js'
import { streamSection } from './sections/stream.js'

/**
 * `npm run bench`: runs every benchmark and writes bench/RESULTS.md. Benchmarks never gate CI; they report
 * what was measured, on which machine, with which command.
 *
 * `node dist/bench/run.js <section> [<section> …]` (data, http, auth, spreads, matching, history, proxies, scale, stream) runs those
 * sections and rewrites only them in RESULTS.md, leaving the others as they were (the full run takes many
 * minutes), and rewrites the closing "How each figure is measured" part. Sections build their rows in
 * bench/sections/*.ts.
 */
const HERE = dirname(fileURLToPath(import.meta.url))
const RESULTS = join(HERE, '../../bench/RESULTS.md')
const HOW = '## How each figure is measured'

/** In the order of RESULTS.md and of the full run (the HTTP section's service run also serves the proxies'). */
const SECTIONS: readonly SectionDef[] = [
  dataSection,
  httpSection,
  authSection,
  spreadsSection,
  matchingSection,
  historySection,
  proxiesSection,
  scaleSection,
  streamSection,
  brokerSection,
]

function renderSection(s: Section): string[] {
  return [
    `## ${s.title}`,
    '',
    ...(s.lead === undefined ? [] : [...s.lead, '']),
    table(s.rows),
    '',
    ...(s.method === undefined ? [] : [...s.method, '']),
  ]
}

/** The closing part: every section's method bullets. */
function howPart(): string[] {
  return [HOW, '', ...SECTIONS.flatMap((s) => s.method), '']
}

/**
 * Replaces the part headed `heading` (up to the next `## `) in `doc`; when there is none, inserts `rendered` before
 * the first of the `before` headings that `doc` has (else at the end).
 */
function splice(doc: string, heading: string, rendered: readonly string[], before: readonly string[] = []): string {
  const lines = doc.split('\n')
  const start = lines.indexOf(heading)
  if (start !== -1) {
    let end = lines.findIndex((l, i) => i > start && l.startsWith('## '))
    if (end === -1) end = lines.length
    return [...lines.slice(0, start), ...rendered, ...lines.slice(end)].join('\n')
  }
  let at = before.map((h) => lines.indexOf(h)).find((i) => i !== -1) ?? -1
  if (at === -1) at = lines.length
  return [...lines.slice(0, at), ...rendered, ...lines.slice(at)].join('\n')
}

async function run(def: SectionDef, selected: ReadonlySet<string>): Promise<Section> {
  return { title: def.title, ...(await def.run(selected)) }
}

function table(rows: readonly Row[]): string {
  const lines = ['| Measure | Result | Target | Met |', '|---|---|---|---|']
  for (const r of rows)
    lines.push(`| ${r.measure} | ${r.result} | ${r.target} | ${r.ok === undefined ? '' : r.ok ? 'yes' : '**no**'} |`)
  return lines.join('\n')
}

/** `--help`: the sections, in RESULTS.md's order, without running any. */
function usage(): string {
  return [
    'usage: node dist/bench/run.js [<section> …]   (none: every section, rewriting RESULTS.md)',
    'sections:',
    ...SECTIONS.map((s) => `  ${s.name.padEnd(9)} ${s.title}`),
  ].join('\n')
}

async function main(): Promise<void> {
  const only = process.argv.slice(2)
  if (only.includes('--help') || only.includes('-h')) {
    console.log(usage())
    return
  }
  const known = SECTIONS.map((s) => s.name)
  const unknown = only.filter((name) => !known.includes(name))
  if (unknown.length > 0) throw new Error(`unknown section(s) ${unknown.join(', ')}; known: ${known.join(', ')}`)
  if (only.length > 0) {
    const selected = new Set(only)
    let doc = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : `# Benchmark results\n\n${HOW}\n`
    for (const [i, def] of SECTIONS.entries()) {
      if (!selected.has(def.name)) continue
      // A section not in the file yet goes before the first later one that is (RESULTS.md keeps SECTIONS' order).
      const later = [...SECTIONS.slice(i + 1).map((s) => `## ${s.title}`), HOW]
      doc = splice(doc, `## ${def.title}`, renderSection(await run(def, selected)), later)
      // Written after each section, so a later failure does not lose the earlier ones.
      writeFileSync(RESULTS, splice(doc, HOW, howPart()))
    }
    log(`updated ${only.join(', ')} in ${RESULTS}`)
    return
  }
  const started = new Date()
  const selected = new Set(known)
  const sections: Section[] = []
  for (const def of SECTIONS) sections.push(await run(def, selected))
  const body = [
    '# Benchmark results',
    '',
    `Written by \`npm run bench\` on ${stamp(started)} — ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} vCPU, Node ${process.version}, ${process.platform}.`,
    '',
    'Rates are per core (one process, one actor). This machine is a shared VM whose speed varies by about ±25% between',
    'processes, so the frame-to-quote figures are the median of several fresh processes with their range. HTTP figures',
    '(later sections) are ratios against a bare uWS server measured in the same run.',
    '',
    ...sections.flatMap(renderSection),
    ...howPart(),
  ].join('\n')
  writeFileSync(RESULTS, body)
  log(`wrote ${RESULTS}`)
}

main().then(
  // uWS servers closed by the benches can leave handles that keep the loop alive.
  () => process.exit(0),
  (err: unknown) => {
    console.error(err)
    process.exit(1)
  },
)
