import { execFileSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { benchBookApply } from '../book.bench.js'
import { benchMemory, benchStartup } from '../footprint.bench.js'
import { fmtRate, median, type Measured } from '../harness.js'
import pg from 'pg'
import { log, type Row, type SectionDef } from './section.js'

/** Issue 2: book apply, frame to quote, memory at ≥ 20,000 books per venue, startup. */
const BENCH_DIR = join(dirname(fileURLToPath(import.meta.url)), '..')
const INGEST_RUNS = 5
const MEMORY_QUESTIONS = 21_500

export const dataSection: SectionDef = {
  name: 'data',
  title: 'Data plane (issue 2)',
  method: [
    '- **Book apply** (`bench/book.bench.ts`): a 20-levels-a-side book and 50,000 seeded updates, most near the top (geometric',
    '  depth), 25% removals; tinybench, one core.',
    '- **Frame to quote** (`bench/ingest.bench.ts`): 20,000 wire frames as strings (venuep `price_change` with two assets and',
    "  77-digit token ids, ~600 bytes; venuek `orderbook_delta`, ~250 bytes) through the feed's per-frame path — venuep: the",
    '  price_change fast path (`mapVenuepFrame`); venuek: `JSON.parse`, the sequence check, the venue mapper — into a venue actor over 2,000 books that applies them, recomputes quotes',
    '  and publishes them to a subscriber.',
    `- **Memory** (\`bench/footprint.bench.ts\`): the standalone simulator (\`npm run sim\`, ${MEMORY_QUESTIONS.toLocaleString('en-US')} questions, 20 levels a side) in`,
    '  its own process; the service process (`node dist/src/main.js` with `SIM_EXTERNAL=1`) is measured by VmRSS after it is',
    '  ready and has streamed live updates for 10 s; once with the default embedded PGlite store (which runs in a store process',
    "  of its own, src/store/pglite-process-db.ts: its RSS is reported beside the service's, as a Postgres server's would be",
    '  separate) and once with the store on Postgres (a fresh database `predmkt_bench_memory`). The data directory is kept',
    "  between runs, so the first boot's initdb (run in a short-lived process of its own) is usually not in the figure.",
    '- **Startup**: `node dist/src/main.js` with the default config (world generation, simulator, catalog sync over REST,',
    '  every book synced over the websockets) until `/readyz` answers 200. `npm start` adds the TypeScript build before it.',
  ],
  run: async () => ({ rows: await dataPlane() }),
}

async function dataPlane(): Promise<Row[]> {
  const rows: Row[] = []
  log('book apply')
  for (const m of await benchBookApply())
    rows.push({
      measure: `Book apply: ${m.name}`,
      result: `${fmtRate(m.perSecond)} (±${m.rmePercent.toFixed(1)}%)`,
      target: '≥ 1 M level updates/s, one core',
      ok: m.perSecond >= 1e6,
    })

  log(`frame to quote (${INGEST_RUNS} fresh processes)`)
  const runs: Measured[][] = []
  for (let i = 0; i < INGEST_RUNS; i++)
    runs.push(
      JSON.parse(
        execFileSync(process.execPath, [join(BENCH_DIR, 'ingest-child.js')], { encoding: 'utf8' }),
      ) as Measured[],
    )
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

  // Twice: with the default embedded store (PGlite: a WebAssembly Postgres in a store process the service forks) and,
  // when a Postgres server answers, with the store there (production).
  const stores: [string, Record<string, string> | undefined][] = [
    ['embedded PGlite store (in its own process)', {}],
    ['store on Postgres', await benchDatabaseEnv()],
  ]
  for (const [store, env] of stores) {
    if (env === undefined) {
      rows.push({
        measure: `Memory with the ${store}`,
        result: 'not measured: no Postgres answered (BENCH_DATABASE_URL, else 127.0.0.1:5432)',
        target: '≤ 600 MB with 20,000 outcomes per venue',
        ok: undefined,
      })
      continue
    }
    log(`memory at ≥ 20,000 books per venue, ${store} (separate simulator process)`)
    const mem = await benchMemory(MEMORY_QUESTIONS, env)
    rows.push({
      measure: `Memory: service RSS with ${mem.instruments.venuep.toLocaleString('en-US')} venuep + ${mem.instruments.venuek.toLocaleString('en-US')} venuek streamed books, ${mem.levelsPerSide} levels a side, after 10 s of live updates, ${store}`,
      result: `${mem.rssMiB.toFixed(0)} MiB (peak ${mem.peakRssMiB.toFixed(0)} MiB); ready in ${(mem.readyMs / 1000).toFixed(1)} s${mem.childrenRssMiB > 0 ? `; the store process beside it ${mem.childrenRssMiB.toFixed(0)} MiB` : ''}`,
      target: '≤ 600 MB with 20,000 outcomes per venue',
      ok: mem.rssMiB * 1.048576 <= 600 && mem.instruments.venuep >= 20_000 && mem.instruments.venuek >= 20_000,
    })
  }

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

/** DATABASE_URL of a fresh database for the memory run on Postgres, or undefined when no server answers. */
async function benchDatabaseEnv(): Promise<Record<string, string> | undefined> {
  const admin = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
  const client = new pg.Client({ connectionString: admin, connectionTimeoutMillis: 2_000 })
  try {
    await client.connect()
    await client.query('DROP DATABASE IF EXISTS predmkt_bench_memory')
    await client.query('CREATE DATABASE predmkt_bench_memory')
    const url = new URL(admin)
    url.pathname = '/predmkt_bench_memory'
    return { DATABASE_URL: url.toString() }
  } catch {
    return undefined
  } finally {
    await client.end().catch(() => undefined)
  }
}
