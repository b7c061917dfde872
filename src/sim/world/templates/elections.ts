import { longDate, shortDate, slugify, year } from '../dates.js'
import * as N from '../names.js'
import { tickersCategory, slugsTags } from '../shapes/labels.js'
import { person, usParty, type Keyed, type Spelled } from '../shapes/spellings.js'
import { electionDates, slugsEndDate } from '../shapes/venue-dates.js'
import { candidateGroup, DAY_MS, distinct, groupTitles, multiBases, spelledContracts } from './helpers.js'
import type { Rng } from '../random.js'
import type { QuestionSpec, Template } from './types.js'

// ------------------------------------------------------------------------------------------- national races
//
// The real catalogs' only shared events (labels-dev.json): the 2028 presidential winner by person (the slug style "Will JD
// Vance win the 2028 US Presidential Election?", the ticker style "J.D. Vance", closing 2029-11-07) and by
// party (the slug style 13 of 15 children placeholders, the ticker style "Democratic party"). Their look-alikes:
// the nomination instead of the presidency, another state's race, "announce" instead of "nominate".

/**
 * US federal elections fall on the Tuesday after the first Monday of November of even years (presidential ones every
 * fourth). An open race is the first such election day at or after `endTime`; an ended one keeps its end.
 */
function electionDay(endTime: number, every: 2 | 4, active: boolean): number {
  if (!active) return endTime
  for (let y = year(endTime); ; y++) {
    if (y % every !== 0) continue
    const nov1 = new Date(Date.UTC(y, 10, 1)).getUTCDay()
    const day = Date.UTC(y, 10, 1 + ((8 - nov1) % 7) + 1, 16)
    if (day >= endTime) return day
  }
}

const rNomineeAsk = (y: number) => (name: string) => `Will ${name} win the ${y} Republican presidential nomination?`

function presidentialSpec(names: readonly Spelled[], endTime: number, rng: Rng, nominee: boolean): QuestionSpec {
  const y = year(endTime)
  const ask = nominee ? rNomineeAsk(y) : (name: string) => `Will ${name} win the ${y} US Presidential Election?`
  const series = nominee ? 'KXSIMNOMPRES' : 'KXSIMPRESWIN'
  return {
    templateId: 'presidential',
    key: `${nominee ? 'nominee:R' : 'president'}:${y}`,
    category: 'politics',
    kind: 'multi',
    subject: nominee ? `${y} Republican presidential nominee` : `${y} US presidential election`,
    endTime,
    model: { kind: 'multi', bases: multiBases(rng, names.length) },
    complementary: false,
    contracts: spelledContracts(rng, names),
    slugs: {
      title: nominee ? `Republican Presidential Nominee ${y}` : `Presidential Election Winner ${y}`,
      slug: slugify(nominee ? `republican presidential nominee ${y}` : `presidential election winner ${y}`),
      description: nominee
        ? `Resolves to the person the Republican Party nominates for President at its ${y} national convention.`
        : `Resolves to the person who wins the ${y} US presidential election.`,
      ...candidateGroup(rng, names, ask, endTime),
      tags: slugsTags(rng, 'politics', nominee ? ['Primaries', 'Republican Party'] : ['Presidential Election']),
      placeholders: { noun: 'Person', question: ask },
    },
    tickers: {
      seriesTicker: series,
      seriesTitle: nominee ? 'Republican presidential nominee' : 'Presidential election winner',
      seriesCategory: tickersCategory(series, ['Elections', 'Politics']),
      frequency: 'custom',
      eventTicker: `${series}-${String(y % 100)}`,
      title: nominee
        ? `Who will be the Republican nominee for President in ${y}?`
        : `${y} U.S. Presidential Election winner?`,
      subTitle: `In ${y}`,
      mutuallyExclusive: true,
      strikeType: 'custom',
      marketTitle: (i) =>
        nominee
          ? `Will ${(names[i] as Spelled).tickers} be the ${y} Republican nominee?`
          : `Will ${(names[i] as Spelled).tickers} win the ${y} presidential election?`,
      dates: electionDates(endTime, rng),
    },
  }
}

export const presidential: Template<{ names: Keyed[] }> = {
  id: 'presidential',
  category: 'politics',
  weight: 1,
  horizonDays: [200, 1100],
  decoyShiftDays: 4 * 365,
  pick: (rng) => ({
    names: distinct(
      rng,
      rng.int(6, 12),
      () => person(rng),
      (p) => p.key,
    ),
  }),
  key: (_, endTime, ctx) => `president:${year(electionDay(endTime, 4, ctx.lifecycle === 'active'))}`,
  build: ({ names }, endTime, rng, ctx) =>
    presidentialSpec(names, electionDay(endTime, 4, ctx.lifecycle === 'active'), rng, false),
  // The nomination is decided at the summer convention, months before the vote, among the same names.
  decoy: ({ names }, endTime, rng, ctx) => ({
    reason: 'nominee vs winner',
    spec: presidentialSpec(
      names,
      electionDay(endTime, 4, ctx.lifecycle === 'active') - rng.int(95, 120) * DAY_MS,
      rng,
      true,
    ),
  }),
}

