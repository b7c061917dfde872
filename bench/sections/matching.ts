import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildCatalogSnapshot, type CatalogSnapshot } from '../../src/actors/catalog-snapshot.js'
import { loadConfig } from '../../src/config/load.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { mappedCatalogs } from '../../src/sim/mapped-catalogs.js'
import { startSimulator } from '../../src/sim/simulator.js'
import { matchEvents } from '../../src/spreads/matching/matcher.js'
import {
  loadMatchWeights,
  UNCALIBRATED,
  wilsonLower,
  type Calibration,
  type MatchWeights,
} from '../../src/spreads/matching/calibration.js'
import {
  emptyCounts,
  labelSide,
  scoreTruth,
  type LabelFields,
  type GroupScores,
  type LabelVerdict,
  type QualityCounts,
  type Scores,
} from '../../src/spreads/matching/evaluation.js'
import { LABEL_FIELDS, runLabelled, type LabelledRun } from '../../tools/matching/labelled-run.js'
import { log, measuredLead, OBSERVATION, type Row, type SectionDef } from './section.js'

/**
 * Issues 17 and 34: how well the matcher finds the same contract on both venues, on real catalogs and on the simulator.
 *
 * - **Real**: the captured catalogs (test/fixtures/real-venues: long-dated listings, and short-dated/: a real week of
 *   short-dated series) replayed by the simulator and mapped by the real adapters (tools/matching/labelled-run.ts);
 *   scored on their development labels (labels-dev.json), per family and per proposition kind. Every automatic match the matcher
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
const MATCHES_MD = join(REPO, 'bench/matches-real.md')
export const CALIBRATION_JSON = join(REPO, 'config/match-calibration.json')
/** The replay's clock: the day the labels were written against (the captures are from 2025-06 to 2026-05). */
const ANCHOR_MS = Date.UTC(2026, 10, 21, 12)
const SIM_WORLDS = [
  { seed: 42, questions: 2_400 },
  { seed: 7, questions: 1_500 },
] as const
export const MATCHING_COMMAND = 'npm run eval:matching'
/** Where the label files write each venue's side of a pair (test/fixtures/real-venues/FORMAT.md). */
export const REAL_LABEL_FIELDS = LABEL_FIELDS

/**
 * The labelled real sets we keep: captured catalogs of both venues and development labels (test/fixtures/real-venues:
 * long-dated listings; short-dated: a real week of short-dated series). Held-out labels are not in the repository.
 */
export const LABELLED_SETS = [
  { name: 'long-dated', dir: join(REPO, 'test/fixtures/real-venues') },
  { name: 'short-dated', dir: join(REPO, 'test/fixtures/real-venues/short-dated') },
] as const

export const matchingSection: SectionDef = {
  name: 'matching',
  title: 'Matching (issues 17 and 34)',
  method: [
    '- **Matching** (`bench/sections/matching.ts`, `npm run eval:matching`): precision, recall and F1 of the published',
    '  outcome pairs on the labelled real pairs (test/fixtures/real-venues/labels-dev.json and short-dated/labels-dev.json,',
    '  catalogs replayed by the simulator and mapped by the real adapters), per family and per proposition kind, and on two',
    "  simulated worlds' ground truth; the calibration table counts, per match quality, the published labelled pairs and the",
    '  right ones (config/match-calibration.json). Every automatic match on the real catalogs is listed with its evidence in',
    '  bench/matches-real.md. `npm run eval:matching -- --catalog <dir> [--labels <file>]` scores any other catalogs.',
  ],
  async run() {
    const { labelled, sims, total } = await evaluateMatching()
    // The weights in force before this run are what the service predicted; this run observes.
    let before: MatchWeights = UNCALIBRATED
    try {
      before = loadMatchWeights(CALIBRATION_JSON)
    } catch {
      // An invalid file is replaced below.
    }
    const calibration = calibrationOf(total)
    writeFileSync(CALIBRATION_JSON, `${JSON.stringify(calibration, null, 2)}\n`)
    writeFileSync(MATCHES_MD, matchesMarkdown(labelled))
    const rows: Row[] = []
    for (const run of labelled) {
      const wrong = run.verdicts.filter((v) => !v.correct)
      rows.push({
        measure: `Real catalogs, ${run.name} (${run.a.events.length} ${run.a.venue}, ${run.b.events.length} ${run.b.venue} events), dev labels (${run.labels} pairs: ${run.sameLabels} same)`,
        result: `${fmt(run.scores)}; head-to-heads on the other outcome: ${run.wrongOutcome}; wrong: ${wrong.length === 0 ? 'none' : wrong.map((v) => v.decidedBy).join(', ')}`,
        target: 'precision ≥ 0.99, recall ≥ 0.95, every head-to-head on its outcome',
        ok: run.scores.precision >= 0.99 && run.scores.recall >= 0.95 && run.wrongOutcome === 0,
      })
      for (const [family, sc] of run.byFamily)
        rows.push({ measure: `… ${run.name}, family \`${family}\``, result: groupFmt(sc), ...OBSERVATION })
      for (const [kind, sc] of run.byKind)
        rows.push({ measure: `… ${run.name}, proposition kind \`${kind}\``, result: groupFmt(sc), ...OBSERVATION })
      rows.push({
        measure: `… ${run.name}: automatic matches published (listed in bench/matches-real.md); the full match's CPU`,
        result: `${run.matches.reduce((n, m) => n + m.outcomes.length, 0)} outcome pairs in ${run.matches.length} event pairs; ${run.matchMs.toFixed(0)} ms`,
        ...OBSERVATION,
      })
    }
    rows.push(
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
    )
    for (const run of labelled) {
      const notMatched = run.verdicts.filter((v) => !v.matched)
      const same = notMatched.filter((v) => v.pair.label === 'same').length
      rows.push({
        measure: `Calibration bin "not published" (${run.name}): predicted 0 vs observed on the dev labels not matched`,
        result: `${same} of ${notMatched.length} were the same contract (${notMatched.length === 0 ? '—' : (same / notMatched.length).toFixed(4)})`,
        ...OBSERVATION,
      })
    }
    return { lead: [measuredLead(), `Command: \`${MATCHING_COMMAND}\`.`], rows }
  },
}

