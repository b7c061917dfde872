import { dateCode, longDate, shortDate, slugify, year } from '../dates.js'
import * as N from '../names.js'
import { candidateContracts, distinct, multiBases, suffixOf } from './helpers.js'
import type { Template } from './types.js'

// ------------------------------------------------------------------------------------------- sports

export const headToHead: Template<{ league: readonly [string, string]; a: string; b: string }> = {
  id: 'head-to-head',
  category: 'sports',
  weight: 4,
  horizonDays: [1, 21],
  decoyShiftDays: 7,
  pick: (rng) => {
    const [a, b] = distinct(rng, 2, () => `${rng.pick(N.TEAM_CITIES)} ${rng.pick(N.TEAM_MASCOTS)}`)
    return { league: rng.pick(N.LEAGUES), a: a as string, b: (b ?? 'Oakmont Owls') as string }
  },
  build: ({ league: [lname, lcode], a, b }, endTime, rng) => {
    const ca = suffixOf(a)
    let cb = suffixOf(b)
    if (cb === ca) cb += 'X'
    return {
      templateId: 'head-to-head',
      key: `h2h:${lcode}:${a}:${b}:${dateCode(endTime)}`,
      category: 'sports',
      kind: 'binary',
      subject: `${a} vs ${b} ${shortDate(endTime)}`,
      endTime,
      model: { kind: 'binary', base: rng.normal() * 0.8 },
      complementary: true,
      contracts: [
        { label: a, onVenuep: true, onVenuek: true, venuepLabel: a, venuekLabel: a, venuekSuffix: ca },
        { label: b, onVenuep: true, onVenuek: true, venuepLabel: b, venuekLabel: b, venuekSuffix: cb },
      ],
      venuep: {
        title: `${a} vs. ${b}`,
        slug: slugify(`${lcode} ${a} ${b} ${new Date(endTime).toISOString().slice(0, 10)}`),
        description: `${lname} game on ${longDate(endTime)}. Resolves to the winner of the game.`,
        negRisk: false,
        outcomes: [a, b],
        marketQuestion: () => `${a} vs. ${b}`,
        groupItemTitle: undefined,
      },
      venuek: {
        seriesTicker: `KX${lcode}GAME`,
        seriesTitle: `${lname} game`,
        seriesCategory: 'Sports',
        frequency: 'custom',
        eventTicker: `KX${lcode}GAME-${dateCode(endTime)}${ca.slice(0, 3)}${cb.slice(0, 3)}`,
        title: `${b} vs ${a} winner? (${shortDate(endTime)})`,
        subTitle: `${a} at ${b}`,
        mutuallyExclusive: true,
        strikeType: 'custom',
        marketTitle: (i) => `Will the ${[a, b][i]} win the ${a} at ${b} game?`,
      },
    }
  },
}

export const champion: Template<{ league: readonly [string, string]; teams: string[] }> = {
  id: 'champion',
  category: 'sports',
  weight: 2,
  horizonDays: [60, 300],
  decoyShiftDays: 365,
  pick: (rng) => ({
    league: rng.pick(N.LEAGUES),
    teams: distinct(rng, rng.int(4, 8), () => `${rng.pick(N.TEAM_CITIES)} ${rng.pick(N.TEAM_MASCOTS)}`),
  }),
  build: ({ league: [lname, lcode], teams }, endTime, rng) => {
    const y = year(endTime)
    return {
      templateId: 'champion',
      key: `champion:${lcode}:${y}`,
      category: 'sports',
      kind: 'multi',
      subject: `${lname} champion ${y}`,
      endTime,
      model: { kind: 'multi', bases: multiBases(rng, teams.length) },
      complementary: false,
      contracts: candidateContracts(teams),
      venuep: {
        title: `${lname} Champion ${y}`,
        slug: slugify(`${lname} champion ${y}`),
        description: `Resolves to the team that wins the ${y} ${lname} championship.`,
        negRisk: true,
        outcomes: undefined,
        marketQuestion: (i) => `Will the ${teams[i]} win the ${y} ${lname} championship?`,
        groupItemTitle: (i) => teams[i] as string,
      },
      venuek: {
        seriesTicker: `KX${lcode}CHAMP`,
        seriesTitle: `${lname} champion`,
        seriesCategory: 'Sports',
        frequency: 'annual',
        eventTicker: `KX${lcode}CHAMP-${String(y % 100)}`,
        title: `Who will win the ${y} ${lname} title?`,
        subTitle: `${y} season`,
        mutuallyExclusive: true,
        strikeType: 'custom',
        marketTitle: (i) => `Will the ${teams[i]} win the ${y} ${lname} title?`,
      },
    }
  },
}