type Race = { office: 'president' } | { office: 'senate' | 'governor'; state: readonly [string, string] }

const raceDay = (race: Race, endTime: number, active: boolean) =>
  electionDay(endTime, race.office === 'president' ? 4 : 2, active)

const partyRaceKey = (race: Race, endTime: number) =>
  `party:${race.office}:${race.office === 'president' ? 'US' : race.state[1]}:${year(endTime)}`

function partyRaceSpec(race: Race, endTime: number, rng: Rng): QuestionSpec {
  const y = year(endTime)
  const letters = ['D', 'R'] as const
  const parties = letters.map((p) => usParty(rng, p))
  const where = race.office === 'president' ? 'US' : race.state[0]
  const code = race.office === 'president' ? 'US' : race.state[1]
  const contest =
    race.office === 'president'
      ? `${y} US Presidential Election`
      : race.office === 'senate'
        ? `${y} ${where} Senate race`
        : `${y} ${where} governor race`
  const ask = (i: number) => `Will the ${letters[i] === 'D' ? 'Democratic' : 'Republican'} Party win the ${contest}?`
  const series =
    race.office === 'president'
      ? 'KXSIMPRESPARTY'
      : race.office === 'senate'
        ? `SIMSENATE${code}`
        : `SIMGOVPARTY${code}`
  return {
    templateId: 'party-race',
    key: partyRaceKey(race, endTime),
    category: 'politics',
    kind: 'multi',
    subject: `${contest} by party`,
    endTime,
    model: { kind: 'multi', bases: multiBases(rng, 2) },
    complementary: false,
    // The ticker style names party markets by letter (a real Senate race's markets end in -D and -R).
    contracts: spelledContracts(rng, parties).map((c, i) => ({ ...c, tickersSuffix: letters[i] as string })),
    slugs: {
      title:
        race.office === 'president'
          ? `Which party wins ${y} US Presidential Election?`
          : `${where} ${race.office === 'senate' ? 'Senate' : 'Governor'} Election Winner ${y}`,
      slug: slugify(
        race.office === 'president'
          ? `which party wins ${y} us presidential election`
          : `${where} ${race.office} election winner ${y}`,
      ),
      description: `Resolves to the party whose candidate wins the ${contest}.`,
      negRisk: true,
      outcomes: undefined,
      marketQuestion: ask,
      groupItemTitle: (i) => (parties[i] as Spelled).slugs,
      groupTitles: groupTitles(rng),
      endDate: slugsEndDate(endTime, rng),
      tags: slugsTags(rng, 'politics', race.office === 'president' ? [] : [where]),
      placeholders: { noun: 'Party', question: (p) => `Will ${p} win the ${contest}?` },
    },
    tickers: {
      seriesTicker: series,
      seriesTitle: `${contest.replace(/^\d+ /, '')} by party`,
      seriesCategory: tickersCategory(series, ['Politics', 'Politics', 'Elections']),
      frequency: 'custom',
      eventTicker: `${series}-${race.office === 'president' ? y : String(y % 100)}`,
      title:
        race.office === 'president'
          ? `${y} Presidential Election winner? (Party)`
          : race.office === 'senate'
            ? `${where} Senate winner? (${y})`
            : `Who will win the governorship in ${where}?`,
      subTitle: `In ${y}`,
      mutuallyExclusive: true,
      strikeType: 'custom',
      marketTitle: (i) => `Will the ${letters[i] === 'D' ? 'Democratic' : 'Republican'} candidate win the ${contest}?`,
      dates: electionDates(endTime, rng),
    },
  }
}