export interface MatchingEvaluation {
  readonly labelled: readonly NamedRun[]
  readonly sims: readonly {
    readonly seed: number
    readonly questions: number
    readonly scores: Scores
    readonly counts: QualityCounts
  }[]
  /** Published labelled pairs per quality over all of them, and the right ones: what the calibration is made of. */
  readonly total: QualityCounts
}

export interface NamedRun extends LabelledRun {
  readonly name: string
}

/** The measurements of the section, without writing anything (the suite checks them; the section reports them). */
export async function evaluateMatching(): Promise<MatchingEvaluation> {
  const labelled: NamedRun[] = []
  for (const set of LABELLED_SETS) {
    log(`matching: real catalogs (${set.name}, replayed), dev labels`)
    labelled.push({ name: set.name, ...(await runLabelled(set.dir, join(set.dir, 'labels-dev.json'))) })
  }
  const sims: { seed: number; questions: number; scores: Scores; counts: QualityCounts }[] = []
  for (const w of SIM_WORLDS) {
    log(`matching: simulated world seed ${w.seed}, ${w.questions} questions`)
    sims.push({ ...w, ...(await simRun(w.seed, w.questions)) })
  }
  const total = emptyCounts()
  for (const c of [...labelled.map((r) => r.counts), ...sims.map((s) => s.counts)]) {
    for (const q of ['auto_high', 'auto_medium'] as const) {
      total[q].pairs += c[q].pairs
      total[q].correct += c[q].correct
    }
  }
  return { labelled, sims, total }
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

/** A family's or kind's row: its labelled pairs, then its scores (none published and none same: nothing to score). */
function groupFmt(s: GroupScores): string {
  const head = `${s.labelled} labelled (${s.same} same)`
  return s.tp + s.fp + s.fn === 0 ? `${head}: none published, none missed` : `${head}: ${fmt(s)}`
}

function fmt(s: Scores): string {
  return `precision **${s.precision.toFixed(4)}**, recall **${s.recall.toFixed(4)}**, F1 ${s.f1.toFixed(4)} (${s.tp} right, ${s.fp} false, ${s.fn} missed)`
}

/** The review list: every automatic match on the real catalogs, with the evidence that decided it. */
function matchesMarkdown(runs: readonly NamedRun[]): string {
  const lines = [
    '# Automatic matches on the real catalogs',
    '',
    `Written by \`${MATCHING_COMMAND}\` (bench/sections/matching.ts) on ${new Date().toISOString().slice(0, 10)}: every outcome pair the matcher publishes on the real`,
    'captured catalogs (test/fixtures/real-venues and its short-dated week), with the fields that decided it, for a reviewer.',
    'A wrong pair goes into `deny` in config/matches.json (the service reloads it without a restart, or use',
    '`npm run matches:review`) and into the labels.',
    '',
  ]
  for (const run of runs) lines.push(...runMarkdown(run))
  return `${lines.join('\n')}\n`
}

function runMarkdown(run: NamedRun): string[] {
  const { a, b, matches, verdicts } = run
  const key = (v: LabelVerdict, c: CatalogSnapshot) => {
    const side = labelSide(v.pair, c.venue, labelFields(c.venue))
    return side === undefined ? undefined : `${side.marketId}#${side.outcomeIndex}`
  }
  const labelled = new Map(verdicts.map((v) => [`${key(v, a)}|${key(v, b)}`, v.pair.label]))
  const lines = [
    `## ${run.name}: ${matches.reduce((n, m) => n + m.outcomes.length, 0)} outcome pairs in ${matches.length} event pairs`,
    '',
  ]
  for (const m of matches) {
    const ae = a.eventsById.get(m.a.eventId)
    const be = b.eventsById.get(m.b.eventId)
    lines.push(
      `### ${ae?.title ?? m.a.eventId} ↔ ${be?.title ?? m.b.eventId}`,
      '',
      `${a.venue} \`${m.a.eventId}\` ↔ ${b.venue} \`${m.b.eventId}\`: ${m.strategy}, ${m.quality}`,
      '',
      `| ${a.venue} outcome | ${b.venue} market | quality | kind | fields compared | dev label |`,
      '|---|---|---|---|---|---|',
    )
    for (const o of m.outcomes) {
      const e = o.explanation.evidence
      // A label names a contract by its binary market (slug where it has one, else id) and outcome index.
      const label =
        labelled.get(
          `${o.a.childMarketSlug ?? o.a.outcomeId}#${o.a.outcomeIndex ?? 0}|${o.b.childMarketSlug ?? o.b.outcomeId}#0`,
        ) ?? '—'
      lines.push(
        `| ${cell(o.a.title)} | ${cell(`${o.b.outcomeId} (${o.b.title})`)} | ${o.quality} | ${e?.kind ?? ''} | ${cell(e?.compared.join('; ') ?? '')} | ${label} |`,
      )
    }
    lines.push('')
  }
  return lines
}

function labelFields(venue: string): LabelFields {
  const f = REAL_LABEL_FIELDS[venue]
  if (f === undefined) throw new Error(`labels-dev.json: no label fields for venue ${venue}`)
  return f
}

function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ')
}
