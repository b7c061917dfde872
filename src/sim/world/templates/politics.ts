import { dateCode, longDate, shortDate, slugify, year } from '../dates.js'
import * as N from '../names.js'
import { logit } from '../path.js'
import { binaryContract, candidateContracts, DAY_MS, distinct, multiBases, person } from './helpers.js'
import type { Template } from './types.js'

// ------------------------------------------------------------------------------------------- politics

export const governor: Template<{ state: readonly [string, string]; candidates: string[] }> = {
  id: 'governor',
  category: 'politics',
  weight: 3,
  horizonDays: [40, 720],
  decoyShiftDays: 4 * 365,
  pick: (rng) => ({ state: rng.pick(N.STATES), candidates: distinct(rng, rng.int(3, 5), () => person(rng)) }),
  build: ({ state: [st, code], candidates }, endTime, rng) => {
    const y = year(endTime)
    return {
      templateId: 'governor',
      key: `governor:${code}:${y}`,
      category: 'politics',
      kind: 'multi',
      subject: `${y} ${st} governor race`,
      endTime,
      model: { kind: 'multi', bases: multiBases(rng, candidates.length) },
      complementary: false,
      contracts: candidateContracts(candidates),
      venuep: {
        title: `${st} Governor Election Winner ${y}`,
        slug: slugify(`${st} governor election winner ${y}`),
        description: `This market will resolve to the candidate who wins the ${y} ${st} gubernatorial election.`,
        negRisk: true,
        outcomes: undefined,
        marketQuestion: (i) => `Will ${candidates[i]} win the ${y} ${st} governor election?`,
        groupItemTitle: (i) => candidates[i] as string,
      },
      venuek: {
        seriesTicker: `KXGOV${code}`,
        seriesTitle: `${st} governor`,
        seriesCategory: 'Elections',
        frequency: 'custom',
        eventTicker: `KXGOV${code}-${String(y % 100)}`,
        title: `Who will win the ${st} gubernatorial race in ${y}?`,
        subTitle: `${st} ${y}`,
        mutuallyExclusive: true,
        strikeType: 'custom',
        marketTitle: (i) => `Will ${candidates[i]} be elected governor of ${st} in ${y}?`,
      },
    }
  },
}

export const parliament: Template<{ country: readonly [string, string]; parties: string[] }> = {
  id: 'parliament',
  category: 'politics',
  weight: 2,
  horizonDays: [30, 500],
  decoyShiftDays: 5 * 365,
  pick: (rng) => ({ country: rng.pick(N.COUNTRIES), parties: distinct(rng, rng.int(3, 5), () => rng.pick(N.PARTIES)) }),
  build: ({ country: [name, code], parties }, endTime, rng) => {
    const y = year(endTime)
    return {
      templateId: 'parliament',
      key: `parliament:${code}:${y}`,
      category: 'politics',
      kind: 'multi',
      subject: `${y} ${name} parliamentary election`,
      endTime,
      model: { kind: 'multi', bases: multiBases(rng, parties.length) },
      complementary: false,
      contracts: candidateContracts(parties, (p) => `The ${p}`),
      venuep: {
        title: `${name} Parliamentary Election ${y}: Most Seats`,
        slug: slugify(`${name} parliamentary election ${y} most seats`),
        description: `Resolves to the party that wins the most seats in the ${y} ${name} parliamentary election.`,
        negRisk: true,
        outcomes: undefined,
        marketQuestion: (i) => `Will the ${parties[i]} win the most seats in the ${y} ${name} election?`,
        groupItemTitle: (i) => parties[i] as string,
      },
      venuek: {
        seriesTicker: `KXPARL${code}`,
        seriesTitle: `${name} parliament`,
        seriesCategory: 'Elections',
        frequency: 'custom',
        eventTicker: `KXPARL${code}-${String(y % 100)}`,
        title: `Which party will win the most seats in ${name} in ${y}?`,
        subTitle: `${name} general election ${y}`,
        mutuallyExclusive: true,
        strikeType: 'custom',
        marketTitle: (i) => `Will the ${parties[i]} win the most seats?`,
      },
    }
  },
}

export const leaveOffice: Template<{ who: string; office: string; code: string }> = {
  id: 'leave-office',
  category: 'politics',
  weight: 2,
  horizonDays: [10, 300],
  decoyShiftDays: 90,
  pick: (rng) => {
    const [country, code] = rng.pick(N.COUNTRIES)
    const office = rng.pick([`Prime Minister of ${country}`, `President of ${country}`, `Finance Minister of ${country}`])
    return { who: person(rng), office, code: `${code}${office.split(' ')[0]!.slice(0, 2).toUpperCase()}` }
  },
  build: ({ who, office, code }, endTime, rng) => ({
    templateId: 'leave-office',
    key: `leave-office:${who}:${office}:${dateCode(endTime)}`,
    category: 'politics',
    kind: 'binary',
    subject: `${who} out as ${office}`,
    endTime,
    model: { kind: 'binary', base: logit(0.08 + rng.next() * 0.5) },
    complementary: false,
    contracts: [binaryContract()],
    venuep: {
      title: `${who} out as ${office} by ${longDate(endTime)}?`,
      slug: slugify(`${who} out as ${office} by ${longDate(endTime)}`),
      description: `Resolves Yes if ${who} ceases to be ${office} before the end of ${longDate(endTime)} ET.`,
      negRisk: false,
      outcomes: ['Yes', 'No'],
      marketQuestion: () => `${who} out as ${office} by ${longDate(endTime)}?`,
      groupItemTitle: undefined,
    },
    venuek: {
      seriesTicker: `KXOUT${code}`,
      seriesTitle: `${office} departure`,
      seriesCategory: 'Politics',
      frequency: 'custom',
      eventTicker: `KXOUT${code}-${dateCode(endTime)}`,
      title: `Will ${who} leave office as ${office} before ${shortDate(endTime + DAY_MS)}?`,
      subTitle: `Before ${shortDate(endTime + DAY_MS)}`,
      mutuallyExclusive: false,
      strikeType: 'structured',
      marketTitle: () => `Will ${who} leave office before ${shortDate(endTime + DAY_MS)}?`,
    },
  }),
}
