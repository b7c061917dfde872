import { disciplineInText } from './disciplines.js'
import { fold } from './text.js'

/**
 * How venues write a head-to-head in words (contest.ts reads a contract with these): the two participants around
 * "vs" ("Counter-Strike: FURIA vs Heroic - Map 2 Winner", "Will X win map 3 in the X vs. Y match?", "Will A vs. B
 * end in a draw?", "Golden State at Los Angeles Winner?"), the part of the contest a contract is about ("Map 2",
 * "Game 1", "Set 1", "1st Half", "first 5 innings"), and handicap lines written beside a name ("INOX (-1.5)").
 * General English and sports-listing phrasing; no venue's template is named.
 */

/** Where a name ends on the left of "vs": the last of these before it. */
const LEFT_CUT =
  /^(?:.*(?::\s+|\s+[-–—]\s+|\bin the\s+|\bwins? the\s+|\bof the\s+)|\s*(?:will|who will win|who wins)\s+)/i
/** Where a name ends on the right of "vs": the first of these after it. */
const RIGHT_CUT =
  /(?::|\s+[-–—]\s+|,|\?|\s+(?:end|ends|ended)\s+in\b|\s+(?:match|game|fight|bout|series|matchup)\b|\s+winner\b|\s+to\s+(?:win|score|end)\b|\s+(?:o\/u|over\/under)\b|\s+on\s+\d{4}-|\s+both teams\b|\s+total\b|\s+spread\b|\s+first\s+\d+\s+innings\b)/i
const VS = /\s+(?:vs\.?|v\.|versus)\s+/i
/**
 * "Away at Home": only where no "vs" is written, once, in a text without numbers or amounts ("at 10am", "at least
 * $4,500", "at the end of January 2027" are not contests).
 */
const AT = /\s+(?:at|@)\s+(?!\d|least\b|most\b|the\b|a\b|an\b|or\b|\$)/i

/** The two participants a text names around "vs" (or "at"), or undefined. */
export function splitContest(text: string): [string, string] | undefined {
  const t = text
    .replace(/\([^)]*\)/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  let m = VS.exec(t)
  if (m === null) {
    if (/[\d$%]/.test(t) || (t.match(new RegExp(AT.source, 'gi')) ?? []).length !== 1) return undefined
    m = AT.exec(t)
    if (m === null) return undefined
  }
  const left = cleanName(t.slice(0, m.index).replace(LEFT_CUT, ''))
  const rest = t.slice(m.index + m[0].length)
  const cut = RIGHT_CUT.exec(rest)
  const right = cleanName(cut === null ? rest : rest.slice(0, cut.index))
  if (left === '' || right === '' || fold(left) === fold(right)) return undefined
  if (left.split(' ').length > 8 || right.split(' ').length > 8) return undefined
  return [left, right]
}

/** A participant's name without leading articles, a trailing discipline ("Weibo Gaming League of Legends") or punctuation. */
export function cleanName(raw: string): string {
  let s = raw
    .replace(/^[\s"'“”‘’]+|[\s"'“”‘’.?!:;]+$/g, '')
    .replace(/^the\s+/i, '')
    .trim()
  const d = disciplineInText(s)
  if (d !== undefined) {
    const folded = fold(s)
    if (folded.endsWith(` ${d.phrase}`)) s = s.slice(0, s.length - d.phrase.length).trim()
  }
  return s
}

/** Handicap lines written beside names ("INOX (-1.5) vs MOUZ NXT (+1.5)"): each name before a signed number in brackets. */
export function linesBesideNames(text: string): { readonly name: string; readonly line: number }[] {
  const out: { name: string; line: number }[] = []
  const re = /([^():]+?)\s*\(\s*([+\-−–]\s?\d+(?:\.\d+)?)\s*\)/g
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const name = cleanName((m[1] as string).replace(/^.*\s+(?:vs\.?|versus)\s+/i, '').replace(LEFT_CUT, ''))
    const line = Number((m[2] as string).replace(/[−–]/, '-').replace(/\s/g, ''))
    if (name !== '' && Number.isFinite(line)) out.push({ name, line })
  }
  return out
}

const ORDINALS: Readonly<Record<string, number>> = {
  '1st': 1,
  '2nd': 2,
  '3rd': 3,
  '4th': 4,
  '5th': 5,
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
}

/** Units of a contest's parts; a map of an esports series is what some venues call its game. */
const UNIT: Readonly<Record<string, string>> = {
  map: 'map',
  game: 'map',
  set: 'set',
  half: 'half',
  quarter: 'quarter',
  period: 'period',
  inning: 'inning',
  innings: 'inning',
}

const SEGMENT_NUMBERED = /\b(map|game|set|half|quarter|period|inning)\s*(\d{1,2})\b(?!\s*(?:of|[-:]\d))/
const SEGMENT_ORDINAL =
  /\b(1st|2nd|3rd|4th|5th|first|second|third|fourth|fifth)\s+(map|game|set|half|quarter|period|inning)\b/
const FIRST_INNINGS = /\bfirst\s+(\d)\s+innings\b|\b1st\s+(\d)\b|\bf(\d)\b/
const HALFTIME = /\bhalf[-\s]?time\b|\b1h\b/

/**
 * The part of the contest a text names: 'map 2' (a game of an esports series: "Game 2" is "Map 2"), 'set 1',
 * 'half 1' ("halftime", "1st half", "1H"), 'first 5 innings'; undefined when it names none (the whole contest). A
 * series' game number in front of a title ("Game 2: Lakers at Thunder", a playoff game) names the whole game.
 */
export function segmentIn(text: string): string | undefined {
  const t = fold(text).replace(/^\s*game\s+\d+\s*:/, ' ')
  const innings = FIRST_INNINGS.exec(t)
  if (innings !== null && /innings|\bf\d\b/.test(innings[0])) return `first ${innings[1] ?? innings[3]} innings`
  let m = SEGMENT_NUMBERED.exec(t)
  if (m !== null) return `${UNIT[m[1] as string]} ${Number(m[2])}`
  m = SEGMENT_ORDINAL.exec(t)
  if (m !== null) return `${UNIT[m[2] as string]} ${ORDINALS[m[1] as string]}`
  if (HALFTIME.test(t)) return 'half 1'
  return undefined
}

/** A day written in a text: "2026-05-10", "May 10, 2026"; undefined when none. */
export function dayIn(text: string): string | undefined {
  const iso = /\b(\d{4})-(\d{2})-(\d{2})\b/.exec(text)
  if (iso !== null) return `${iso[1]}-${iso[2]}-${iso[3]}`
  const m = /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? (\d{1,2}),? (\d{4})\b/.exec(fold(text))
  if (m === null) return undefined
  const month = 'janfebmaraprmayjunjulaugsepoctnovdec'.indexOf(m[1] as string) / 3 + 1
  return `${m[3]}-${String(month).padStart(2, '0')}-${String(Number(m[2])).padStart(2, '0')}`
}
