import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildCatalogSnapshot, type CatalogSnapshot } from '../../src/actors/catalog-snapshot.js'
import { loadConfig } from '../../src/config/load.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { mappedCatalogs } from '../../src/sim/mapped-catalogs.js'
import { startSimulator } from '../../src/sim/simulator.js'
import { matchEvents, type EventMatch } from '../../src/spreads/matching/matcher.js'
import {
  loadMatchWeights,
  UNCALIBRATED,
  wilsonLower,
  type Calibration,
  type MatchWeights,
} from '../../src/spreads/matching/calibration.js'
import { SpecCache } from '../../src/spreads/matching/contract.js'
import {
  emptyCounts,
  labelSide,
  scoreLabels,
  scoreTruth,
  type LabelFields,
  type LabelledPair,
  type LabelVerdict,
  type QualityCounts,
  type Scores,
} from '../../src/spreads/matching/evaluation.js'
import { log, measuredLead, OBSERVATION, type Row, type SectionDef } from './section.js'

/**
 * Issue 17: how well the matcher finds the same contract on both venues, on real catalogs and on the simulator.
 *
 * - **Real**: the captured catalogs (test/fixtures/real-venues) replayed by the simulator and mapped by the real
 *   adapters; scored on the hand-labelled development pairs (labels-dev.json). Every automatic match the matcher
 *   makes on them is written, with its evidence, to bench/matches-real.md for review: the labels hold few "same"
 *   pairs and the catalogs more same contracts than anyone labelled.
 * - **Simulated**: two seeded worlds scored on their ground truth.
 * - **Calibration**: per match quality, the published pairs and the share of them that were right, over all the
 *   labelled pairs above; written to config/match-calibration.json, whose 95% lower bounds weigh the spreads'
 *   confidence (src/spreads/matching/calibration.ts).
 *
 * `npm run eval:matching` (= `node dist/bench/run.js matching` after a build).
 */
const HERE = dirname(fileURLToPath(import.meta.url))
const REPO = join(HERE, '../../..')
const REAL_DIR = join(REPO, 'test/fixtures/real-venues')
const MATCHES_MD = join(REPO, 'bench/matches-real.md')
export const CALIBRATION_JSON = join(REPO, 'config/match-calibration.json')
/** The replay's clock: the day the labels were written against (the captures are from 2025-06 to 2026-03). */
const ANCHOR_MS = Date.UTC(2026, 10, 21, 12)
const SIM_WORLDS = [
  { seed: 42, questions: 2_400 },
  { seed: 7, questions: 1_500 },
] as const
export const MATCHING_COMMAND = 'npm run eval:matching'
/** Where labels-dev.json writes each venue's side of a pair (test/fixtures/real-venues/FORMAT.md). */
export const REAL_LABEL_FIELDS: Readonly<Record<string, LabelFields>> = {
  venuep: { event: 'event_slug', market: 'market_slug' },
  venuek: { event: 'event_ticker', market: 'market_ticker' },
}

export const matchingSection: SectionDef = {
  name: 'matching',
  title: 'Matching (issue 17)',
  method: [
    '- **Matching** (`bench/sections/matching.ts`, `npm run eval:matching`): precision, recall and F1 of the published',
    '  outcome pairs on the hand-labelled real pairs (test/fixtures/real-venues/labels-dev.json, catalogs replayed by the',
    "  simulator and mapped by the real adapters) and on two simulated worlds' ground truth; the calibration table counts,",
    '  per match quality, the published labelled pairs and the right ones (config/match-calibration.json). Every automatic',
    '  match on the real catalogs is listed with its evidence in bench/matches-real.md.',
  ],
  async run() {
    const { real, sims, total } = await evaluateMatching()
    // The weights in force before this run are what the service predicted; this run observes.
    let before: MatchWeights = UNCALIBRATED
    try {
      before = loadMatchWeights(CALIBRATION_JSON)
    } catch {
      // An invalid file is replaced below.
    }
    const calibration = calibrationOf(total)
    writeFileSync(CALIBRATION_JSON, `${JSON.stringify(calibration, null, 2)}\n`)
    writeFileSync(MATCHES_MD, matchesMarkdown(real.matches, real.verdicts, real.a, real.b))
    const rows: Row[] = [
      {
        measure: `Real catalogs (${real.a.events.length} ${real.a.venue}, ${real.b.events.length} ${real.b.venue} events), dev labels (${real.labels} pairs: ${real.sameLabels} same, ${real.labels - real.sameLabels} different)`,
        result: `${fmt(real.scores)}; wrong: ${real.wrong.length === 0 ? 'none' : real.wrong.join('; ')}`,
        target: 'no "different" pair matched, no "same" pair missed',
        ok: real.scores.fp === 0 && real.scores.fn === 0,
      },
      {
        measure: 'Real catalogs: automatic matches published (all listed in bench/matches-real.md)',
        result: `${real.published} outcome pairs in ${real.matches.length} event pairs`,
        ...OBSERVATION,
      },
      ...sims.map((s) => ({
        measure: `Simulated world (seed ${s.seed}, ${s.questions} questions), ground truth`,
        result: fmt(s.scores),
        target: 'precision ≥ 0.99, recall ≥ 0.90',
        ok: s.scores.precision >= 0.99 && s.scores.recall >= 0.9,
      })),
      ...(['auto_high', 'auto_medium'] as const).map((q) => {
        const g = calibration.qualities[q]
        return {
          measure: `Calibration bin \`${q}\`: predicted (its weight before this run) vs observed on the published labelled pairs (real + simulated)`,
          result: `predicted ${before[q].toFixed(4)}; observed ${g.correct} of ${g.pairs} = ${g.precision.toFixed(4)}, 95% lower bound ${g.lower95.toFixed(4)} (its weight from now on)`,
          ...OBSERVATION,
        }
      }),
      {
        measure: 'Calibration bin "not published": predicted 0 vs observed on the dev labels not matched',
        result: `${real.unpublished.same} of ${real.unpublished.pairs} were the same contract (${real.unpublished.pairs === 0 ? '—' : (real.unpublished.same / real.unpublished.pairs).toFixed(4)})`,
        ...OBSERVATION,
      },
    ]
    return { lead: [measuredLead(), `Command: \`${MATCHING_COMMAND}\`.`], rows }
  },
}

