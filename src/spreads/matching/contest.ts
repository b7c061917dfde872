import type { IdentifierFacts } from '../../model/types.js'
import { dayIn, linesBesideNames, segmentIn, splitContest } from './contest-text.js'
import { disciplineInText, disciplineOfLeague } from './disciplines.js'
import { compareNames, nameKey, STRENGTH_RANK, type AliasLookup, type NameKey } from './names.js'
import { contentWords, fold } from './text.js'

/**
 * A head-to-head contract read as a proposition: who plays whom, what about it resolves the contract (one side wins,
 * a draw, a handicap, a total, both teams score, an exact score), in which part of the contest (the whole match, map
 * 2, set 1, the first half), in which discipline, on which day. Venues lay these out differently: one venue lists a
 * game as ONE market whose two outcomes are the teams ("Counter-Strike: FURIA vs Heroic - Map 2 Winner", outcomes
 * ["FURIA", "Heroic"]: each outcome a contract), another one market per team ("Heroic vs. FURIA: Map 2", YES side
 * "FURIA"), a third Yes/No questions ("Will Arsenal win on 2026-05-10?" in the event "Arsenal vs. Chelsea"). Two
 * contests are the same contract when these fields agree (contest-judge.ts), whichever layout each venue used.
 *
 * What the texts say beyond the fields ("completed match", "by KO", "total kills") is kept as residual words, which
 * the other side must state too: a market kind the reader does not know never pairs with one it does.
 */
export type ContestKind = 'winner' | 'draw' | 'handicap' | 'total' | 'btts' | 'exact-score'

export interface Participant {
  readonly name: string
  readonly key: NameKey
  /** Codes the venue's identifiers give it ("fur", "lal"), lower case. */
  readonly codes: readonly string[]
}

export interface ContestFacts {
  readonly participants: readonly [Participant, Participant]
  readonly kind: ContestKind
  /** The participant the contract is about (who wins, whose handicap or total), by index. */
  readonly side: 0 | 1 | undefined
  /** A total's side: over (true) or under (false). */
  readonly over: boolean | undefined
  /** A handicap's line for `side` (−1.5: wins by more than 1.5), or a total's line. */
  readonly line: number | undefined
  /** An exact score's points of participants 0 and 1. */
  readonly score: readonly [number, number] | undefined
  /** 'match', or the part: 'map 2', 'set 1', 'half 1', 'first 5 innings'. */
  readonly segment: string
  readonly discipline: string | undefined
  /** The contest's day ('YYYY-MM-DD', the venue's zone), and its start time where the identifier gives one. */
  readonly day: string | undefined
  /** `day` as a number of days since 1970 (blocking keys, contest-index.ts). */
  readonly dayNumber: number | undefined
  readonly minutes: number | undefined
  /** Words of the contract's own texts the fields above do not account for. */
  readonly residual: readonly string[]
}

export interface ContestInput {
  /** The outcome's label ('' for the YES side of a yes/no market). */
  readonly label: string
  readonly question: string
  readonly subtitle: string
  readonly eventTitle: string
  /** The two labels of a binary market listed as its two sides, when they are not Yes/No. */
  readonly sides: readonly [string, string] | undefined
  /** Which of `sides` this contract is. */
  readonly sideIndex: number | undefined
  /** The participant code the market's identifier ends with. */
  readonly code: string | undefined
  readonly identifier: IdentifierFacts | undefined
  readonly aliases: AliasLookup
  /** Readings of one text (its parts, words…), memoized by the caller across a catalog's contracts. */
  readonly text: ContestTexts
}

/**
 * What contest.ts reads of a text, one text at a time: an event's title and subtitle are read for each of its
 * outcomes, so a caller reading a catalog memoizes these (contract.ts SpecCache); `DIRECT` reads afresh.
 */
export interface ContestTexts {
  split(text: string): [string, string] | undefined
  segment(text: string): string | undefined
  discipline(text: string): { readonly id: string; readonly phrase: string } | undefined
  day(text: string): string | undefined
  words(text: string): readonly string[]
}

