import { dateCode, longDate } from '../dates.js'
import { teamDay } from './helpers.js'
import type { Rng } from '../random.js'
import { easternDateCode, easternIsoDate, easternOf, easternOnDateOf } from '../shapes/eastern-time.js'
import { esportsTeam, type EsportsTeam } from '../shapes/esports-teams.js'
import { tagOf } from '../shapes/labels.js'
import type { ContractSpec, QuestionSpec, Template } from './types.js'

// ------------------------------------------------------------------------------------------- esports maps
//
// Who wins map N of a match, worded as both real venues word it (the short-dated captures; the examples here are
// generated, the teams invented): the slug style one event per match, `cs2-kyr-va2-2026-05-10` "Counter-Strike: Kyrex
// Esports vs Brightline Vantor Academy", with one market per map whose two outcomes are the teams ("… - Map 2
// Winner", outcomes ["Kyrex Esports","Brightline Vantor Academy"], slug `…-game2`; LoL, Dota 2 and Call of Duty say
// "Game N Winner") and handicap markets ("Map Handicap: VA (-1.5) vs Kyrex Esports (+1.5)", slug
// `…-map-handicap-home-1pt5`, the favourite in short form); the ticker style one event per map,
// `KXCS2MAP-26MAY101000VAKYR-2` (ET date and start, both codes, the map) "Vantor Academy vs. Kyrex Esports: Map 2",
// most often in the other team order, with one market per team, `-KYR` "Kyrex Esports". A team's ticker-style
// market is the same contract as the slug-style outcome naming that team: the market's second token when it is the
// second team.
//
// Each map and each handicap is a question of its own (siblings of map 1): the other maps and the handicaps are the
// near misses, and so is the same pairing in another game title or on another date (decoys).

interface Discipline {
  /** The slug style's title prefix ("Counter-Strike: A vs B"). */
  readonly title: string
  readonly slugPrefix: string
  /** The ticker style's series stem: `KX<code>MAP`. */
  readonly code: string
  /** What the slug style calls a map ("Game 2 Winner" for LoL); the ticker style always says "Map". */
  readonly unit: 'Map' | 'Game'
  /** The slug style's handicap word, where the captures show handicap markets. */
  readonly handicap: 'Map' | 'Game' | undefined
  readonly bestOf: readonly number[]
}

export const DISCIPLINES: readonly Discipline[] = [
  { title: 'Counter-Strike', slugPrefix: 'cs2', code: 'CS2', unit: 'Map', handicap: 'Map', bestOf: [3] },
  { title: 'Valorant', slugPrefix: 'val', code: 'VALORANT', unit: 'Map', handicap: 'Map', bestOf: [3, 3, 5] },
  { title: 'LoL', slugPrefix: 'lol', code: 'LOL', unit: 'Game', handicap: undefined, bestOf: [3] },
  { title: 'Dota 2', slugPrefix: 'dota2', code: 'DOTA2', unit: 'Game', handicap: 'Game', bestOf: [3] },
  { title: 'Call of Duty', slugPrefix: 'codmw', code: 'COD', unit: 'Game', handicap: undefined, bestOf: [5] },
]

interface Handicap {
  /** The favourite is the slug style's first team ("away") or its second ("home"). */
  readonly side: 'away' | 'home'
  readonly line: number
}

export interface MatchParams {
  readonly disc: Discipline
  /** In the slug style's order (its outcomes and titles). */
  readonly a: EsportsTeam
  readonly b: EsportsTeam
  /** The ET start. */
  readonly hour: number
  readonly minute: number
  readonly bestOf: number
  /** Whether the ticker style names the second team first (as the captured events all do). */
  readonly reversed: boolean
  /** Team a's edge (logit). */
  readonly edge: number
  /** How many maps each style lists (map 1 on both). */
  readonly slugMaps: number
  readonly tickerMaps: number
  readonly handicaps: readonly Handicap[]
  /** Minutes each map runs past its slot (a map ends 40 minutes into its hour, plus these). */
  readonly overrun: readonly number[]
}

const MINUTE = 60_000
const pad2 = (n: number) => String(n).padStart(2, '0')

function matchStart(p: MatchParams, endTime: number): number {
  return easternOnDateOf(endTime, p.hour, p.minute)
}

/** When map n ends: 40 minutes into its hour of the match, plus its overrun. */
function mapEnd(p: MatchParams, start: number, n: number): number {
  return start + (40 + (n - 1) * 60 + (p.overrun[n - 1] ?? 0)) * MINUTE
}

