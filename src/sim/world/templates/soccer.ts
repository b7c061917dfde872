import { dateCode, longDate } from '../dates.js'
import { teamDay } from './helpers.js'
import * as N from '../names.js'
import type { Rng } from '../random.js'
import { easternDateCode, easternIsoDate, easternOf, easternOnDateOf } from '../shapes/eastern-time.js'
import { tagOf } from '../shapes/labels.js'
import type { ContractSpec, QuestionSpec, Template } from './types.js'

// ------------------------------------------------------------------------------------------- football matches
//
// A football (soccer) match with a draw, as both real venues list one (the brief's shapes and the real labels' rules,
// SOURCES.md of the short-dated captures: "Kalshi TIE = end in a draw", "Kalshi both-teams-to-score (Away at Home)
// vs Polymarket BTTS"): the ticker style one event with a market per team and a "Tie" market (`-TIE`); the slug style
// a neg-risk event with three Yes/No markets, "Will Harbor City FC win on 2026-05-10?", "Will Harbor City FC vs.
// Eastport Rovers end in a draw?", "Will Eastport Rovers win on 2026-05-10?". Both list whether both teams score,
// a question of its own (a sibling): the slug style in the match's "More Markets" event, the ticker style in a series
// of its own titled "Away at Home". A win and the draw read alike ("Harbor City FC" in both) but are different
// contracts; so are the same clubs on another date (decoys).

interface Club {
  readonly label: string
  /** The slug style's name: the full club name. */
  readonly slugs: string
  /** The ticker style's name: "FC" left off now and then. */
  readonly tickers: string
  readonly code: string
}

interface MatchParams {
  readonly league: readonly [name: string, code: string]
  readonly home: Club
  readonly away: Club
  /** Kick-off, ET. */
  readonly hour: number
  readonly bases: readonly number[]
}

const HOUR_MS = 3_600_000

function club(rng: Rng, city: string): Club {
  const name = `${city} ${rng.pick(N.CLUB_SUFFIXES)}`
  const tickers = name.endsWith(' FC') && rng.chance(0.4) ? name.slice(0, -3) : name
  return {
    label: name,
    slugs: name,
    tickers,
    code: city
      .replace(/[^A-Za-z]/g, '')
      .slice(0, 3)
      .toUpperCase(),
  }
}

const keyOf = (p: MatchParams, endTime: number) =>
  `soccer:${p.league[1]}:${p.home.label}:${p.away.label}:${dateCode(endTime)}`

function shape(p: MatchParams, endTime: number) {
  const kickoff = easternOnDateOf(endTime, p.hour)
  const et = easternOf(kickoff)
  const iso = easternIsoDate(et)
  const prefix = p.league[1].toLowerCase()
  return {
    // Full time with stoppages: two hours after kick-off.
    end: kickoff + 2 * HOUR_MS,
    iso,
    day: longDate(Date.UTC(et.year, et.month, et.day)),
    slug: `${prefix}-${p.home.code.toLowerCase()}-${p.away.code.toLowerCase()}-${iso}`,
    tickerDate: `${easternDateCode(et)}${p.away.code}${p.home.code}`,
    title: `${p.home.slugs} vs. ${p.away.slugs}`,
  }
}

const both = (label: string, slugsLabel: string, tickersLabel: string, tickersSuffix: string): ContractSpec => ({
  label,
  onSlugs: true,
  onTickers: true,
  slugsLabel,
  tickersLabel,
  tickersSuffix,
})