export const partyRace: Template<{ race: Race }> = {
  id: 'party-race',
  category: 'politics',
  weight: 1.5,
  horizonDays: [60, 1100],
  decoyShiftDays: 2 * 365,
  pick: (rng) => {
    const r = rng.next()
    return {
      race: r < 0.2 ? { office: 'president' } : { office: r < 0.65 ? 'senate' : 'governor', state: rng.pick(N.STATES) },
    }
  },
  key: ({ race }, endTime, ctx) => partyRaceKey(race, raceDay(race, endTime, ctx.lifecycle === 'active')),
  build: ({ race }, endTime, rng, ctx) => partyRaceSpec(race, raceDay(race, endTime, ctx.lifecycle === 'active'), rng),
  // The same office in another state: the same two party outcomes, another contract.
  decoy: ({ race }, endTime, rng, ctx) => {
    if (race.office === 'president') return undefined
    const others = N.STATES.filter((s) => s[1] !== race.state[1])
    return {
      reason: 'another state',
      spec: partyRaceSpec(
        { office: race.office, state: rng.pick(others) },
        raceDay(race, endTime, ctx.lifecycle === 'active'),
        rng,
      ),
    }
  },
}

const OFFICES: readonly [name: string, code: string][] = [
  ['Central Bank Chair', 'CB'],
  ['Attorney General', 'AG'],
  ['Defense Secretary', 'DEF'],
  ['Chief Justice', 'CJ'],
]

const appointmentKey = (verb: string, ccode: string, ocode: string, endTime: number) =>
  `appointment:${verb}:${ccode}:${ocode}:${year(endTime)}`

function appointmentSpec(
  country: readonly [string, string],
  office: readonly [string, string],
  names: readonly Spelled[],
  endTime: number,
  rng: Rng,
  verb: 'nominate' | 'announce',
): QuestionSpec {
  const [cname, ccode] = country
  const [oname, ocode] = office
  const by = longDate(endTime)
  const ask = (n: string) =>
    verb === 'nominate'
      ? `Will the President of ${cname} nominate ${n} as the next ${oname}?`
      : `Will the President of ${cname} announce ${n} as next ${oname} by ${by}?`
  const series = `KX${verb === 'nominate' ? 'NOM' : 'ANN'}${ccode}${ocode}`
  return {
    templateId: 'appointment',
    key: appointmentKey(verb, ccode, ocode, endTime),
    category: 'politics',
    kind: 'multi',
    subject: `${cname} ${oname} ${verb === 'nominate' ? 'nomination' : 'announcement'}`,
    endTime,
    model: { kind: 'multi', bases: multiBases(rng, names.length) },
    complementary: false,
    contracts: spelledContracts(rng, names),
    slugs: {
      title:
        verb === 'nominate'
          ? `Who will the President of ${cname} nominate as ${oname}?`
          : `Who will the President of ${cname} announce as next ${oname} by ${by}?`,
      slug: slugify(`who will the president of ${cname} ${verb} as ${oname}`),
      description: `Resolves to the person the President of ${cname} formally ${verb === 'nominate' ? 'nominates' : 'announces'} as ${oname}.`,
      ...candidateGroup(rng, names, ask, endTime),
      tags: slugsTags(rng, 'politics', [cname, oname]),
      placeholders: { noun: 'Individual', question: ask },
    },
    tickers: {
      seriesTicker: series,
      seriesTitle: `${cname} ${oname} ${verb === 'nominate' ? 'nominee' : 'announcement'}`,
      seriesCategory: tickersCategory(series, ['Politics', 'World']),
      frequency: 'custom',
      eventTicker: `${series}-${String(year(endTime) % 100)}`,
      title:
        verb === 'nominate'
          ? `Who will the President of ${cname} nominate as ${oname}?`
          : `Who will be announced as ${cname}'s next ${oname}?`,
      subTitle: `Before ${shortDate(endTime + DAY_MS)}`,
      mutuallyExclusive: true,
      strikeType: 'custom',
      marketTitle: (i) =>
        `Will ${(names[i] as Spelled).tickers} be ${verb === 'nominate' ? 'nominated' : 'announced'} as ${oname}?`,
    },
  }
}

export const appointment: Template<{
  country: readonly [string, string]
  office: readonly [string, string]
  names: Keyed[]
}> = {
  id: 'appointment',
  category: 'politics',
  weight: 1,
  horizonDays: [20, 400],
  decoyShiftDays: 180,
  pick: (rng) => ({
    country: rng.pick(N.COUNTRIES),
    office: rng.pick(OFFICES),
    names: distinct(
      rng,
      rng.int(4, 8),
      () => person(rng),
      (p) => p.key,
    ),
  }),
  key: ({ country, office }, endTime) => appointmentKey('nominate', country[1], office[1], endTime),
  build: ({ country, office, names }, endTime, rng) =>
    appointmentSpec(country, office, names, endTime, rng, 'nominate'),
  // Announcing a pick comes before (and without) the formal nomination: the same names, another contract.
  decoy: ({ country, office, names }, endTime, rng) => ({
    reason: 'announce vs nominate',
    spec: appointmentSpec(country, office, names, endTime, rng, 'announce'),
  }),
}