export const DIRECT: ContestTexts = {
  split: splitContest,
  segment: segmentIn,
  discipline: disciplineInText,
  day: dayIn,
  words: contentWords,
}

/** Whether a contract can be a head-to-head at all: its market has named sides, or a text says "vs" or "at". */
export function mayBeContest(sides: readonly [string, string] | undefined, texts: readonly string[]): boolean {
  return sides !== undefined || texts.some((t) => CONTEST_HINT.test(t))
}

const CONTEST_HINT = /\s(?:vs\.?|v\.|versus|at|@)\s/i

export function readContest(x: ContestInput): ContestFacts | undefined {
  const t = x.text
  const teamSides = x.sides !== undefined && !isOverUnder(x.sides) ? x.sides : undefined
  const names =
    teamSides !== undefined
      ? ([teamSides[0], teamSides[1]] as [string, string])
      : (t.split(x.question) ?? t.split(x.subtitle) ?? t.split(x.eventTitle))
  if (names === undefined) return undefined
  const keys = [nameKey(names[0]), nameKey(names[1])] as const
  const which = (text: string): 0 | 1 | undefined => sideOf(text, keys, x.aliases)
  const q = fold(x.question)
  const l = fold(x.label).trim()
  let kind: ContestKind | undefined
  let side: 0 | 1 | undefined
  let over: boolean | undefined
  let line: number | undefined
  let score: [number, number] | undefined
  let m: RegExpExecArray | null
  if (x.sides !== undefined && isOverUnder(x.sides)) {
    kind = 'total'
    over = fold(x.sides[x.sideIndex ?? 0]).trim() === 'over'
    line = totalLine(q)
    side = teamOfTotal(x.question, which)
  } else if (teamSides !== undefined) {
    const lines = linesBesideNames(x.question)
    side = x.sideIndex === 1 ? 1 : 0
    if (lines.length > 0 || /\b(?:handicap|spread)\b/.test(q)) {
      kind = 'handicap'
      line = handicapLine(lines, side, which)
    } else kind = 'winner'
  } else if (/^(?:tie|draw)\b/.test(l) || (l === '' && DRAW.test(q))) {
    kind = 'draw'
  } else if (/\bboth teams to score\b|\bbtts\b/.test(`${q} ${l}`)) {
    kind = 'btts'
  } else if (/\b(?:exact|correct) (?:match )?score\b/.test(`${q} ${l}`)) {
    kind = 'exact-score'
    score = exactScore(`${x.label} ${x.question}`, which)
  } else if ((m = /^(.+?)\s+wins?\s+by\s+(?:over|more than)\s+(\d+(?:\.\d+)?)/.exec(l || q)) !== null) {
    kind = 'handicap'
    side = which(m[1] as string)
    line = -Number(m[2])
  } else if ((m = /^(over|under)\s+(\d+(?:\.\d+)?)/.exec(l)) !== null || (m = TOTAL_WORDS.exec(q)) !== null) {
    kind = 'total'
    over = m[1] === 'over'
    line = Number(m[2])
    side = teamOfTotal(x.label === '' ? x.question : x.label, which)
  } else {
    // The label names the side ("FURIA", "Seattle wins first 5 innings"); failing that, the question ("Will X win …?").
    const named = l !== '' ? l.replace(/\s+wins?\b.*$/, '') : undefined
    side = named === undefined ? undefined : which(named)
    if (side === undefined) {
      const asked = sideOfQuestion(q)
      side = asked === undefined ? undefined : which(asked)
    }
    if (side !== undefined) kind = 'winner'
  }
  if (kind === undefined || ((kind === 'winner' || kind === 'handicap') && side === undefined)) return undefined
  const participants = withCodes(names, keys, x, side)
  const discipline =
    t.discipline(x.question)?.id ??
    t.discipline(x.eventTitle)?.id ??
    t.discipline(x.subtitle)?.id ??
    disciplineOfLeague(x.identifier?.league)
  const day = x.identifier?.day ?? t.day(x.question) ?? t.day(x.subtitle) ?? t.day(x.eventTitle)
  const segment =
    t.segment(x.label) ?? t.segment(x.question) ?? t.segment(x.subtitle) ?? t.segment(x.eventTitle) ?? 'match'
  return {
    participants,
    kind,
    side,
    over,
    line,
    score,
    segment,
    discipline,
    day,
    dayNumber: day === undefined ? undefined : Math.floor(Date.parse(`${day}T00:00:00Z`) / 86_400_000),
    minutes: x.identifier?.day === undefined ? undefined : x.identifier.minutes,
    residual: residualWords(x, names),
  }
}