function matchKey(p: MatchParams, endTime: number): string {
  return `esports:${p.disc.slugPrefix}:${p.a.label}:${p.b.label}:${dateCode(endTime)}`
}

/** What the slug style and the ticker style share for every market of one match. */
function matchShape(p: MatchParams, endTime: number) {
  const start = matchStart(p, endTime)
  const et = easternOf(start)
  const slug = `${p.disc.slugPrefix}-${p.a.slugCode}-${p.b.slugCode}-${easternIsoDate(et)}`
  const [first, second] = p.reversed ? [p.b, p.a] : [p.a, p.b]
  const lastMap = Math.max(p.slugMaps, p.tickerMaps)
  // The match's day is its ET date, as its slug and tickers say.
  const day = longDate(Date.UTC(et.year, et.month, et.day))
  return {
    start,
    day,
    slug,
    first,
    second,
    end: mapEnd(p, start, lastMap) + 10 * MINUTE,
    eventBase: `KX${p.disc.code}MAP-${easternDateCode(et)}${pad2(et.hour)}${pad2(et.minute)}${first.code}${second.code}`,
    title: `${p.disc.title}: ${p.a.slugs} vs ${p.b.slugs}`,
    description: `${p.disc.title} match on ${day}, best of ${p.bestOf}. Each market resolves to the team named by its outcome.`,
  }
}

const team = (t: EsportsTeam, onSlugs: boolean, onTickers: boolean, end: number, slugsLabel = t.slugs) =>
  ({
    label: t.label,
    onSlugs,
    onTickers,
    slugsLabel,
    tickersLabel: t.tickers,
    tickersSuffix: t.code,
    slugsEndDate: end,
  }) satisfies ContractSpec

/** Map n's winner: one two-outcome market in the match's event, one ticker-style event with a market per team. */
function mapSpec(p: MatchParams, endTime: number, n: number, rng: Rng): QuestionSpec {
  const m = matchShape(p, endTime)
  const end = mapEnd(p, m.start, n)
  const [onSlugs, onTickers] = [n <= p.slugMaps, n <= p.tickerMaps]
  const title = `${m.first.tickers} vs. ${m.second.tickers}: Map ${n}`
  return {
    templateId: 'esports-map',
    key: `${matchKey(p, endTime)}:map${n}`,
    category: 'sports',
    kind: 'binary',
    subject: `${p.disc.title} ${p.a.label} vs ${p.b.label} map ${n}, ${m.day}`,
    facet: `map ${n} winner`,
    endTime: end,
    model: { kind: 'binary', base: p.edge + rng.normal() * 0.4 },
    complementary: true,
    contracts: [team(p.a, onSlugs, onTickers, end), team(p.b, onSlugs, onTickers, end)],
    slugs: {
      title: m.title,
      slug: m.slug,
      eventKey: m.slug,
      description: m.description,
      negRisk: false,
      outcomes: [p.a.slugs, p.b.slugs],
      marketQuestion: () => `${m.title} - ${p.disc.unit} ${n} Winner`,
      groupItemTitle: undefined,
      marketSlug: () => `${m.slug}-game${n}`,
      endDate: m.end,
      tags: [tagOf('Sports'), tagOf('Esports')],
    },
    tickers: {
      seriesTicker: `KX${p.disc.code}MAP`,
      seriesTitle: `${p.disc.title} map winner`,
      seriesCategory: 'Sports',
      frequency: 'custom',
      eventTicker: `${m.eventBase}-${n}`,
      title,
      subTitle: `Map ${n}`,
      mutuallyExclusive: true,
      strikeType: 'custom',
      // The real markets repeat the event's title; the team is in `yes_sub_title`.
      marketTitle: () => title,
    },
  }
}