export interface MatchingEvaluation {
  readonly real: RealRun
  readonly sims: readonly {
    readonly seed: number
    readonly questions: number
    readonly scores: Scores
    readonly counts: QualityCounts
  }[]
  /** Published labelled pairs per quality over all of them, and the right ones: what the calibration is made of. */
  readonly total: QualityCounts
}

/** The measurements of the section, without writing anything (the suite checks them; the section reports them). */
export async function evaluateMatching(): Promise<MatchingEvaluation> {
  const real = await realRun()
  const sims: { seed: number; questions: number; scores: Scores; counts: QualityCounts }[] = []
  for (const w of SIM_WORLDS) {
    log(`matching: simulated world seed ${w.seed}, ${w.questions} questions`)
    sims.push({ ...w, ...(await simRun(w.seed, w.questions)) })
  }
  const total = emptyCounts()
  for (const c of [real.counts, ...sims.map((s) => s.counts)]) {
    for (const q of ['auto_high', 'auto_medium'] as const) {
      total[q].pairs += c[q].pairs
      total[q].correct += c[q].correct
    }
  }
  return { real, sims, total }
}

export interface RealRun {
  /** The two venues' catalogs, in registry order. */
  readonly a: CatalogSnapshot
  readonly b: CatalogSnapshot
  readonly matches: EventMatch[]
  readonly verdicts: LabelVerdict[]
  readonly scores: Scores
  readonly counts: QualityCounts
  readonly labels: number
  readonly sameLabels: number
  readonly wrong: string[]
  readonly published: number
  readonly unpublished: { readonly pairs: number; readonly same: number }
}

async function realRun(): Promise<RealRun> {
  log('matching: real catalogs (replayed), dev labels')
  const clock = new SimulatedClock(ANCHOR_MS)
  const config = loadConfig({ env: { NODE_ENV: 'test' } })
  const sim = await startSimulator({
    config: { ...config.sim, catalog: REAL_DIR, wallets: 5, venuekAuth: false },
    clock,
    anchorMs: ANCHOR_MS,
    startEngine: false,
  })
  try {
    const catalogs = await mappedCatalogs(
      sim,
      config,
      clock,
      Math.ceil((ANCHOR_MS - Date.UTC(2020, 0, 1)) / 86_400_000),
    )
    const [a, b] = [catalogs.venuep, catalogs.venuek].map((c) => buildCatalogSnapshot(c, 1)) as [
      CatalogSnapshot,
      CatalogSnapshot,
    ]
    const matches = matchEvents(a, b)
    const labels = JSON.parse(readFileSync(join(REAL_DIR, 'labels-dev.json'), 'utf8')) as LabelledPair[]
    const { verdicts, scores, counts } = scoreLabels(matches, labels, labelled(a), labelled(b), new SpecCache())
    const wrong = verdicts
      .filter((v) => !v.correct)
      .map(
        (v) =>
          `${v.pair.label} ${labelSide(v.pair, a.venue, labelFields(a.venue))?.marketId} ~ ${labelSide(v.pair, b.venue, labelFields(b.venue))?.marketId}`,
      )
    const published = matches.reduce((n, m) => n + m.outcomes.length, 0)
    const notMatched = verdicts.filter((v) => !v.matched)
    const unpublished = { pairs: notMatched.length, same: notMatched.filter((v) => v.pair.label === 'same').length }
    return {
      a,
      b,
      matches,
      verdicts,
      scores,
      counts,
      labels: labels.length,
      sameLabels: labels.filter((l) => l.label === 'same').length,
      wrong,
      published,
      unpublished,
    }
  } finally {
    await sim.close()
  }
}