function isOverUnder(sides: readonly [string, string]): boolean {
  return fold(sides[0]).trim() === 'over' && fold(sides[1]).trim() === 'under'
}

const DRAW =
  /\bend(?:s)? in a (?:draw|tie)\b|\b(?:draw|tie) is the result\b|^\s*(?:draw|tie)\b|\bresult(?:s)? in a (?:draw|tie)\b/
const TOTAL_WORDS = /\b(over|under)\s+(\d+(?:\.\d+)?)\s+(?:total\s+)?(?:goals|points|runs|maps|games|sets|rounds)\b/

/** The participant a text names best (same, then strong, then weak); undefined when none or two equally. */
function sideOf(text: string, keys: readonly [NameKey, NameKey], aliases: AliasLookup): 0 | 1 | undefined {
  const k = nameKey(text)
  const s0 = STRENGTH_RANK[compareNames(k, keys[0], aliases)]
  const s1 = STRENGTH_RANK[compareNames(k, keys[1], aliases)]
  if (s0 === s1) return undefined
  return s0 > s1 ? 0 : 1
}

/** Who a yes/no question says wins: "Will X win …?", "Will X beat Y?", "X wins". */
function sideOfQuestion(q: string): string | undefined {
  const m = /^\s*will\s+(?:the\s+)?(.+?)\s+(?:win|beat|defeat)\b/.exec(q) ?? /^\s*(.+?)\s+wins\b/.exec(q)
  if (m === null) return undefined
  const named = (m[1] as string).replace(/\s+(?:vs\.?|versus)\s+.*$/, '')
  return named.includes(' vs') ? undefined : named
}

function totalLine(q: string): number | undefined {
  const m = /\b(?:o\/u|over\/under|total(?:\s+\w+)?)\s*(\d+(?:\.\d+)?)/.exec(q) ?? /(\d+(?:\.\d+)?)/.exec(q)
  return m === null ? undefined : Number(m[1])
}

/** A team total names one team after the match ("A vs. B: B O/U 1.5"): that team, else the game's total. */
function teamOfTotal(text: string, which: (t: string) => 0 | 1 | undefined): 0 | 1 | undefined {
  const after = text.includes(':') ? text.slice(text.lastIndexOf(':') + 1) : text
  const m = /^\s*(.+?)\s+(?:o\/u|over\/under|over|under)\b/i.exec(after)
  return m === null ? undefined : which(m[1] as string)
}

/** The line of `side` from the lines written beside names; one line given is the other side's negated. */
function handicapLine(
  lines: readonly { readonly name: string; readonly line: number }[],
  side: 0 | 1,
  which: (t: string) => 0 | 1 | undefined,
): number | undefined {
  for (const l of lines) {
    const w = which(l.name)
    if (w === side) return l.line
    if (w !== undefined && lines.length === 1) return -l.line
  }
  return undefined
}

