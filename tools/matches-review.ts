import { createInterface } from 'node:readline/promises'
import { loadConfig } from '../src/config/load.js'
import { loadAliases } from '../src/spreads/matching/aliases.js'
import { loadMatchOverrides } from '../src/spreads/matching/manual-matches.js'
import { matchEvents } from '../src/spreads/matching/matcher.js'
import { nearMisses, type NearMiss } from '../src/spreads/matching/near-misses.js'
import { VENUES } from '../src/venues/index.js'
import { loadCatalogs } from './matching/catalog-source.js'
import { recordDecision, type Decision } from './matching/review-file.js'

/**
 * `npm run matches:review`: the near misses of the current catalogs (contract pairs that ONE field kept apart,
 * src/spreads/matching/near-misses.ts), each with that field, for an operator to accept or deny into
 * config/matches.json (the running service reloads it). A name the rules cannot connect is better settled once in
 * config/aliases.json.
 *
 *   npm run matches:review                                   the simulated world the service would start
 *   npm run matches:review -- --catalog <dir>                captured catalogs (test/fixtures/real-venues/FORMAT.md)
 *   npm run matches:review -- --live                         the real venues (network)
 *   … --limit N --field when|threshold|what|rank|part|day|discipline|participants --json
 *   … --accept <id> | --deny <id> [--reviewer <name>] [--reason <text>]   record one decision by its id
 *   … --interactive                                          ask for each, one by one
 */
function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`)
  return i === -1 ? undefined : process.argv[i + 1]
}

function flag(name: string): boolean {
  return process.argv.includes(`--${name}`)
}

/** A near miss's id: its two contracts' outcome ids. */
export function missId(m: NearMiss): string {
  return `${m.a.outcome.outcomeId}~${m.b.outcome.outcomeId}`
}

function describe(m: NearMiss, i: number): string {
  const side = (c: NearMiss['a']) =>
    `${c.outcome.venue} ${c.event.eventId}: ${c.texts.filter((t) => t !== '').join(' | ')}`
  return [`${i + 1}. [${m.field}] ${m.reason}`, `   ${side(m.a)}`, `   ${side(m.b)}`, `   id: ${missId(m)}`].join('\n')
}

async function main(): Promise<void> {
  const config = loadConfig(flag('live') ? { env: { ...process.env, VENUES: 'live' } } : {})
  const path = config.spreads.manualMatchesPath
  const catalog = arg('catalog')
  const loaded = await loadCatalogs({ ...(catalog === undefined ? {} : { catalog }), live: flag('live') })
  const aliases = loadAliases(config.spreads.aliasesPath)
  const overrides = loadMatchOverrides(
    path,
    VENUES.map((v) => v.id),
  )
  const matches = matchEvents(loaded.a, loaded.b, { ...overrides, aliases })
  const published = new Set(matches.flatMap((m) => m.outcomes.map((o) => `${o.a.outcomeId}|${o.b.outcomeId}`)))
  const denied = new Set((overrides.deny ?? []).map((d) => `${d.a.outcomeId}|${d.b.outcomeId}`))
  const field = arg('field')
  const misses = nearMisses(loaded.a, loaded.b, published, aliases.lookup).filter(
    (m) =>
      (field === undefined || m.field === field) && !denied.has(`${m.a.outcome.outcomeId}|${m.b.outcome.outcomeId}`),
  )
  const who = { reviewer: arg('reviewer'), reason: arg('reason') }
  for (const decision of ['accept', 'deny'] as const) {
    const id = arg(decision)
    if (id === undefined) continue
    const miss = misses.find((m) => missId(m) === id)
    if (miss === undefined)
      throw new Error(`no near miss ${id} in ${loaded.description} (list them without --${decision})`)
    console.log(`${path}: ${recordDecision(path, miss, decision, who)}`)
    return
  }
  const limit = Number(arg('limit') ?? 50)
  const shown = misses.slice(0, limit)
  if (flag('json')) {
    console.log(
      JSON.stringify(
        shown.map((m) => ({ id: missId(m), field: m.field, reason: m.reason, a: m.a.texts, b: m.b.texts })),
        null,
        2,
      ),
    )
    return
  }
  console.log(
    `${misses.length} near misses in ${loaded.description} (${published.size} pairs published); the first ${shown.length}:\n`,
  )
  if (!flag('interactive')) {
    for (const [i, m] of shown.entries()) console.log(`${describe(m, i)}\n`)
    console.log(
      'Record a decision: npm run matches:review -- --accept <id> (or --deny <id>) [--reviewer <name>] [--reason <text>]',
    )
    return
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout })
  try {
    for (const [i, m] of shown.entries()) {
      console.log(describe(m, i))
      const answer = (await rl.question('   [a]ccept, [d]eny, [s]kip, [q]uit? ')).trim().toLowerCase()
      if (answer.startsWith('q')) break
      const decision: Decision | undefined = answer.startsWith('a')
        ? 'accept'
        : answer.startsWith('d')
          ? 'deny'
          : undefined
      if (decision !== undefined) console.log(`   ${recordDecision(path, m, decision, who)}\n`)
    }
  } finally {
    rl.close()
  }
}

await main()
