import { dateCode, longDate, slugify, year } from '../dates.js'
import * as N from '../names.js'
import type { Rng } from '../random.js'
import { easternOnDateOf } from '../shapes/eastern-time.js'
import { tagOf } from '../shapes/labels.js'
import { person, type Keyed } from '../shapes/spellings.js'
import { distinct } from './helpers.js'
import type { QuestionSpec, Template } from './types.js'

// ------------------------------------------------------------------------------------------- golf finishes
//
// Where a player finishes in a tournament, as the brief and the real labels' rules (SOURCES.md of the short-dated
// captures) describe the venues' golf markets: the ticker style one event per tournament and finish ("Top 10"), a
// market per player; the slug style one group per tournament and finish, a Yes/No market per player, "Will Alicia
// Moreau finish in the top 10 at the Harbor City Classic?" (the winner: "Will … win the …?"). Names are spelled
// apart as elsewhere (shapes/spellings.ts: "Zach"/"Zachary" is the real labels' example). Winner, top 5 and top 10
// are different contracts: the same player's other finishes are siblings, hence hard negatives.
//
// Top 5 and top 10 are not exclusive across players, so each player's finish is a question of its own (binary),
// its market listed in the tournament's event on each venue (`eventKey`).

interface GolfParams {
  readonly tournament: readonly [name: string, code: string]
  readonly players: readonly Keyed[]
  /** Each player's form (logit), shared by their finishes. */
  readonly form: readonly number[]
  /** The finishes listed: 1 (the winner), 5, 10. */
  readonly finishes: readonly number[]
  /** Per player and finish (row-major), whether each style lists it: bit 1 the slug style, bit 2 the ticker style. */
  readonly listed: readonly number[]
}

/** Logit of a player of average form finishing within N (about 1 in 14, 5 in 14, 10 in 14). */
const BASE: Record<number, number> = { 1: -2.6, 5: -0.6, 10: 0.9 }

const finishWord = (n: number) => (n === 1 ? 'winner' : `top ${n}`)

function keyOf(p: GolfParams, endTime: number, player: number, n: number): string {
  return `golf:${p.tournament[1]}:${dateCode(endTime)}:${n}:${p.players[player]?.key}`
}

function finishSpec(p: GolfParams, endTime: number, player: number, n: number, rng: Rng): QuestionSpec {
  const [name, code] = p.tournament
  const who = p.players[player] as Keyed
  const y = year(endTime)
  const bits = p.listed[player * p.finishes.length + p.finishes.indexOf(n)] ?? 3
  // The final round ends in the early evening, ET.
  const end = easternOnDateOf(endTime, 19)
  const slug = slugify(`${name} ${y} ${n === 1 ? 'winner' : `top ${n}`}`)
  const series = n === 1 ? 'KXGOLFWIN' : `KXGOLFTOP${n}`
  const question =
    n === 1 ? `Will ${who.slugs} win the ${name}?` : `Will ${who.slugs} finish in the top ${n} at the ${name}?`
  const tickersTitle = n === 1 ? `${name} ${y} winner?` : `${name} ${y}: Top ${n}`
  // The player's first initial and the start of the last name ("AMORE"); a clash takes a digit (unique-key.ts).
  const words = who.tickers
    .toUpperCase()
    .replace(/[^A-Z ]/g, '')
    .split(' ')
    .filter(Boolean)
  const suffix = `${words[0]?.[0] ?? ''}${(words[words.length - 1] ?? '').slice(0, 4)}`
  return {
    templateId: 'golf-finish',
    key: keyOf(p, endTime, player, n),
    category: 'sports',
    kind: 'binary',
    subject: `${who.label} ${finishWord(n)} at the ${name} ${y}`,
    facet: finishWord(n),
    endTime: end,
    model: { kind: 'binary', base: (BASE[n] as number) + (p.form[player] as number) + rng.normal() * 0.1 },
    complementary: false,
    contracts: [
      {
        // The player, not "Yes": the same player's other finishes share the label (the siblings' hard negatives).
        label: who.label,
        onSlugs: (bits & 1) !== 0,
        onTickers: (bits & 2) !== 0,
        slugsLabel: who.slugs,
        tickersLabel: who.tickers,
        tickersSuffix: suffix,
      },
    ],
    slugs: {
      title: n === 1 ? `${name} Winner` : `${name}: Top ${n} Finish`,
      slug,
      // The edition's: the same tournament on another date is another event.
      eventKey: `${slug}:${dateCode(endTime)}`,
      description: `Each market resolves Yes if its player ${n === 1 ? 'wins' : `finishes in the top ${n} (ties included) at`} the ${name} ${y}.`,
      negRisk: n === 1,
      outcomes: undefined,
      marketQuestion: () => question,
      groupItemTitle: () => who.slugs,
      groupTitles: 'title',
      marketSlug: () => slugify(question),
      endDate: end,
      tags: [tagOf('Sports'), tagOf('Golf'), tagOf(name)],
    },
    tickers: {
      seriesTicker: series,
      seriesTitle: n === 1 ? 'Golf tournament winner' : `Golf top ${n} finish`,
      seriesCategory: 'Sports',
      frequency: 'weekly',
      eventTicker: `${series}-${code}${String(y % 100)}`,
      eventKey: `${series}-${code}-${dateCode(endTime)}`,
      title: tickersTitle,
      subTitle: n === 1 ? 'Winner' : `Top ${n}`,
      mutuallyExclusive: n === 1,
      strikeType: 'custom',
      marketTitle: () =>
        n === 1 ? `Will ${who.tickers} win the ${name}?` : `Will ${who.tickers} finish top ${n} at the ${name}?`,
    },
  }
}

export const golfFinish: Template<GolfParams> = {
  id: 'golf-finish',
  category: 'sports',
  weight: 0.1,
  horizonDays: [1, 6],
  decoyShiftDays: 7,
  pick: (rng) => {
    const players = distinct(
      rng,
      rng.int(6, 10),
      () => person(rng),
      (p) => p.key,
    )
    const finishes = rng.chance(0.5) ? [10, 5, 1] : rng.chance(0.5) ? [10, 1] : [5, 10]
    return {
      tournament: rng.pick(N.GOLF_TOURNAMENTS),
      players,
      form: players.map(() => rng.normal() * 0.8),
      finishes,
      // Each style lists most players of each finish, not the same ones (8 in 10 on each, both on about 2 in 3).
      // The first player's first finish (the planned question) on both.
      listed: players.flatMap((_, i) =>
        finishes.map((_, f) => (i + f === 0 ? 3 : (rng.chance(0.8) ? 1 : 0) | (rng.chance(0.8) ? 2 : 0))),
      ),
    }
  },
  key: (p, endTime) => keyOf(p, endTime, 0, p.finishes[0] as number),
  build: (p, endTime, rng) => finishSpec(p, endTime, 0, p.finishes[0] as number, rng),
  // Every other player and finish of the tournament: the same player's other finishes are the near misses.
  siblings: (p, endTime, rng) => {
    const out: QuestionSpec[] = []
    p.players.forEach((_, player) =>
      p.finishes.forEach((n, f) => {
        if (player > 0 || f > 0) out.push(finishSpec(p, endTime, player, n, rng.fork(player * 10 + f)))
      }),
    )
    return out
  },
}
