import { dateCode, longDate, monthCode, monthYear, shortDate, slugify, year } from './dates.js'
import * as N from './names.js'
import { logit } from './path.js'
import type { Rng } from './random.js'
import type { Category, FairModel, QuestionKind } from './types.js'

/**
 * Question templates. Each produces one canonical question and how each venue words and identifies it.
 * The two venues deliberately differ in phrasing, identifiers and sometimes in which contracts they list
 * (ladder thresholds), the way real venues do. A template's subject can be rebuilt with another date or
 * threshold set to make a decoy: same wording, different question.
 */
export interface ContractSpec {
  readonly label: string
  readonly threshold?: number
  /** Which venues list this contract (ladders list overlapping subsets). */
  readonly onVenuep: boolean
  readonly onVenuek: boolean
  readonly venuepLabel: string
  readonly venuekLabel: string
  readonly venuekSuffix: string
  readonly floor?: number
  readonly cap?: number
}

export interface QuestionSpec {
  readonly templateId: string
  /** Identifies the subject and date: two specs with the same key are the same question. */
  readonly key: string
  readonly category: Category
  readonly kind: QuestionKind
  readonly subject: string
  readonly endTime: number
  readonly model: FairModel
  /** Two-contract head-to-head: contract 1 is the complement of contract 0 (one venuep market, two outcomes). */
  readonly complementary: boolean
  readonly contracts: readonly ContractSpec[]
  readonly venuep: {
    readonly title: string
    readonly slug: string
    readonly description: string
    readonly negRisk: boolean
    /** Outcome labels of a single binary market; undefined for grouped events. */
    readonly outcomes: readonly [string, string] | undefined
    readonly marketQuestion: (contractIndex: number) => string
    readonly groupItemTitle: ((contractIndex: number) => string) | undefined
  }
  readonly venuek: {
    readonly seriesTicker: string
    readonly seriesTitle: string
    readonly seriesCategory: string
    readonly frequency: string
    readonly eventTicker: string
    readonly title: string
    readonly subTitle: string
    readonly mutuallyExclusive: boolean
    readonly strikeType: 'greater' | 'between' | 'custom' | 'structured'
    readonly marketTitle: (contractIndex: number) => string
  }
}

export interface Template<P> {
  readonly id: string
  readonly category: Category
  /** Relative frequency in the world. */
  readonly weight: number
  pick(rng: Rng): P
  /** Days from now to the end date for an active question (min, max). */
  readonly horizonDays: readonly [number, number]
  /** How far a decoy's date moves (days). */
  readonly decoyShiftDays: number
  build(params: P, endTime: number, rng: Rng): QuestionSpec
}

const DAY_MS = 86_400_000

function person(rng: Rng): string {
  return `${rng.pick(N.FIRST_NAMES)} ${rng.pick(N.LAST_NAMES)}`
}

function distinct<T>(rng: Rng, n: number, make: () => T, keyOf: (t: T) => string = String): T[] {
  const out = new Map<string, T>()
  for (let guard = 0; out.size < n && guard < n * 20; guard++) {
    const t = make()
    out.set(keyOf(t), t)
  }
  return [...out.values()]
}

function suffixOf(label: string): string {
  const words = label.toUpperCase().replace(/[^A-Z0-9 ]/g, '').split(' ').filter(Boolean)
  return (words[words.length - 1] ?? 'X').slice(0, 6)
}

function multiBases(rng: Rng, n: number): number[] {
  // A favourite, a few contenders and long shots: logits spread so probabilities look like real books.
  return Array.from({ length: n }, (_, i) => (i === 0 ? 1.2 : 0) + rng.normal() * 0.9 - i * 0.35)
}

function binaryContract(label = 'Yes'): ContractSpec {
  return { label, onVenuep: true, onVenuek: true, venuepLabel: label, venuekLabel: label, venuekSuffix: 'YES' }
}

function candidateContracts(labels: string[], venuekLabel: (l: string) => string = (l) => l): ContractSpec[] {
  const used = new Set<string>()
  return labels.map((label) => {
    let suffix = suffixOf(label)
    while (used.has(suffix)) suffix += 'X'
    used.add(suffix)
    return { label, onVenuep: true, onVenuek: true, venuepLabel: label, venuekLabel: venuekLabel(label), venuekSuffix: suffix }
  })
}

