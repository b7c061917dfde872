import { fold } from './text.js'

/**
 * The sport or game a head-to-head is played in. The same two team names meet in several (an organisation fields a
 * League of Legends team and a Valorant team: "G2 Esports vs Cloud9" in both, on the same day), so when both venues
 * state a discipline it must agree (contest-judge.ts). Venues state it in words ("LoL: …", "Counter-Strike: …") or
 * in an identifier's league part (a series code like "lolmap", a slug prefix like "lol"): each discipline lists the
 * phrases and the codes it goes by. A vocabulary of sports, not of any venue's listings.
 */
interface Discipline {
  readonly id: string
  /** Phrases that name it in a title, folded. */
  readonly phrases: readonly string[]
  /** Codes that begin an identifier's league part. */
  readonly codes: readonly string[]
}

const DISCIPLINES: readonly Discipline[] = [
  { id: 'league-of-legends', phrases: ['league of legends', 'lol'], codes: ['lol'] },
  {
    id: 'counter-strike',
    phrases: ['counter-strike', 'counter strike', 'cs2', 'csgo', 'cs:go'],
    codes: ['cs2', 'csgo'],
  },
  { id: 'valorant', phrases: ['valorant'], codes: ['valorant', 'val'] },
  { id: 'dota', phrases: ['dota 2', 'dota2', 'dota'], codes: ['dota2', 'dota'] },
  { id: 'call-of-duty', phrases: ['call of duty'], codes: ['codmw', 'codbo', 'cod'] },
  { id: 'rainbow-six', phrases: ['rainbow six', 'rainbow 6', 'r6 siege', 'r6'], codes: ['r6siege', 'r6'] },
  { id: 'overwatch', phrases: ['overwatch'], codes: ['ow', 'overwatch'] },
  { id: 'rocket-league', phrases: ['rocket league'], codes: ['rl', 'rocketleague'] },
  { id: 'starcraft', phrases: ['starcraft'], codes: ['sc2', 'starcraft'] },
  { id: 'wnba', phrases: ['wnba'], codes: ['wnba'] },
  { id: 'nba', phrases: ['nba'], codes: ['nba'] },
  { id: 'nfl', phrases: ['nfl'], codes: ['nfl'] },
  { id: 'mlb', phrases: ['mlb'], codes: ['mlb'] },
  { id: 'nhl', phrases: ['nhl'], codes: ['nhl'] },
  { id: 'mls', phrases: ['mls'], codes: ['mls'] },
  { id: 'college-basketball', phrases: ['ncaab', 'college basketball'], codes: ['ncaab', 'ncaamb', 'cbb'] },
  { id: 'college-football', phrases: ['ncaaf', 'college football'], codes: ['ncaaf', 'ncaafb', 'cfb'] },
  { id: 'tennis-men', phrases: ['atp'], codes: ['atp'] },
  { id: 'tennis-women', phrases: ['wta'], codes: ['wta'] },
  { id: 'mma', phrases: ['ufc', 'mma'], codes: ['ufc', 'mma'] },
  { id: 'boxing', phrases: ['boxing'], codes: ['boxing'] },
  { id: 'cricket', phrases: ['cricket', 'ipl'], codes: ['ipl', 'cricket'] },
]

/** Longest codes first, so "wnba" is not read as "nba" and "dota2" not as "dota". */
const BY_CODE = DISCIPLINES.flatMap((d) => d.codes.map((c) => [c, d.id] as const)).sort(
  (x, y) => y[0].length - x[0].length,
)

const PHRASES = DISCIPLINES.flatMap((d) => d.phrases.map((p) => [p, d.id] as const)).sort(
  (x, y) => y[0].length - x[0].length,
)

const PHRASE_RE = new RegExp(
  String.raw`(?:^|[^a-z0-9])(${PHRASES.map(([p]) => p.replace(/[.*+?^${}()|[\]\\:]/g, '\\$&')).join('|')})(?=$|[^a-z0-9])`,
)

/** The discipline a text names (its first phrase), undefined when it names none. */
export function disciplineInText(text: string): { readonly id: string; readonly phrase: string } | undefined {
  const m = PHRASE_RE.exec(fold(text))
  if (m === null) return undefined
  const phrase = m[1] as string
  const hit = PHRASES.find(([p]) => p === phrase)
  return hit === undefined ? undefined : { id: hit[1], phrase }
}

/** The discipline an identifier's league part begins with ("lolmap" → league of legends), undefined when none. */
export function disciplineOfLeague(league: string | undefined): string | undefined {
  if (league === undefined) return undefined
  for (const [code, id] of BY_CODE) if (league.startsWith(code)) return id
  return undefined
}