/** A handicap: the favourite wins by more than `line` maps. Only the slug style lists it, in the match's event. */
function handicapSpec(p: MatchParams, endTime: number, h: Handicap, rng: Rng): QuestionSpec {
  const m = matchShape(p, endTime)
  const [fav, dog] = h.side === 'away' ? [p.a, p.b] : [p.b, p.a]
  const word = p.disc.handicap ?? p.disc.unit
  const line = String(h.line)
  const question = `${word} Handicap: ${fav.short} (-${line}) vs ${dog.slugs} (+${line})`
  const edge = h.side === 'away' ? p.edge : -p.edge
  return {
    templateId: 'esports-map',
    key: `${matchKey(p, endTime)}:handicap:${h.side}:${line}`,
    category: 'sports',
    kind: 'binary',
    subject: `${p.disc.title} ${fav.label} ${line} handicap vs ${dog.label}, ${m.day}`,
    facet: `${word.toLowerCase()} handicap (${fav.label} -${line})`,
    endTime: m.end,
    model: { kind: 'binary', base: edge - (h.line < 2 ? 0.9 : 1.6) + rng.normal() * 0.2 },
    complementary: true,
    contracts: [team(fav, true, false, m.end, fav.short), team(dog, true, false, m.end)],
    slugs: {
      title: m.title,
      slug: m.slug,
      eventKey: m.slug,
      description: m.description,
      negRisk: false,
      outcomes: [fav.short, dog.slugs],
      marketQuestion: () => question,
      groupItemTitle: undefined,
      marketSlug: () => `${m.slug}-${word.toLowerCase()}-handicap-${h.side}-${line.replace('.', 'pt')}`,
      endDate: m.end,
      tags: [tagOf('Sports'), tagOf('Esports')],
    },
    // Never listed (no contract on the ticker style): the ticker style has no handicap series.
    tickers: {
      seriesTicker: `KX${p.disc.code}MAP`,
      seriesTitle: `${p.disc.title} map winner`,
      seriesCategory: 'Sports',
      frequency: 'custom',
      eventTicker: `${m.eventBase}-H${h.side === 'away' ? 'A' : 'H'}${line}`,
      title: question,
      subTitle: '',
      mutuallyExclusive: true,
      strikeType: 'custom',
      marketTitle: () => question,
    },
  }
}

function pickMatch(rng: Rng, disc: Discipline): MatchParams {
  const a = esportsTeam(rng)
  let b = esportsTeam(rng)
  for (let i = 0; i < 10 && (b.label === a.label || b.code === a.code || b.slugCode === a.slugCode); i++)
    b = esportsTeam(rng)
  const bestOf = rng.pick(disc.bestOf)
  const lines = bestOf === 3 ? [1.5] : [1.5, 2.5]
  const handicaps: Handicap[] = []
  if (disc.handicap !== undefined)
    for (const side of ['away', 'home'] as const)
      for (const line of lines) if (rng.chance(0.55)) handicaps.push({ side, line })
  return {
    disc,
    a,
    b,
    hour: rng.int(0, 23),
    minute: rng.chance(0.7) ? 0 : 30,
    bestOf,
    reversed: rng.chance(0.85),
    edge: rng.normal() * 0.8,
    slugMaps: bestOf === 3 ? 2 : rng.int(3, 4),
    tickerMaps: bestOf === 3 ? (rng.chance(0.25) ? 3 : 2) : 3,
    handicaps,
    overrun: Array.from({ length: bestOf }, () => rng.int(0, 15)),
  }
}

export const esportsMap: Template<MatchParams> = {
  id: 'esports-map',
  category: 'sports',
  weight: 1.5,
  horizonDays: [0, 3],
  decoyShiftDays: 2,
  pick: (rng) => pickMatch(rng, rng.pick(DISCIPLINES)),
  key: (p, endTime) => `${matchKey(p, endTime)}:map1`,
  occupies: (p, endTime) => [p.a, p.b].map((t) => teamDay(`esports:${p.disc.slugPrefix}`, t.label, dateCode(endTime))),
  build: (p, endTime, rng) => mapSpec(p, endTime, 1, rng),
  siblings: (p, endTime, rng) => {
    const maps = Math.max(p.slugMaps, p.tickerMaps)
    const out: QuestionSpec[] = []
    for (let n = 2; n <= maps; n++) out.push(mapSpec(p, endTime, n, rng.fork(n)))
    p.handicaps.forEach((h, i) => out.push(handicapSpec(p, endTime, h, rng.fork(100 + i))))
    return out
  },
  // The same pairing in another game title the same day (real teams field rosters in several).
  decoy: (p, endTime, rng) => {
    const others = DISCIPLINES.filter((d) => d !== p.disc)
    const disc = others[rng.int(0, others.length - 1)] as Discipline
    const bestOf = rng.pick(disc.bestOf)
    const maps = bestOf === 3 ? 2 : 3
    const spec = mapSpec({ ...p, disc, bestOf, slugMaps: maps, tickerMaps: maps, handicaps: [] }, endTime, 1, rng)
    return { reason: 'another game title', spec }
  },
}