function fmtMoney(x: number): string {
  if (x < 1) return `$${x.toFixed(3).replace(/0+$/, '')}`
  // Manual grouping: Number#toLocaleString is slow enough to dominate world generation.
  const [int, frac] = (Math.round(x * 100) / 100).toString().split('.') as [string, string | undefined]
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return frac === undefined ? `$${grouped}` : `$${grouped}.${frac}`
}

/** Thresholds around a level; each venue lists an overlapping subset, as real ladders differ. */
function ladder(level: number, stepFraction: number, rng: Rng): { values: number[]; onP: boolean[]; onK: boolean[] } {
  const rawStep = level * stepFraction
  const magnitude = 10 ** Math.floor(Math.log10(rawStep))
  const step = Math.max(magnitude, Math.round(rawStep / magnitude) * magnitude)
  const center = Math.round(level / step) * step
  const count = rng.int(5, 8)
  const values: number[] = []
  for (let i = 0; i < count; i++) values.push(Number((center + (i - Math.floor(count / 2)) * step).toPrecision(10)))
  const offsetP = rng.int(0, 1)
  const onP = values.map((_, i) => i >= offsetP && i < count - (1 - offsetP))
  const onK = values.map((_, i) => (i + 1) % 4 !== 0 || i === 0)
  return { values, onP, onK }
}

// ------------------------------------------------------------------------------------------- politics

