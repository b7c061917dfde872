import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { buildCatalogSnapshot, type CatalogSnapshot } from '../../../src/actors/catalog-snapshot.js'
import type { Simulator } from '../../../src/sim/simulator.js'
import { matchEvents, type EventMatch } from '../../../src/spreads/matching/matcher.js'
import { SpecCache } from '../../../src/spreads/matching/contract.js'
import { scoreLabels } from '../../../src/spreads/matching/evaluation.js'
import { REAL_LABEL_FIELDS } from '../../../bench/sections/matching.js'
import { replayedCatalogs } from '../../helpers/catalogs.js'
import { fixtureJson } from '../../helpers/fixtures.js'
import type { RealLabel } from '../../helpers/real-labels.js'

/**
 * The matcher on what the venues really publish: the real captured catalogs (test/fixtures/real-venues) against the
 * hand-labelled development pairs. Every "different" pair stays unmatched (a false match is a phantom spread) and
 * every "same" pair is found. The labels are few on the "same" side; `npm run eval:matching` lists every match the
 * matcher makes on these catalogs for review (bench/matches-real.md).
 */
const LABELS = fixtureJson<RealLabel[]>('real-venues/labels-dev.json')

let sim: Simulator
let venuep: CatalogSnapshot
let venuek: CatalogSnapshot
let matches: EventMatch[]
const score = () =>
  scoreLabels(
    matches,
    LABELS,
    { catalog: venuep, fields: REAL_LABEL_FIELDS.venuep! },
    { catalog: venuek, fields: REAL_LABEL_FIELDS.venuek! },
    new SpecCache(),
  )

before(async () => {
  const r = await replayedCatalogs()
  sim = r.sim
  venuep = buildCatalogSnapshot(r.venuep, 1)
  venuek = buildCatalogSnapshot(r.venuek, 1)
  matches = matchEvents(venuep, venuek)
})

after(() => sim?.close())

describe('the matcher on the real catalogs and their labelled pairs', () => {
  test('no labelled "different" pair is matched and every "same" pair is', () => {
    const { verdicts, scores } = score()
    const wrong = verdicts
      .filter((v) => !v.correct)
      .map((v) => {
        const why =
          v.judgement === undefined
            ? 'a side is not listed'
            : v.judgement.same
              ? `judged same (${v.judgement.grade})`
              : `${v.judgement.test}: ${v.judgement.reason}`
        return `${v.pair.label} ${(v.pair as RealLabel).venuep.market_slug} ~ ${(v.pair as RealLabel).venuek.market_ticker}: ${v.matched ? 'matched' : 'not matched'} (${why})`
      })
    assert.deepEqual(wrong, [])
    assert.deepEqual({ fp: scores.fp, fn: scores.fn }, { fp: 0, fn: 0 })
    assert.ok(scores.tp >= 2, 'the labelled same pairs are found')
    // Every labelled pair's two contracts are in the catalogs: the test judges them, not their absence.
    assert.deepEqual(
      verdicts.filter((v) => v.judgement === undefined).map((v) => (v.pair as RealLabel).venuep.market_slug),
      [],
    )
  })

  test('each rejected "different" pair is rejected by a rule that names the difference', () => {
    const { verdicts } = score()
    for (const v of verdicts.filter((x) => x.pair.label === 'different')) {
      assert.ok(v.judgement !== undefined && !v.judgement.same, (v.pair as RealLabel).venuep.market_slug)
      assert.match(v.judgement.reason, /\S/)
    }
  })

  test('every published pair explains itself: the shared words, the period, and the texts read', () => {
    const pairs = matches.flatMap((m) => m.outcomes)
    assert.ok(pairs.length >= 2)
    for (const o of pairs) {
      const e = o.explanation.evidence
      assert.ok(e !== undefined && e.shared.length > 0 && e.period.length > 0, o.outcomeKey)
      assert.ok(o.explanation.a.text.length > 0 && o.explanation.b.text.length > 0)
    }
  })
})

/**
 * Rules must be true of the venues in general: no labelled slug, ticker or question may appear in the matcher's
 * source (nor anywhere in src/), so what is measured on held-out labels is what the rules do, not what they memorised.
 */
test('no labelled slug, ticker or question is named in src/', () => {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../src')
  const needles = new Set<string>()
  for (const l of LABELS) {
    for (const x of [
      l.venuep.event_slug,
      l.venuep.market_slug,
      l.venuek.event_ticker,
      l.venuek.market_ticker,
      l.venuep.question,
      l.venuek.title,
    ])
      if (x.length >= 8) needles.add(x.toLowerCase())
  }
  const hits: string[] = []
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else if (/\.(ts|json|sql)$/.test(name)) {
        const text = readFileSync(path, 'utf8').toLowerCase()
        for (const n of needles) if (text.includes(n)) hits.push(`${path.slice(root.length + 1)}: ${n}`)
      }
    }
  }
  walk(root)
  assert.deepEqual(hits, [])
})
