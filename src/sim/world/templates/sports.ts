import { dateCode, longDate, shortDate, slugify, year } from '../dates.js'
import * as N from '../names.js'
import type { Rng } from '../random.js'
import { slugsTags } from '../shapes/labels.js'
import { team, type Spelled } from '../shapes/spellings.js'
import { slackDates, slugsEndDate } from '../shapes/venue-dates.js'
import { distinct, groupTitles, multiBases, spelledContracts, suffixOf, teamDay } from './helpers.js'
import type { QuestionSpec, Template } from './types.js'

// ------------------------------------------------------------------------------------------- sports
//
// Team names differ by venue (the ticker style's "Los Angeles L" for a city two teams share, shapes/spellings.ts). Look-alikes:
// the same team's other game the same day (docs/spreads.md F10: "jets" matched Buffalo–Jets to Patriots–Jets).

/** The league's sport as the slug style tags it (a topic categories.ts knows). */
const SPORT_TAG: Record<string, string> = { PBL: 'Basketball', CFL: 'Football', NHC: 'Hockey', GBA: 'Baseball' }

function teamName(rng: Rng): string {
  return `${rng.pick(N.TEAM_CITIES)} ${rng.pick(N.TEAM_MASCOTS)}`
}

const gameKey = (lcode: string, a: string, b: string, endTime: number) => `h2h:${lcode}:${a}:${b}:${dateCode(endTime)}`

function gameSpec(
  [lname, lcode]: readonly [string, string],
  a: string,
  b: string,
  endTime: number,
  rng: Rng,
): QuestionSpec {
  const ca = suffixOf(a)
  let cb = suffixOf(b)
  if (cb === ca) cb += 'X'
  const [sa, sb] = [team(rng, a, [a, b]), team(rng, b, [a, b])]
  return {
    templateId: 'head-to-head',
    key: gameKey(lcode, a, b, endTime),
    category: 'sports',
    kind: 'binary',
    subject: `${a} vs ${b} ${shortDate(endTime)}`,
    endTime,
    model: { kind: 'binary', base: rng.normal() * 0.8 },
    complementary: true,
    contracts: [
      { label: a, onSlugs: true, onTickers: true, slugsLabel: a, tickersLabel: sa.tickers, tickersSuffix: ca },
      { label: b, onSlugs: true, onTickers: true, slugsLabel: b, tickersLabel: sb.tickers, tickersSuffix: cb },
    ],
    slugs: {
      title: `${a} vs. ${b}`,
      slug: slugify(`${lcode} ${a} ${b} ${new Date(endTime).toISOString().slice(0, 10)}`),
      description: `${lname} game on ${longDate(endTime)}. Resolves to the winner of the game.`,
      negRisk: false,
      outcomes: [a, b],
      marketQuestion: () => `${a} vs. ${b}`,
      groupItemTitle: undefined,
      tags: slugsTags(rng, 'sports', [lname, lcode, SPORT_TAG[lcode] as string]),
    },
    tickers: {
      seriesTicker: `KX${lcode}GAME`,
      seriesTitle: `${lname} game`,
      seriesCategory: 'Sports',
      frequency: 'custom',
      eventTicker: `KX${lcode}GAME-${dateCode(endTime)}${ca.slice(0, 3)}${cb.slice(0, 3)}`,
      title: `${b} vs ${a} winner? (${shortDate(endTime)})`,
      subTitle: `${sa.tickers} at ${sb.tickers}`,
      mutuallyExclusive: true,
      strikeType: 'custom',
      marketTitle: (i) => `Will the ${[a, b][i]} win the ${a} at ${b} game?`,
    },
  }
}

export const headToHead: Template<{ league: readonly [string, string]; a: string; b: string }> = {
  id: 'head-to-head',
  category: 'sports',
  weight: 4,
  horizonDays: [1, 21],
  decoyShiftDays: 7,
  pick: (rng) => {
    const [a, b] = distinct(rng, 2, () => teamName(rng))
    return { league: rng.pick(N.LEAGUES), a: a as string, b: (b ?? 'Oakmont Owls') as string }
  },
  key: ({ league, a, b }, endTime) => gameKey(league[1], a, b, endTime),
  occupies: ({ league, a, b }, endTime) => [a, b].map((t) => teamDay(league[1], t, dateCode(endTime))),
  build: ({ league, a, b }, endTime, rng) => gameSpec(league, a, b, endTime, rng),
  // The same team's game against another opponent the same day (a double-header, another fixture).
  decoy: ({ league, a, b }, endTime, rng) => {
    const c = teamName(rng)
    if (c === a || c === b) return undefined
    return { reason: 'another opponent', spec: gameSpec(league, a, c, endTime, rng) }
  },
}

export const champion: Template<{ league: readonly [string, string]; teams: string[] }> = {
  id: 'champion',
  category: 'sports',
  weight: 2,
  horizonDays: [60, 300],
  decoyShiftDays: 365,
  pick: (rng) => ({ league: rng.pick(N.LEAGUES), teams: distinct(rng, rng.int(4, 8), () => teamName(rng)) }),
  key: ({ league }, endTime) => `champion:${league[1]}:${year(endTime)}`,
  build: ({ league: [lname, lcode], teams }, endTime, rng) => {
    const y = year(endTime)
    const spelled = teams.map((t) => team(rng, t, teams))
    const ask = (name: string) => `Will the ${name} win the ${y} ${lname} championship?`
    return {
      templateId: 'champion',
      key: `champion:${lcode}:${y}`,
      category: 'sports',
      kind: 'multi',
      subject: `${lname} champion ${y}`,
      endTime,
      model: { kind: 'multi', bases: multiBases(rng, teams.length) },
      complementary: false,
      contracts: spelledContracts(rng, spelled),
      slugs: {
        title: `${lname} Champion ${y}`,
        slug: slugify(`${lname} champion ${y}`),
        description: `Resolves to the team that wins the ${y} ${lname} championship.`,
        negRisk: true,
        outcomes: undefined,
        marketQuestion: (i) => ask((spelled[i] as Spelled).slugs),
        groupItemTitle: (i) => (spelled[i] as Spelled).slugs,
        groupTitles: groupTitles(rng),
        endDate: slugsEndDate(endTime, rng),
        tags: slugsTags(rng, 'sports', [lname, SPORT_TAG[lcode] as string]),
        placeholders: { noun: rng.chance(0.5) ? 'Team' : 'Club', question: ask },
      },
      tickers: {
        seriesTicker: `KX${lcode}CHAMP`,
        seriesTitle: `${lname} champion`,
        seriesCategory: 'Sports',
        frequency: 'annual',
        eventTicker: `KX${lcode}CHAMP-${String(y % 100)}`,
        title: `Who will win the ${y} ${lname} title?`,
        subTitle: `${y} season`,
        mutuallyExclusive: true,
        strikeType: 'custom',
        marketTitle: (i) => `Will the ${(spelled[i] as Spelled).tickers} win the ${y} ${lname} title?`,
        dates: slackDates(endTime, rng),
      },
    }
  },
}