const governor: Template<{ state: readonly [string, string]; candidates: string[] }> = {
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

const parliament: Template<{ country: readonly [string, string]; parties: string[] }> = {
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

const leaveOffice: Template<{ who: string; office: string; code: string }> = {
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

// ------------------------------------------------------------------------------------------- economics

const FED_LABELS = ['50+ bps decrease', '25 bps decrease', 'No change', '25+ bps increase']
const FED_LABELS_K = ['Decrease of 50+ bps', 'Decrease of 25 bps', 'No change', 'Increase of 25+ bps']

const fedDecision: Template<{ bank: string; code: string }> = {
  id: 'fed-decision',
  category: 'economics',
  weight: 2,
  horizonDays: [10, 400],
  decoyShiftDays: 42,
  pick: (rng) => rng.pick([{ bank: 'Fed', code: 'FED' }, { bank: 'ECB', code: 'ECB' }, { bank: 'BoE', code: 'BOE' }]),
  build: ({ bank, code }, endTime, rng) => ({
    templateId: 'fed-decision',
    key: `fed:${code}:${dateCode(endTime)}`,
    category: 'economics',
    kind: 'multi',
    subject: `${bank} decision ${monthYear(endTime)}`,
    endTime,
    model: { kind: 'multi', bases: [rng.normal() - 1.5, rng.normal() + 0.6, rng.normal() + 0.9, rng.normal() - 1.8] },
    complementary: false,
    contracts: FED_LABELS.map((label, i) => ({
      label,
      onVenuep: true,
      onVenuek: true,
      venuepLabel: label,
      venuekLabel: FED_LABELS_K[i] as string,
      venuekSuffix: ['C50', 'C25', 'H0', 'H25'][i] as string,
    })),
    venuep: {
      title: `${bank} decision in ${monthYear(endTime)}?`,
      slug: slugify(`${bank} decision in ${monthYear(endTime)}`),
      description: `Resolves according to the ${bank}'s announced change to its policy rate at the ${monthYear(endTime)} meeting.`,
      negRisk: true,
      outcomes: undefined,
      marketQuestion: (i) => `${bank} ${FED_LABELS[i]} after ${monthYear(endTime)} meeting?`,
      groupItemTitle: (i) => FED_LABELS[i] as string,
    },
    venuek: {
      seriesTicker: `KX${code}DECISION`,
      seriesTitle: `${bank} rate decision`,
      seriesCategory: 'Economics',
      frequency: 'custom',
      eventTicker: `KX${code}DECISION-${dateCode(endTime)}`,
      title: `${bank} rate decision on ${shortDate(endTime)}`,
      subTitle: `Meeting of ${shortDate(endTime)}`,
      mutuallyExclusive: true,
      strikeType: 'custom',
      marketTitle: (i) => `Will the ${bank} announce a ${FED_LABELS_K[i]!.toLowerCase()} on ${shortDate(endTime)}?`,
    },
  }),
}

const econLadder: Template<{ series: (typeof N.ECON_SERIES)[number]; country: readonly [string, string] }> = {
  id: 'econ-ladder',
  category: 'economics',
  weight: 2,
  horizonDays: [15, 120],
  decoyShiftDays: 31,
  pick: (rng) => ({ series: rng.pick(N.ECON_SERIES), country: rng.pick(N.COUNTRIES) }),
  build: ({ series: [name, code, unit, level, step], country: [cname, ccode] }, endTime, rng) => {
    const count = rng.int(5, 7)
    const start = Number((level - step * Math.floor(count / 2) + step * (rng.int(-2, 2))).toFixed(2))
    const values = Array.from({ length: count }, (_, i) => Number((start + i * step).toFixed(2)))
    const offsetP = rng.int(0, 1)
    const m = monthYear(endTime)
    return {
      templateId: 'econ-ladder',
      key: `econ:${code}:${ccode}:${monthCode(endTime)}`,
      category: 'economics',
      kind: 'ladder',
      subject: `${cname} ${name} ${m}`,
      endTime,
      model: { kind: 'ladder', logLevel: Math.log(level + (rng.next() - 0.5) * step * 2), sigma: (step * 2.2) / level },
      complementary: false,
      contracts: values.map((v, i) => ({
        label: `Above ${v}${unit}`,
        threshold: v,
        onVenuep: i >= offsetP && i < count - (1 - offsetP),
        onVenuek: true,
        venuepLabel: `${v}${unit}`,
        venuekLabel: `Above ${v}${unit}`,
        venuekSuffix: `T${v}`,
        floor: v,
      })),
      venuep: {
        title: `${cname} ${name} above ___ in ${m}?`,
        slug: slugify(`${cname} ${name} above in ${m}`),
        description: `Each market resolves Yes if the reported ${cname} ${name} for ${m} is above its threshold.`,
        negRisk: false,
        outcomes: undefined,
        marketQuestion: (i) => `Will ${cname} ${name} be above ${values[i]}${unit} in ${m}?`,
        groupItemTitle: (i) => `${values[i]}${unit}`,
      },
      venuek: {
        seriesTicker: `KX${code}${ccode}`,
        seriesTitle: `${cname} ${name}`,
        seriesCategory: 'Economics',
        frequency: 'monthly',
        eventTicker: `KX${code}${ccode}-${monthCode(endTime)}`,
        title: `${cname} ${name} in ${m}`,
        subTitle: `${m} release`,
        mutuallyExclusive: false,
        strikeType: 'greater',
        marketTitle: (i) => `Will ${cname} ${name} be above ${values[i]}${unit} for ${m}?`,
      },
    }
  },
}

const recession: Template<{ country: readonly [string, string] }> = {
  id: 'recession',
  category: 'economics',
  weight: 1,
  horizonDays: [60, 500],
  decoyShiftDays: 365,
  pick: (rng) => ({ country: rng.pick(N.COUNTRIES) }),
  build: ({ country: [name, code] }, endTime, rng) => {
    const y = year(endTime)
    return {
      templateId: 'recession',
      key: `recession:${code}:${y}`,
      category: 'economics',
      kind: 'binary',
      subject: `${name} recession ${y}`,
      endTime,
      model: { kind: 'binary', base: logit(0.15 + rng.next() * 0.4) },
      complementary: false,
      contracts: [binaryContract()],
      venuep: {
        title: `${name} recession in ${y}?`,
        slug: slugify(`${name} recession in ${y}`),
        description: `Resolves Yes if ${name} records two consecutive quarters of negative GDP growth in ${y}.`,
        negRisk: false,
        outcomes: ['Yes', 'No'],
        marketQuestion: () => `${name} recession in ${y}?`,
        groupItemTitle: undefined,
      },
      venuek: {
        seriesTicker: `KXREC${code}`,
        seriesTitle: `${name} recession`,
        seriesCategory: 'Economics',
        frequency: 'annual',
        eventTicker: `KXREC${code}-${String(y % 100)}`,
        title: `Will ${name} enter a recession during ${y}?`,
        subTitle: `Calendar year ${y}`,
        mutuallyExclusive: false,
        strikeType: 'structured',
        marketTitle: () => `Will ${name} be in a recession in ${y}?`,
      },
    }
  },
}

// ------------------------------------------------------------------------------------------- sports

const headToHead: Template<{ league: readonly [string, string]; a: string; b: string }> = {
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

const champion: Template<{ league: readonly [string, string]; teams: string[] }> = {
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

// ------------------------------------------------------------------------------------------- crypto

const coinLadder: Template<{ coin: (typeof N.COINS)[number] }> = {
  id: 'coin-ladder',
  category: 'crypto',
  weight: 4,
  horizonDays: [1, 60],
  decoyShiftDays: 7,
  pick: (rng) => ({ coin: rng.pick(N.COINS) }),
  build: ({ coin: [name, sym, level] }, endTime, rng) => {
    const drifted = level * Math.exp(rng.normal() * 0.08)
    const { values, onP, onK } = ladder(drifted, 0.04, rng)
    return {
      templateId: 'coin-ladder',
      key: `coin:${sym}:${dateCode(endTime)}`,
      category: 'crypto',
      kind: 'ladder',
      subject: `${name} price ${shortDate(endTime)}`,
      endTime,
      model: { kind: 'ladder', logLevel: Math.log(drifted), sigma: 0.06 },
      complementary: false,
      contracts: values.map((v, i) => ({
        label: `Above ${fmtMoney(v)}`,
        threshold: v,
        onVenuep: onP[i] as boolean,
        onVenuek: onK[i] as boolean,
        venuepLabel: fmtMoney(v),
        venuekLabel: `${fmtMoney(v)} or above`,
        venuekSuffix: `T${v}`,
        floor: v,
      })),
      venuep: {
        title: `${name} above ___ on ${longDate(endTime)}?`,
        slug: slugify(`${name} above on ${longDate(endTime)}`),
        description: `Each market resolves Yes if the ${sym}/USD price at 12:00 ET on ${longDate(endTime)} is above its threshold.`,
        negRisk: false,
        outcomes: undefined,
        marketQuestion: (i) => `Will the price of ${name} be above ${fmtMoney(values[i] as number)} on ${longDate(endTime)}?`,
        groupItemTitle: (i) => fmtMoney(values[i] as number),
      },
      venuek: {
        seriesTicker: `KX${sym}D`,
        seriesTitle: `${name} daily price`,
        seriesCategory: 'Crypto',
        frequency: 'daily',
        eventTicker: `KX${sym}D-${dateCode(endTime)}`,
        title: `${name} price on ${shortDate(endTime)}?`,
        subTitle: `At 12pm ET, ${shortDate(endTime)}`,
        mutuallyExclusive: false,
        strikeType: 'greater',
        marketTitle: (i) => `Will ${sym} be at or above ${fmtMoney(values[i] as number)} at 12pm ET on ${shortDate(endTime)}?`,
      },
    }
  },
}

const coinTouch: Template<{ coin: (typeof N.COINS)[number]; factor: number }> = {
  id: 'coin-touch',
  category: 'crypto',
  weight: 2,
  horizonDays: [20, 365],
  decoyShiftDays: 90,
  pick: (rng) => ({ coin: rng.pick(N.COINS), factor: rng.pick([1.25, 1.5, 2]) }),
  build: ({ coin: [name, sym, level], factor }, endTime, rng) => {
    const target = Number((level * factor).toPrecision(2))
    return {
      templateId: 'coin-touch',
      key: `touch:${sym}:${target}:${dateCode(endTime)}`,
      category: 'crypto',
      kind: 'binary',
      subject: `${name} reaches ${fmtMoney(target)} by ${shortDate(endTime)}`,
      endTime,
      model: { kind: 'binary', base: logit(0.1 + rng.next() * 0.35) },
      complementary: false,
      contracts: [binaryContract()],
      venuep: {
        title: `Will ${name} reach ${fmtMoney(target)} by ${longDate(endTime)}?`,
        slug: slugify(`will ${name} reach ${fmtMoney(target)} by ${longDate(endTime)}`),
        description: `Resolves Yes if any 1-minute ${sym}/USD candle trades at or above ${fmtMoney(target)} before the deadline.`,
        negRisk: false,
        outcomes: ['Yes', 'No'],
        marketQuestion: () => `Will ${name} reach ${fmtMoney(target)} by ${longDate(endTime)}?`,
        groupItemTitle: undefined,
      },
      venuek: {
        seriesTicker: `KX${sym}MAX`,
        seriesTitle: `${name} new high`,
        seriesCategory: 'Crypto',
        frequency: 'custom',
        eventTicker: `KX${sym}MAX-${dateCode(endTime)}-${target}`,
        title: `${sym} to hit ${fmtMoney(target)} before ${shortDate(endTime + DAY_MS)}?`,
        subTitle: `Before ${shortDate(endTime + DAY_MS)}`,
        mutuallyExclusive: false,
        strikeType: 'greater',
        marketTitle: () => `Will ${sym} trade at or above ${fmtMoney(target)} before ${shortDate(endTime + DAY_MS)}?`,
      },
    }
  },
}

// ------------------------------------------------------------------------------------------- culture, tech

const award: Template<{ award: (typeof N.AWARDS)[number]; nominees: string[] }> = {
  id: 'award',
  category: 'culture',
  weight: 2,
  horizonDays: [20, 300],
  decoyShiftDays: 365,
  pick: (rng) => ({ award: rng.pick(N.AWARDS), nominees: distinct(rng, rng.int(4, 6), () => rng.pick(N.WORKS)) }),
  build: ({ award: [aname, acode, acat], nominees }, endTime, rng) => {
    const y = year(endTime)
    return {
      templateId: 'award',
      key: `award:${acode}:${y}`,
      category: 'culture',
      kind: 'multi',
      subject: `${y} ${aname} ${acat}`,
      endTime,
      model: { kind: 'multi', bases: multiBases(rng, nominees.length) },
      complementary: false,
      contracts: candidateContracts(nominees),
      venuep: {
        title: `${aname} ${y}: ${acat} Winner`,
        slug: slugify(`${aname} ${y} ${acat} winner`),
        description: `Resolves to the nominee announced as ${acat} at the ${y} ${aname}.`,
        negRisk: true,
        outcomes: undefined,
        marketQuestion: (i) => `Will "${nominees[i]}" win ${acat} at the ${y} ${aname}?`,
        groupItemTitle: (i) => nominees[i] as string,
      },
      venuek: {
        seriesTicker: `KX${acode}`,
        seriesTitle: `${aname}`,
        seriesCategory: 'Entertainment',
        frequency: 'annual',
        eventTicker: `KX${acode}-${String(y % 100)}`,
        title: `${acat} at the ${y} ${aname}?`,
        subTitle: `${y} ceremony`,
        mutuallyExclusive: true,
        strikeType: 'custom',
        marketTitle: (i) => `Will ${nominees[i]} win ${acat}?`,
      },
    }
  },
}

const album: Template<{ artist: string }> = {
  id: 'album',
  category: 'culture',
  weight: 1,
  horizonDays: [15, 240],
  decoyShiftDays: 60,
  pick: (rng) => ({ artist: rng.pick(N.ARTISTS) }),
  build: ({ artist }, endTime, rng) => ({
    templateId: 'album',
    key: `album:${artist}:${dateCode(endTime)}`,
    category: 'culture',
    kind: 'binary',
    subject: `${artist} album by ${shortDate(endTime)}`,
    endTime,
    model: { kind: 'binary', base: logit(0.2 + rng.next() * 0.6) },
    complementary: false,
    contracts: [binaryContract()],
    venuep: {
      title: `New ${artist} album released by ${longDate(endTime)}?`,
      slug: slugify(`new ${artist} album released by ${longDate(endTime)}`),
      description: `Resolves Yes if ${artist} releases a new studio album before the deadline.`,
      negRisk: false,
      outcomes: ['Yes', 'No'],
      marketQuestion: () => `New ${artist} album released by ${longDate(endTime)}?`,
      groupItemTitle: undefined,
    },
    venuek: {
      seriesTicker: `KXALBUM${suffixOf(artist)}`,
      seriesTitle: `${artist} album`,
      seriesCategory: 'Entertainment',
      frequency: 'custom',
      eventTicker: `KXALBUM${suffixOf(artist)}-${dateCode(endTime)}`,
      title: `Will ${artist} drop a new album before ${shortDate(endTime + DAY_MS)}?`,
      subTitle: `Before ${shortDate(endTime + DAY_MS)}`,
      mutuallyExclusive: false,
      strikeType: 'structured',
      marketTitle: () => `Will ${artist} release an album before ${shortDate(endTime + DAY_MS)}?`,
    },
  }),
}

const launch: Template<{ company: string; product: string }> = {
  id: 'launch',
  category: 'tech',
  weight: 2,
  horizonDays: [20, 365],
  decoyShiftDays: 120,
  pick: (rng) => ({ company: rng.pick(N.COMPANIES), product: rng.pick(N.PRODUCTS) }),
  build: ({ company, product }, endTime, rng) => ({
    templateId: 'launch',
    key: `launch:${company}:${product}:${dateCode(endTime)}`,
    category: 'tech',
    kind: 'binary',
    subject: `${company} launches ${product} by ${shortDate(endTime)}`,
    endTime,
    model: { kind: 'binary', base: logit(0.1 + rng.next() * 0.7) },
    complementary: false,
    contracts: [binaryContract()],
    venuep: {
      title: `Will ${company} launch ${product} by ${longDate(endTime)}?`,
      slug: slugify(`will ${company} launch ${product} by ${longDate(endTime)}`),
      description: `Resolves Yes if ${company} makes ${product} generally available before the deadline.`,
      negRisk: false,
      outcomes: ['Yes', 'No'],
      marketQuestion: () => `Will ${company} launch ${product} by ${longDate(endTime)}?`,
      groupItemTitle: undefined,
    },
    venuek: {
      seriesTicker: `KXLAUNCH${suffixOf(company)}`,
      seriesTitle: `${company} launches`,
      seriesCategory: 'Science and Technology',
      frequency: 'custom',
      eventTicker: `KXLAUNCH${suffixOf(company)}-${dateCode(endTime)}-${suffixOf(product)}`,
      title: `${company} releases ${product} before ${shortDate(endTime + DAY_MS)}?`,
      subTitle: `Before ${shortDate(endTime + DAY_MS)}`,
      mutuallyExclusive: false,
      strikeType: 'structured',
      marketTitle: () => `Will ${company} release ${product} before ${shortDate(endTime + DAY_MS)}?`,
    },
  }),
}

const topLab: Template<{ labs: string[] }> = {
  id: 'top-lab',
  category: 'tech',
  weight: 1,
  horizonDays: [10, 200],
  decoyShiftDays: 30,
  pick: (rng) => ({ labs: distinct(rng, rng.int(4, 6), () => rng.pick(N.COMPANIES)) }),
  build: ({ labs }, endTime, rng) => {
    const m = monthYear(endTime)
    return {
      templateId: 'top-lab',
      key: `top-lab:${monthCode(endTime)}`,
      category: 'tech',
      kind: 'multi',
      subject: `top AI model ${m}`,
      endTime,
      model: { kind: 'multi', bases: multiBases(rng, labs.length) },
      complementary: false,
      contracts: candidateContracts(labs),
      venuep: {
        title: `Which company has the best AI model end of ${m}?`,
        slug: slugify(`which company has best ai model end of ${m}`),
        description: `Resolves to the company whose model ranks first on the public leaderboard at the end of ${m}.`,
        negRisk: true,
        outcomes: undefined,
        marketQuestion: (i) => `Will ${labs[i]} have the top AI model at the end of ${m}?`,
        groupItemTitle: (i) => labs[i] as string,
      },
      venuek: {
        seriesTicker: 'KXTOPAI',
        seriesTitle: 'Top AI model',
        seriesCategory: 'Science and Technology',
        frequency: 'monthly',
        eventTicker: `KXTOPAI-${monthCode(endTime)}`,
        title: `Top AI lab on the leaderboard, ${m}`,
        subTitle: `End of ${m}`,
        mutuallyExclusive: true,
        strikeType: 'custom',
        marketTitle: (i) => `Will ${labs[i]} be #1 at the end of ${m}?`,
      },
    }
  },
}

// ------------------------------------------------------------------------------------------- climate

const temperature: Template<{ city: (typeof N.CITIES)[number] }> = {
  id: 'temperature',
  category: 'climate',
  weight: 3,
  horizonDays: [1, 10],
  decoyShiftDays: 1,
  pick: (rng) => ({ city: rng.pick(N.CITIES) }),
  build: ({ city: [name, code, base] }, endTime, rng) => {
    const center = base + rng.int(-6, 6)
    const lo = center - 5
    const brackets: { label: string; labelK: string; floor?: number; cap?: number }[] = [
      { label: `${lo - 1}°F or below`, labelK: `${lo - 1}° or below`, cap: lo - 1 },
    ]
    for (let t = lo; t < lo + 10; t += 2) brackets.push({ label: `${t}-${t + 1}°F`, labelK: `${t}° to ${t + 1}°`, floor: t, cap: t + 1 })
    brackets.push({ label: `${lo + 10}°F or higher`, labelK: `${lo + 10}° or above`, floor: lo + 10 })
    return {
      templateId: 'temperature',
      key: `temp:${code}:${dateCode(endTime)}`,
      category: 'climate',
      kind: 'multi',
      subject: `${name} high temperature ${shortDate(endTime)}`,
      endTime,
      model: { kind: 'multi', bases: brackets.map((_, i) => -Math.abs(i - 3.5 + rng.normal() * 0.8) * 0.7) },
      complementary: false,
      contracts: brackets.map((b) => ({
        label: b.label,
        onVenuep: true,
        onVenuek: true,
        venuepLabel: b.label,
        venuekLabel: b.labelK,
        venuekSuffix: b.floor === undefined ? `T${b.cap}` : b.cap === undefined ? `T${b.floor}` : `B${b.floor + 0.5}`,
        ...(b.floor === undefined ? {} : { floor: b.floor }),
        ...(b.cap === undefined ? {} : { cap: b.cap }),
      })),
      venuep: {
        title: `Highest temperature in ${name} on ${longDate(endTime)}?`,
        slug: slugify(`highest temperature in ${name} on ${longDate(endTime)}`),
        description: `Resolves to the bracket containing the highest temperature recorded in ${name} on ${longDate(endTime)}.`,
        negRisk: true,
        outcomes: undefined,
        marketQuestion: (i) => `Will the highest temperature in ${name} be ${brackets[i]!.label} on ${longDate(endTime)}?`,
        groupItemTitle: (i) => brackets[i]!.label,
      },
      venuek: {
        seriesTicker: `KXHIGH${code}`,
        seriesTitle: `Highest temperature in ${name}`,
        seriesCategory: 'Climate and Weather',
        frequency: 'daily',
        eventTicker: `KXHIGH${code}-${dateCode(endTime)}`,
        title: `Highest temperature in ${name} today? (${shortDate(endTime)})`,
        subTitle: shortDate(endTime),
        mutuallyExclusive: true,
        strikeType: 'between',
        marketTitle: (i) => `Will the high temp in ${name} be ${brackets[i]!.labelK} on ${shortDate(endTime)}?`,
      },
    }
  },
}

const hottestYear: Template<Record<string, never>> = {
  id: 'hottest-year',
  category: 'climate',
  weight: 0.3,
  horizonDays: [30, 700],
  decoyShiftDays: 365,
  pick: () => ({}),
  build: (_, endTime, rng) => {
    const y = year(endTime)
    return {
      templateId: 'hottest-year',
      key: `hottest:${y}`,
      category: 'climate',
      kind: 'binary',
      subject: `${y} hottest year`,
      endTime,
      model: { kind: 'binary', base: logit(0.3 + rng.next() * 0.4) },
      complementary: false,
      contracts: [binaryContract()],
      venuep: {
        title: `Will ${y} be the hottest year on record?`,
        slug: slugify(`will ${y} be the hottest year on record`),
        description: `Resolves Yes if ${y} is reported as the warmest calendar year in the global surface temperature record.`,
        negRisk: false,
        outcomes: ['Yes', 'No'],
        marketQuestion: () => `Will ${y} be the hottest year on record?`,
        groupItemTitle: undefined,
      },
      venuek: {
        seriesTicker: 'KXHOTYEAR',
        seriesTitle: 'Hottest year on record',
        seriesCategory: 'Climate and Weather',
        frequency: 'annual',
        eventTicker: `KXHOTYEAR-${String(y % 100)}`,
        title: `${y} warmest year ever recorded?`,
        subTitle: `Calendar year ${y}`,
        mutuallyExclusive: false,
        strikeType: 'structured',
        marketTitle: () => `Will ${y} be the warmest year on record?`,
      },
    }
  },
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const TEMPLATES: readonly Template<any>[] = [
  governor, parliament, leaveOffice, fedDecision, econLadder, recession, headToHead, champion, coinLadder, coinTouch,
  award, album, launch, topLab, temperature, hottestYear,
]
