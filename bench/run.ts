import { execFileSync } from 'node:child_process'
import { cpus } from 'node:os'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { benchBookApply } from './book.bench.js'
import { benchMemory, benchStartup } from './footprint.bench.js'
import { fmtRate, type Measured } from './harness.js'
import { benchHttp } from './http.bench.js'
import { httpLead, httpMethod, httpRows } from './http-report.js'

/**
 * `npm run bench`: runs every benchmark and writes bench/RESULTS.md. Benchmarks never gate CI; they report
 * what was measured, on which machine, with which command.
 *
 * `node dist/bench/run.js http` (or `data`) runs one section and rewrites only that section of RESULTS.md,
 * leaving the others as they were (the full run takes many minutes).
 */
const HERE = dirname(fileURLToPath(import.meta.url))
const RESULTS = join(HERE, '../../bench/RESULTS.md')
const INGEST_RUNS = 5
const MEMORY_QUESTIONS = 21_500

interface Row {
  readonly measure: string
  readonly result: string
  readonly target: string
  readonly ok: boolean | undefined
}

interface Section {
  readonly title: string
  /** Lines between the heading and the table (e.g. when and on what a section was measured). */
  readonly lead?: readonly string[]
  readonly rows: readonly Row[]
  /** Lines after the table (how the figures are measured, for sections that say so themselves). */
  readonly method?: readonly string[]
}

const SECTIONS: Readonly<Record<string, () => Promise<Section>>> = {
  data: async () => ({ title: 'Data plane (issue 2)', rows: await dataPlane() }),
  http: httpSection,
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)] as number
}

async function dataPlane(): Promise<Row[]> {
  const rows: Row[] = []
  log('book apply')
  for (const m of await benchBookApply()) rows.push({ measure: `Book apply: ${m.name}`, result: `${fmtRate(m.perSecond)} (±${m.rmePercent.toFixed(1)}%)`, target: '≥ 1 M level updates/s, one core', ok: m.perSecond >= 1e6 })

  log(`frame to quote (${INGEST_RUNS} fresh processes)`)
  const runs: Measured[][] = []
  for (let i = 0; i < INGEST_RUNS; i++) runs.push(JSON.parse(execFileSync(process.execPath, [join(HERE, 'ingest-child.js')], { encoding: 'utf8' })) as Measured[])
  for (let t = 0; t < (runs[0]?.length ?? 0); t++) {
    const rates = runs.map((r) => (r[t] as Measured).perSecond)
    const med = median(rates)
    rows.push({
      measure: `Frame to quote: ${(runs[0]?.[t] as Measured).name}`,
      result: `${fmtRate(med)} median of ${INGEST_RUNS} runs (range ${fmtRate(Math.min(...rates))} – ${fmtRate(Math.max(...rates))})`,
      target: '≥ 200 k frames/s per venue actor',
      ok: med >= 200_000,
    })
  }

  log('memory at ≥ 20,000 books per venue (separate simulator process)')
  const mem = await benchMemory(MEMORY_QUESTIONS)
  rows.push({
    measure: `Memory: service RSS with ${mem.instruments.venuep.toLocaleString('en-US')} venuep + ${mem.instruments.venuek.toLocaleString('en-US')} venuek streamed books, ${mem.levelsPerSide} levels a side, after 10 s of live updates`,
    result: `${mem.rssMiB.toFixed(0)} MiB (peak ${mem.peakRssMiB.toFixed(0)} MiB); ready in ${(mem.readyMs / 1000).toFixed(1)} s`,
    target: '≤ 600 MB with 20,000 outcomes per venue',
    ok: mem.rssMiB * 1.048576 <= 600 && mem.instruments.venuep >= 20_000 && mem.instruments.venuek >= 20_000,
  })

  log('startup')
  const start = await benchStartup()
  const venues = start.body.venues as Record<string, { books: { instruments: number } }>
  rows.push({
    measure: `Startup: \`npm start\` default world (in-process simulator, ${venues.venuep?.books.instruments ?? '?'} + ${venues.venuek?.books.instruments ?? '?'} books), process start → /readyz 200`,
    result: `${(start.readyMs / 1000).toFixed(1)} s`,
    target: '≤ 10 s',
    ok: start.readyMs <= 10_000,
  })
  return rows
}

async function httpSection(): Promise<Section> {
  log('HTTP: service vs bare uWS, same bytes (separate simulator, service, bare and wrk processes)')
  const report = await benchHttp()
  return {
    title: 'HTTP (issue 3)',
    lead: [`Measured ${stamp(new Date())} — ${machine()}.`, '', ...httpLead(report)],
    rows: httpRows(report),
    method: ['How it\'s measured:', '', ...httpMethod(report)],
  }
}