/** "Wolverhampton 3 - 0 Blackburn", "Poland wins 2-0": points in participant order. */
function exactScore(text: string, which: (t: string) => 0 | 1 | undefined): [number, number] | undefined {
  let m = /([A-Za-zÀ-ÿ.'’ ]+?)\s+(\d+)\s*[-–]\s*(\d+)\s+([A-Za-zÀ-ÿ.'’ ]+)/.exec(text)
  if (m !== null) {
    const a = which(m[1] as string)
    const b = which(m[4] as string)
    if (a !== undefined && b !== undefined && a !== b)
      return a === 0 ? [Number(m[2]), Number(m[3])] : [Number(m[3]), Number(m[2])]
  }
  m = /([A-Za-zÀ-ÿ.'’ ]+?)\s+wins?\s+(\d+)\s*[-–]\s*(\d+)/.exec(text)
  if (m !== null) {
    const w = which(m[1] as string)
    if (w !== undefined) return w === 0 ? [Number(m[2]), Number(m[3])] : [Number(m[3]), Number(m[2])]
  }
  return undefined
}

/**
 * The participants with the codes the identifiers give them: a market's own code is its side's, and the rest of the
 * event's code run ("furhero" less "fur") the other's; a slug's codes follow the event title's order of names.
 */
function withCodes(
  names: readonly [string, string],
  keys: readonly [NameKey, NameKey],
  x: ContestInput,
  side: 0 | 1 | undefined,
): readonly [Participant, Participant] {
  const codes: [string[], string[]] = [[], []]
  const id = x.identifier
  if (x.code !== undefined && side !== undefined) {
    codes[side].push(x.code)
    const run = id?.codeRun
    if (run !== undefined && run.length > x.code.length) {
      const other = run.startsWith(x.code)
        ? run.slice(x.code.length)
        : run.endsWith(x.code)
          ? run.slice(0, -x.code.length)
          : undefined
      if (other !== undefined && other.length >= 2) codes[side === 0 ? 1 : 0].push(other)
    }
  }
  if (id?.codes !== undefined && id.codes.length === 2) {
    const titled = x.text.split(x.eventTitle)
    const order =
      titled === undefined
        ? ([0, 1] as const)
        : ([sideOf(titled[0], keys, x.aliases), sideOf(titled[1], keys, x.aliases)] as const)
    if (order[0] !== undefined && order[1] !== undefined && order[0] !== order[1]) {
      codes[order[0]].push(id.codes[0] as string)
      codes[order[1]].push(id.codes[1] as string)
    }
  }
  return [
    { name: names[0], key: keys[0], codes: codes[0] },
    { name: names[1], key: keys[1], codes: codes[1] },
  ]
}

/** Words whose meaning the fields hold: kinds, parts, sides, the measure a total counts. */
const TEMPLATE: ReadonlySet<string> = new Set(
  [
    'win winner beat defeat victory moneyline map set half halftime quarter period inning innings',
    'handicap spread total draw tie result both team teams score scored correct exact btts',
    'goal goals point run runs maps sets round rounds full first second third fourth fifth 1st 2nd 3rd 4th 5th',
    'fight bout series matchup',
  ]
    .join(' ')
    .split(' ')
    .flatMap((w) => [w, ...contentWords(w)]),
)

/** Words that place a contest in its tournament (stage, league, format): the other venue need not repeat them. */
const CONTEXT: ReadonlySet<string> = new Set(
  [
    'stage group final finals semifinal semifinals quarterfinal quarterfinals playoff playoffs season regular week',
    'open cup championship tournament league division conference grand main card night men women single singles',
    'double doubles bo1 bo3 bo5 best qualifier qualifying esport professional day',
  ]
    .join(' ')
    .split(' ')
    .flatMap((w) => [w, ...contentWords(w)]),
)

/**
 * The words of the contract's own texts (its label, and its question less a heading before the contest, such as a
 * tournament: "Madrid Open: A vs B") that neither name a participant nor fall under TEMPLATE or CONTEXT.
 */
function residualWords(x: ContestInput, names: readonly [string, string]): string[] {
  const own = new Set<string>()
  for (const n of names) for (const w of x.text.words(n)) own.add(w)
  const d = x.text.discipline(x.question) ?? x.text.discipline(x.eventTitle)
  if (d !== undefined) for (const w of x.text.words(d.phrase)) own.add(w)
  const heading = /^[^:]*:\s+(?=.*\s(?:vs\.?|v\.|versus)\s)/i
  const question = x.question.replace(heading, '').replace(/\([^)]*\)/g, ' ')
  const out = new Set<string>()
  for (const t of [x.label, question])
    for (const w of x.text.words(t))
      if (!own.has(w) && !TEMPLATE.has(w) && !CONTEXT.has(w) && !w.startsWith('#')) out.add(w)
  return [...out].sort()
}