async function simRun(seed: number, questions: number): Promise<{ scores: Scores; counts: QualityCounts }> {
  const clock = new SimulatedClock(ANCHOR_MS)
  const config = loadConfig({ env: { NODE_ENV: 'test' } })
  const sim = await startSimulator({
    config: { ...config.sim, questions, seed, venuekAuth: false },
    clock,
    anchorMs: ANCHOR_MS,
    startEngine: false,
  })
  try {
    const catalogs = await mappedCatalogs(sim, config, clock)
    const [a, b] = [catalogs.venuep, catalogs.venuek].map((c) => buildCatalogSnapshot(c, 1)) as [
      CatalogSnapshot,
      CatalogSnapshot,
    ]
    const truth = sim.world.truth.outcomePairs.map((t) => ({ a: t.a.outcome, b: t.b.outcome }))
    return scoreTruth(matchEvents(a, b), truth, a, b)
  } finally {
    await sim.close()
  }
}

export function calibrationOf(total: QualityCounts): Calibration {
  const grade = (q: 'auto_high' | 'auto_medium') => {
    const { pairs, correct } = total[q]
    return {
      pairs,
      correct,
      precision: pairs === 0 ? 0 : round(correct / pairs),
      lower95: round(wilsonLower(correct, pairs)),
    }
  }
  return {
    _comment:
      "Written by `npm run eval:matching` (bench/sections/matching.ts): per automatic match quality, the published pairs among the labelled ones (hand-labelled real pairs and the simulator's ground truth) and how many were right. lower95 is the confidence weight of the quality.",
    measured_at: new Date().toISOString().slice(0, 10),
    command: MATCHING_COMMAND,
    qualities: { auto_high: grade('auto_high'), auto_medium: grade('auto_medium') },
  }
}

function round(x: number): number {
  return Math.round(x * 1e4) / 1e4
}

function fmt(s: Scores): string {
  return `precision **${s.precision.toFixed(4)}**, recall **${s.recall.toFixed(4)}**, F1 ${s.f1.toFixed(4)} (${s.tp} right, ${s.fp} false, ${s.fn} missed)`
}

/** The review list: every automatic match on the real catalogs, with the evidence that decided it. */
function matchesMarkdown(
  matches: readonly EventMatch[],
  verdicts: readonly LabelVerdict[],
  a: CatalogSnapshot,
  b: CatalogSnapshot,
): string {
  const marketOf = (v: LabelVerdict, c: CatalogSnapshot) => labelSide(v.pair, c.venue, labelFields(c.venue))?.marketId
  const labelled = new Map(verdicts.map((v) => [`${marketOf(v, a)}|${marketOf(v, b)}`, v.pair.label]))
  const lines = [
    '# Automatic matches on the real catalogs',
    '',
    `Written by \`${MATCHING_COMMAND}\` (bench/sections/matching.ts) on ${new Date().toISOString().slice(0, 10)}: every outcome pair the matcher publishes on the real`,
    'captured catalogs (test/fixtures/real-venues), with the evidence that decided it, for a reviewer. A wrong pair goes into',
    '`deny` in config/matches.json (the service reloads it without a restart) and into the labels.',
    '',
    `${matches.reduce((n, m) => n + m.outcomes.length, 0)} outcome pairs in ${matches.length} event pairs.`,
    '',
  ]
  for (const m of matches) {
    const ae = a.eventsById.get(m.a.eventId)
    const be = b.eventsById.get(m.b.eventId)
    lines.push(
      `## ${ae?.title ?? m.a.eventId} ↔ ${be?.title ?? m.b.eventId}`,
      '',
      `${a.venue} \`${m.a.eventId}\` ↔ ${b.venue} \`${m.b.eventId}\`: ${m.strategy}, ${m.quality}`,
      '',
    )
    lines.push(
      `| ${a.venue} outcome | ${b.venue} market | quality | period | strike | shared words | implicit | dev label |`,
      '|---|---|---|---|---|---|---|---|',
    )
    for (const o of m.outcomes) {
      const e = o.explanation.evidence
      // A label names a contract by its binary market: the outcome's market slug where it has one, else its id.
      const label =
        labelled.get(`${o.a.childMarketSlug ?? o.a.outcomeId}|${o.b.childMarketSlug ?? o.b.outcomeId}`) ?? '—'
      lines.push(
        `| ${cell(o.a.title)} | ${cell(`${o.b.outcomeId} (${o.b.title})`)} | ${o.quality} | ${cell(e?.period ?? '')} | ${cell(e?.strike ?? '')} | ${cell(e?.shared.join(' ') ?? '')} | ${cell(e?.implicit.join(' ') ?? '')} | ${label} |`,
      )
    }
    lines.push('')
  }
  return `${lines.join('\n')}\n`
}

function labelFields(venue: string): LabelFields {
  const f = REAL_LABEL_FIELDS[venue]
  if (f === undefined) throw new Error(`labels-dev.json: no label fields for venue ${venue}`)
  return f
}

function labelled(catalog: CatalogSnapshot): { catalog: CatalogSnapshot; fields: LabelFields } {
  return { catalog, fields: labelFields(catalog.venue) }
}

function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ')
}
