import { writeFileSync } from 'node:fs'
import { describeScores, runLabelled, type LabelledRun } from './matching/labelled-run.js'
import { labelSide, type GroupScores } from '../src/spreads/matching/evaluation.js'
import { LABEL_FIELDS } from './matching/labelled-run.js'

/**
 * `npm run eval:matching -- --catalog <dir> --labels <file> [--json <out>]`: the matcher on any captured catalogs
 * against any label file (both in the format of test/fixtures/real-venues/FORMAT.md): precision and recall overall,
 * per family and per proposition kind, and every wrong verdict with the field that decided it. Without arguments,
 * `npm run eval:matching` runs the bench section instead (every labelled set we keep and two simulated worlds,
 * written to bench/RESULTS.md and config/match-calibration.json).
 */
function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`)
  return i === -1 ? undefined : process.argv[i + 1]
}

export function report(run: LabelledRun): string {
  const lines = [
    `# Matching: ${run.dir}`,
    '',
    `${run.a.events.length} ${run.a.venue} and ${run.b.events.length} ${run.b.venue} events; ${run.labels} labelled pairs (${run.sameLabels} same); ${run.matches.reduce((n, m) => n + m.outcomes.length, 0)} outcome pairs published; full match ${run.matchMs.toFixed(0)} ms of CPU.`,
    '',
    `Overall: ${describeScores(run.scores)}; same pairs on the other outcome of a two-outcome market: ${run.wrongOutcome}.`,
    '',
    '| family | labelled (same) | precision | recall | right | false | missed |',
    '|---|---|---|---|---|---|---|',
    ...[...run.byFamily].map(([k, s]) => row(k, s)),
    '',
    '| proposition kind | labelled (same) | precision | recall | right | false | missed |',
    '|---|---|---|---|---|---|---|',
    ...[...run.byKind].map(([k, s]) => row(k, s)),
    '',
  ]
  const wrong = run.verdicts.filter((v) => !v.correct || v.wrongOutcome)
  lines.push(`## Wrong verdicts (${wrong.length})`, '')
  for (const v of wrong) {
    const a = labelSide(v.pair, run.a.venue, LABEL_FIELDS[run.a.venue] as never)
    const b = labelSide(v.pair, run.b.venue, LABEL_FIELDS[run.b.venue] as never)
    const why = v.judgement === undefined ? '' : v.judgement.same ? '' : `: ${v.judgement.reason}`
    lines.push(
      `- ${v.pair.label} ${a?.marketId}#${a?.outcomeIndex} ~ ${b?.marketId} (${v.kind}): ${v.matched ? 'published' : 'not published'}${v.wrongOutcome ? ', on the other outcome' : ''}; decided by ${v.decidedBy ?? '-'}${why}`,
    )
  }
  return `${lines.join('\n')}\n`
}

function row(k: string, s: GroupScores): string {
  return `| ${k} | ${s.labelled} (${s.same}) | ${s.precision.toFixed(4)} | ${s.recall.toFixed(4)} | ${s.tp} | ${s.fp} | ${s.fn} |`
}

async function main(): Promise<void> {
  if (process.argv.length <= 2) {
    // No catalog: the bench section (every labelled set, the simulated worlds, the calibration).
    process.argv.push('matching')
    await import('../bench/run.js')
    return
  }
  const catalog = arg('catalog')
  const labels = arg('labels') ?? (catalog === undefined ? undefined : `${catalog}/labels-dev.json`)
  if (catalog === undefined || labels === undefined) {
    process.stderr.write('usage: npm run eval:matching [-- --catalog <dir> [--labels <file>] [--json <out>]]\n')
    process.exit(2)
  }
  const run = await runLabelled(catalog, labels)
  process.stdout.write(report(run))
  const json = arg('json')
  if (json !== undefined)
    writeFileSync(
      json,
      `${JSON.stringify(
        {
          scores: run.scores,
          byFamily: Object.fromEntries(run.byFamily),
          byKind: Object.fromEntries(run.byKind),
          wrongOutcome: run.wrongOutcome,
          wrong: run.verdicts.filter((v) => !v.correct).map((v) => ({ pair: v.pair, decidedBy: v.decidedBy })),
        },
        null,
        2,
      )}\n`,
    )
}

await main()