/** Who wins, or a draw: three contracts, one neg-risk group in the slug style, one event of three markets in the ticker style. */
function resultSpec(p: MatchParams, endTime: number): QuestionSpec {
  const m = shape(p, endTime)
  const { home, away } = p
  const draw = `Draw (${m.title})`
  const contracts: ContractSpec[] = [
    both(home.label, home.slugs, home.tickers, home.code),
    // The draw reads like the home side's win ("Harbor City FC" in both): a look-alike, not the same contract.
    { ...both('Draw', draw, 'Tie', 'TIE'), lookalikeOf: 0, lookalikeReason: 'draw vs win' },
    both(away.label, away.slugs, away.tickers, away.code),
  ]
  const questions = [
    `Will ${home.slugs} win on ${m.iso}?`,
    `Will ${m.title} end in a draw?`,
    `Will ${away.slugs} win on ${m.iso}?`,
  ]
  const title = `${home.tickers} vs ${away.tickers}`
  return {
    templateId: 'soccer-match',
    key: keyOf(p, endTime),
    category: 'sports',
    kind: 'multi',
    subject: `${p.league[0]}: ${home.label} vs ${away.label}, ${m.day}`,
    facet: 'match result',
    endTime: m.end,
    model: { kind: 'multi', bases: p.bases },
    complementary: false,
    contracts,
    slugs: {
      title: m.title,
      slug: m.slug,
      description: `${p.league[0]} match on ${m.day}. Each market resolves on the result after 90 minutes and stoppage time.`,
      negRisk: true,
      outcomes: undefined,
      marketQuestion: (i) => questions[i] as string,
      groupItemTitle: (i) => (contracts[i] as ContractSpec).slugsLabel,
      groupTitles: 'title',
      marketSlug: (i) => `${m.slug}-${i === 1 ? 'draw' : (contracts[i] as ContractSpec).tickersSuffix.toLowerCase()}`,
      endDate: m.end,
      tags: [tagOf('Sports'), tagOf('Soccer'), tagOf(p.league[0])],
    },
    tickers: {
      seriesTicker: `KX${p.league[1]}GAME`,
      seriesTitle: `${p.league[0]} game`,
      seriesCategory: 'Sports',
      frequency: 'custom',
      eventTicker: `KX${p.league[1]}GAME-${m.tickerDate}`,
      title,
      subTitle: `${away.tickers} at ${home.tickers} (${m.day})`,
      mutuallyExclusive: true,
      strikeType: 'custom',
      marketTitle: () => `${title} Winner?`,
    },
  }
}

/** Both teams score: Yes/No in the slug style's "More Markets" event, one market titled "Away at Home" in the ticker style. */
function bttsSpec(p: MatchParams, endTime: number, rng: Rng): QuestionSpec {
  const m = shape(p, endTime)
  const awayAtHome = `${p.away.tickers} at ${p.home.tickers}`
  const question = `${m.title}: Both Teams to Score`
  return {
    templateId: 'soccer-match',
    key: `${keyOf(p, endTime)}:btts`,
    category: 'sports',
    kind: 'binary',
    subject: `${p.home.label} vs ${p.away.label} both teams to score, ${m.day}`,
    facet: 'both teams to score',
    endTime: m.end,
    model: { kind: 'binary', base: 0.2 + rng.normal() * 0.4 },
    complementary: false,
    contracts: [both('Yes', 'Yes', awayAtHome, 'BTTS')],
    slugs: {
      title: `${m.title} - More Markets`,
      slug: `${m.slug}-more-markets`,
      description: `Resolves Yes if both teams score in ${m.title} on ${m.day}.`,
      negRisk: false,
      outcomes: ['Yes', 'No'],
      marketQuestion: () => question,
      groupItemTitle: undefined,
      marketSlug: () => `${m.slug}-btts`,
      endDate: m.end,
      tags: [tagOf('Sports'), tagOf('Soccer'), tagOf(p.league[0])],
    },
    tickers: {
      seriesTicker: `KX${p.league[1]}BTTS`,
      seriesTitle: `${p.league[0]} both teams to score`,
      seriesCategory: 'Sports',
      frequency: 'custom',
      eventTicker: `KX${p.league[1]}BTTS-${m.tickerDate}`,
      title: `${awayAtHome}: Both Teams to Score`,
      subTitle: m.day,
      mutuallyExclusive: false,
      strikeType: 'custom',
      marketTitle: () => `${awayAtHome}: Both Teams to Score`,
    },
  }
}

export const soccerMatch: Template<MatchParams> = {
  id: 'soccer-match',
  category: 'sports',
  weight: 1,
  horizonDays: [0, 6],
  decoyShiftDays: 7,
  pick: (rng) => {
    const [hc, ac] = rng.shuffle([...N.TEAM_CITIES]) as [string, string]
    // The home side, a draw and the away side (logits): a draw a quarter of the time or so.
    const edge = rng.normal() * 0.7
    return {
      league: rng.pick(N.SOCCER_LEAGUES),
      home: club(rng, hc),
      away: club(rng, ac),
      // European kick-offs, in ET.
      hour: rng.pick([7, 9, 10, 12, 13, 15]),
      bases: [edge, -0.6 + rng.normal() * 0.2, -edge],
    }
  },
  key: keyOf,
  occupies: (p, endTime) => [p.home, p.away].map((c) => teamDay('soccer', c.label, dateCode(endTime))),
  build: (p, endTime) => resultSpec(p, endTime),
  siblings: (p, endTime, rng) => [bttsSpec(p, endTime, rng)],
}
