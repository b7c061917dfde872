import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { buildCatalogSnapshot, type CatalogSnapshot } from '../../src/actors/catalog-snapshot.js'
import { loadConfig } from '../../src/config/load.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { mappedCatalogs } from '../../src/sim/mapped-catalogs.js'
import { startSimulator } from '../../src/sim/simulator.js'
import { SpecCache } from '../../src/spreads/matching/contract.js'
import {
  familyOf,
  scoreLabels,
  type GroupScores,
  scoresBy,
  type LabelFields,
  type LabelledPair,
  type LabelVerdict,
  type QualityCounts,
  type Scores,
} from '../../src/spreads/matching/evaluation.js'
import { matchEvents, type EventMatch, type MatchInput } from '../../src/spreads/matching/matcher.js'

/**
 * The matcher on a directory of captured catalogs (venuep.json and venuek.json in the format of
 * test/fixtures/real-venues/FORMAT.md) against a label file of that format: the catalogs are replayed by the
 * simulator over both venues' protocols and mapped by the real adapters, as the service would see them, then matched
 * and scored pair by pair, per family and per proposition kind. Used by `npm run eval:matching` (the bench section
 * and its command line, tools/eval-matching.ts).
 */
export interface LabelledRun {
  readonly dir: string
  readonly a: CatalogSnapshot
  readonly b: CatalogSnapshot
  readonly matches: EventMatch[]
  readonly verdicts: LabelVerdict[]
  readonly scores: Scores
  readonly counts: QualityCounts
  readonly byFamily: Map<string, GroupScores>
  readonly byKind: Map<string, GroupScores>
  readonly labels: number
  readonly sameLabels: number
  /** Same pairs published with the other outcome of a two-outcome market. */
  readonly wrongOutcome: number
  /** CPU time of the matcher's full run on these catalogs (ms). */
  readonly matchMs: number
}

/** Where the label files of FORMAT.md write each venue's side of a pair. */
export const LABEL_FIELDS: Readonly<Record<string, LabelFields>> = {
  venuep: { event: 'event_slug', market: 'market_slug', outcomeIndex: 'outcome_index' },
  venuek: { event: 'event_ticker', market: 'market_ticker' },
}

/** The replay's clock: a fixed day (the captures span 2025-06 to 2026-05), with every closed event listed. */
const ANCHOR_MS = Date.UTC(2026, 10, 21, 12)
const LOOKBACK_DAYS = Math.ceil((ANCHOR_MS - Date.UTC(2020, 0, 1)) / 86_400_000)

export async function runLabelled(dir: string, labelsFile: string, input: MatchInput = {}): Promise<LabelledRun> {
  const abs = resolve(dir)
  const clock = new SimulatedClock(ANCHOR_MS)
  const config = loadConfig({ env: { NODE_ENV: 'test' } })
  const sim = await startSimulator({
    config: { ...config.sim, catalog: abs, wallets: 5, venuekAuth: false },
    clock,
    anchorMs: ANCHOR_MS,
    startEngine: false,
  })
  try {
    const catalogs = await mappedCatalogs(sim, config, clock, LOOKBACK_DAYS)
    const a = buildCatalogSnapshot(catalogs.venuep, 1)
    const b = buildCatalogSnapshot(catalogs.venuek, 1)
    const started = process.cpuUsage()
    const matches = matchEvents(a, b, input)
    const used = process.cpuUsage(started)
    const labels = JSON.parse(readFileSync(labelsFile, 'utf8')) as LabelledPair[]
    const fields = (venue: string) => {
      const f = LABEL_FIELDS[venue]
      if (f === undefined) throw new Error(`${labelsFile}: no label fields for venue ${venue}`)
      return f
    }
    const { verdicts, scores, counts } = scoreLabels(
      matches,
      labels,
      { catalog: a, fields: fields(a.venue) },
      { catalog: b, fields: fields(b.venue) },
      new SpecCache(),
    )
    return {
      dir,
      a,
      b,
      matches,
      verdicts,
      scores,
      counts,
      byFamily: scoresBy(verdicts, (v) => familyOf(v.pair)),
      byKind: scoresBy(verdicts, (v) => v.kind),
      labels: labels.length,
      sameLabels: labels.filter((l) => l.label === 'same').length,
      wrongOutcome: verdicts.filter((v) => v.wrongOutcome).length,
      matchMs: (used.user + used.system) / 1000,
    }
  } finally {
    await sim.close()
  }
}

/** "precision 1.0000, recall 0.9836 (180 right, 0 false, 3 missed)" */
export function describeScores(s: Scores): string {
  return `precision ${s.precision.toFixed(4)}, recall ${s.recall.toFixed(4)} (${s.tp} right, ${s.fp} false, ${s.fn} missed)`
}
