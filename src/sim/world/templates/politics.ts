import { slugify, year } from '../dates.js'
import * as N from '../names.js'
import { tickersCategory, slugsTags } from '../shapes/labels.js'
import { party, person, type Keyed, type Spelled } from '../shapes/spellings.js'
import { electionDates, slugsEndDate } from '../shapes/venue-dates.js'
import { candidateGroup, DAY_MS, distinct, groupTitles, multiBases, spelledContracts } from './helpers.js'
import type { Template } from './types.js'

// ------------------------------------------------------------------------------------------- politics
//
// Elections are long-dated in the ticker style: their markets close a year after the vote (shapes/venue-dates.ts), the vote's
// year is in `sub_title` ("In 2028"). Candidates are spelled apart and listed in part (shapes/spellings.ts,
// outcome-sets.ts); the slug style groups carry placeholder children and often no `groupItemTitle`.

export const governor: Template<{ state: readonly [string, string]; names: Keyed[] }> = {
  id: 'governor',
  category: 'politics',
  weight: 2.5,
  horizonDays: [40, 720],
  decoyShiftDays: 4 * 365,
  pick: (rng) => ({
    state: rng.pick(N.STATES),
    names: distinct(
      rng,
      rng.int(3, 5),
      () => person(rng),
      (p) => p.key,
    ),
  }),
  key: ({ state }, endTime) => `governor:${state[1]}:${year(endTime)}`,
  build: ({ state: [st, code], names }, endTime, rng) => {
    const y = year(endTime)
    const ask = (name: string) => `Will ${name} win the ${y} ${st} governor election?`
    return {
      templateId: 'governor',
      key: `governor:${code}:${y}`,
      category: 'politics',
      kind: 'multi',
      subject: `${y} ${st} governor race`,
      endTime,
      model: { kind: 'multi', bases: multiBases(rng, names.length) },
      complementary: false,
      contracts: spelledContracts(rng, names),
      slugs: {
        title: `${st} Governor Election Winner ${y}`,
        slug: slugify(`${st} governor election winner ${y}`),
        description: `This market will resolve to the candidate who wins the ${y} ${st} gubernatorial election.`,
        ...candidateGroup(rng, names, ask, endTime),
        tags: slugsTags(rng, 'politics', [st, `${st} Governor`]),
        placeholders: { noun: 'Person', question: ask },
      },
      tickers: {
        seriesTicker: `KXGOV${code}`,
        seriesTitle: `${st} governor`,
        seriesCategory: tickersCategory(`KXGOV${code}`, ['Elections', 'Politics']),
        frequency: 'custom',
        eventTicker: `KXGOV${code}-${String(y % 100)}`,
        title: `Who will win the ${st} gubernatorial race in ${y}?`,
        subTitle: `In ${y}`,
        mutuallyExclusive: true,
        strikeType: 'custom',
        marketTitle: (i) => `Will ${(names[i] as Spelled).tickers} be elected governor of ${st} in ${y}?`,
        dates: electionDates(endTime, rng),
      },
    }
  },
  // The primary is months before the general election and names the same people: winning one is not the other.
  decoy: ({ state: [st, code], names }, endTime, rng) => {
    const y = year(endTime)
    const end = endTime - rng.int(90, 150) * DAY_MS
    const ask = (name: string) => `Will ${name} win the ${y} ${st} Republican primary for governor?`
    return {
      reason: 'primary vs general election',
      spec: {
        templateId: 'governor',
        key: `governor-primary:${code}:${y}`,
        category: 'politics',
        kind: 'multi',
        subject: `${y} ${st} Republican governor primary`,
        endTime: end,
        model: { kind: 'multi', bases: multiBases(rng, names.length) },
        complementary: false,
        contracts: spelledContracts(rng, names),
        slugs: {
          title: `${st} Republican Governor Primary Winner ${y}`,
          slug: slugify(`${st} republican governor primary winner ${y}`),
          description: `Resolves to the winner of the ${y} ${st} Republican gubernatorial primary.`,
          ...candidateGroup(rng, names, ask, end),
          tags: slugsTags(rng, 'politics', [st, 'Primaries']),
          placeholders: { noun: 'Person', question: ask },
        },
        tickers: {
          seriesTicker: `KXGOVPRIMR${code}`,
          seriesTitle: `${st} Republican governor primary`,
          seriesCategory: tickersCategory(`KXGOVPRIMR${code}`, ['Elections', 'Politics']),
          frequency: 'custom',
          eventTicker: `KXGOVPRIMR${code}-${String(y % 100)}`,
          title: `Who will win the ${y} ${st} Republican primary for governor?`,
          subTitle: `In ${y}`,
          mutuallyExclusive: true,
          strikeType: 'custom',
          marketTitle: (i) => `Will ${(names[i] as Spelled).tickers} win the Republican primary for ${st} governor?`,
          dates: electionDates(end, rng),
        },
      },
    }
  },
}

export const parliament: Template<{ country: readonly [string, string]; parties: string[] }> = {
  id: 'parliament',
  category: 'politics',
  weight: 1.5,
  horizonDays: [30, 500],
  decoyShiftDays: 5 * 365,
  pick: (rng) => ({ country: rng.pick(N.COUNTRIES), parties: distinct(rng, rng.int(3, 6), () => rng.pick(N.PARTIES)) }),
  key: ({ country }, endTime) => `parliament:${country[1]}:${year(endTime)}`,
  build: ({ country: [name, code], parties }, endTime, rng) => {
    const y = year(endTime)
    const spelled = parties.map((p) => party(rng, p))
    // "the Greens", "another party" and the placeholders ("Party K") take no article.
    const ask = (p: string) =>
      `Will ${/^(the |another |Party [A-Z]$)/.test(p) ? p : `the ${p}`} win the most seats in the ${y} ${name} election?`
    return {
      templateId: 'parliament',
      key: `parliament:${code}:${y}`,
      category: 'politics',
      kind: 'multi',
      subject: `${y} ${name} parliamentary election`,
      endTime,
      model: { kind: 'multi', bases: multiBases(rng, parties.length) },
      complementary: false,
      contracts: spelledContracts(rng, spelled),
      slugs: {
        title: `${name} Parliamentary Election ${y}: Most Seats`,
        slug: slugify(`${name} parliamentary election ${y} most seats`),
        description: `Resolves to the party that wins the most seats in the ${y} ${name} parliamentary election.`,
        negRisk: true,
        outcomes: undefined,
        marketQuestion: (i) => ask((spelled[i] as Spelled).slugs),
        groupItemTitle: (i) => (spelled[i] as Spelled).slugs,
        groupTitles: groupTitles(rng),
        endDate: slugsEndDate(endTime, rng),
        tags: slugsTags(rng, 'politics', [name]),
        placeholders: { noun: 'Party', question: ask },
      },
      tickers: {
        seriesTicker: `KXPARL${code}`,
        seriesTitle: `${name} parliament`,
        seriesCategory: tickersCategory(`KXPARL${code}`, ['Elections', 'World', 'Politics']),
        frequency: 'custom',
        eventTicker: `KXPARL${code}-${String(y % 100)}`,
        title: `Which party will win the most seats in ${name} in ${y}?`,
        subTitle: rng.chance(0.5) ? `In ${y}` : `In the next ${name} general election`,
        mutuallyExclusive: true,
        strikeType: 'custom',
        marketTitle: (i) => `Will ${(spelled[i] as Spelled).tickers} win the most seats?`,
        dates: electionDates(endTime, rng),
      },
    }
  },
}