function renderSection(s: Section): string[] {
  return [`## ${s.title}`, '', ...(s.lead === undefined ? [] : [...s.lead, '']), table(s.rows), '', ...(s.method === undefined ? [] : [...s.method, ''])]
}

/** Replaces section `s` in an existing RESULTS.md, or inserts it before the closing "How each figure" part. */
function spliceSection(doc: string, s: Section): string {
  const lines = doc.split('\n')
  const start = lines.indexOf(`## ${s.title}`)
  const rendered = renderSection(s)
  if (start !== -1) {
    let end = lines.findIndex((l, i) => i > start && l.startsWith('## '))
    if (end === -1) end = lines.length
    return [...lines.slice(0, start), ...rendered, ...lines.slice(end)].join('\n')
  }
  let at = lines.indexOf('## How each figure is measured')
  if (at === -1) at = lines.length
  return [...lines.slice(0, at), ...rendered, ...lines.slice(at)].join('\n')
}

function stamp(d: Date): string {
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`
}

function machine(): string {
  return `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} vCPU, Node ${process.version}, ${process.platform}`
}

function table(rows: readonly Row[]): string {
  const lines = ['| Measure | Result | Target | Met |', '|---|---|---|---|']
  for (const r of rows) lines.push(`| ${r.measure} | ${r.result} | ${r.target} | ${r.ok === undefined ? '' : r.ok ? 'yes' : '**no**'} |`)
  return lines.join('\n')
}

function log(what: string): void {
  process.stderr.write(`bench: ${what}\n`)
}

async function main(): Promise<void> {
  const only = process.argv.slice(2)
  const unknown = only.filter((name) => SECTIONS[name] === undefined)
  if (unknown.length > 0) throw new Error(`unknown section(s) ${unknown.join(', ')}; known: ${Object.keys(SECTIONS).join(', ')}`)
  if (only.length > 0) {
    let doc = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : '# Benchmark results\n\n## How each figure is measured\n'
    for (const name of only) doc = spliceSection(doc, await (SECTIONS[name] as () => Promise<Section>)())
    writeFileSync(RESULTS, doc)
    log(`updated ${only.join(', ')} in ${RESULTS}`)
    return
  }
  const started = new Date()
  const cpu = cpus()[0]?.model ?? 'unknown CPU'
  const sections: Section[] = []
  for (const run of Object.values(SECTIONS)) sections.push(await run())
  const body = [
    '# Benchmark results',
    '',
    `Written by \`npm run bench\` on ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC — ${cpu}, ${cpus().length} vCPU, Node ${process.version}, ${process.platform}.`,
    '',
    'Rates are per core (one process, one actor). This machine is a shared VM whose speed varies by about ±25% between',
    'processes, so the frame-to-quote figures are the median of several fresh processes with their range. HTTP figures',
    '(later sections) are ratios against a bare uWS server measured in the same run.',
    '',
    ...sections.flatMap(renderSection),
    '## How each figure is measured',
    '',
    '- **Book apply** (`bench/book.bench.ts`): a 20-levels-a-side book and 50,000 seeded updates, most near the top (geometric',
    '  depth), 25% removals; tinybench, one core.',
    '- **Frame to quote** (`bench/ingest.bench.ts`): 20,000 wire frames as strings (venuep `price_change` with two assets and',
    '  77-digit token ids, ~600 bytes; venuek `orderbook_delta`, ~250 bytes) through the feed\'s per-frame path — `JSON.parse`,',
    '  the sequence check (venuek), the venue mapper — into a venue actor over 2,000 books that applies them, recomputes quotes',
    '  and publishes them to a subscriber.',
    '- **Memory** (`bench/footprint.bench.ts`): the standalone simulator (`npm run sim`, 21,500 questions, 20 levels a side) in',
    '  its own process; the service process (`node dist/src/main.js` with `SIM_EXTERNAL=1`) is measured by VmRSS after it is',
    '  ready and has streamed live updates for 10 s.',
    '- **Startup**: `node dist/src/main.js` with the default config (world generation, simulator, catalog sync over REST,',
    '  every book synced over the websockets) until `/readyz` answers 200. `npm start` adds the TypeScript build before it.',
    '',
  ].join('\n')
  writeFileSync(RESULTS, body)
  log(`wrote ${RESULTS}`)
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
