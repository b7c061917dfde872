import { fold } from './text.js'

/**
 * Names of teams and players across venues. The same team or player is written several ways: in full and short
 * ("Kiwoom DRX Challengers" / "DRX Challengers", "Jannik Sinner" / "Sinner"), with or without the kind of
 * organisation ("Oxuji Esports" / "Oxuji", "Team Falcons" / "Falcons"), with a shortened first name ("Zach" /
 * "Zachary"), by a code built from the name ("EF" for "Eternal Fire", "VIT" for "Vitality", "MNTE" for "Monte"), with
 * diacritics or without. General rules recognise these; what they cannot (a nickname, "SGE" for "Eintracht
 * Frankfurt") a reviewed alias file says (aliases.ts, config/aliases.json). Nothing here names a team.
 *
 * A comparison says how strongly two names agree: `same` (equal once folded, or aliases of each other), `strong` (one
 * is the other with words left out at either end, or the same person with a shortened first name), `weak` (one is a
 * code built from the other), or `none`. Callers decide what strength they need: a head-to-head pairs only when both
 * participants agree strongly, one to one (contest-judge.ts); a weak agreement may still tell which of a game's two
 * teams a handicap's short name means (contest.ts).
 */
export type NameStrength = 'same' | 'strong' | 'weak' | 'none'

export const STRENGTH_RANK: Readonly<Record<NameStrength, number>> = { same: 3, strong: 2, weak: 1, none: 0 }

/** Words that say what kind of organisation a team is, not which one: left out before names are compared. */
const ORGANISATION_WORDS: ReadonlySet<string> = new Set([
  'the',
  'team',
  'esports',
  'esport',
  'gaming',
  'club',
  'fc',
  'cf',
  'sc',
  'afc',
])

/** Suffixes that make another person of the same name ("Jr."): a name with one is never a short form of one without. */
const SUFFIXES: ReadonlySet<string> = new Set(['jr', 'sr', 'ii', 'iii', 'iv'])

/** A name read for comparison: its words (folded, organisation words left out) and all its words' initials. */
export interface NameKey {
  readonly text: string
  readonly tokens: readonly string[]
  /** The tokens joined by spaces: what two equal names share, and what the alias groups are keyed by. */
  readonly words: string
  /** The initials of every word, organisation words included ("Team Liquid" → "tl"). */
  readonly initials: string
  /** Every word joined ("GIANTX" → "giantx"; "ex-RUBY" → "exruby"), organisation words left out. */
  readonly joined: string
}

export function nameKey(name: string): NameKey {
  let key = NAME_KEYS.get(name)
  if (key === undefined) {
    // Bounded: cleared past 100,000 names (a catalog's teams and players are far fewer).
    if (NAME_KEYS.size >= 100_000) NAME_KEYS.clear()
    NAME_KEYS.set(name, (key = readNameKey(name)))
  }
  return key
}

/** Names repeat across a catalog (a team in each of its markets): each is read once. */
const NAME_KEYS = new Map<string, NameKey>()

function readNameKey(name: string): NameKey {
  const all = fold(name)
    .replace(/['’]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '')
  const tokens = all.filter((w) => !ORGANISATION_WORDS.has(w))
  const kept = tokens.length > 0 ? tokens : all
  return {
    text: name,
    tokens: kept,
    words: kept.join(' '),
    initials: all.map((w) => w[0]).join(''),
    joined: kept.join(''),
  }
}

/**
 * How strongly two names agree. `aliases` are the reviewed equivalences (aliases.ts): two names in one group are
 * the same, two in different groups are not, whatever the rules below would say.
 */
export function compareNames(a: NameKey, b: NameKey, aliases: AliasLookup = NO_ALIASES): NameStrength {
  if (a.tokens.length === 0 || b.tokens.length === 0) return 'none'
  const ga = aliases.groupOf(a)
  const gb = aliases.groupOf(b)
  if (ga !== undefined && gb !== undefined) return ga === gb ? 'same' : 'none'
  if (a.words === b.words) return 'same'
  if (contained(a.tokens, b.tokens) || contained(b.tokens, a.tokens)) return 'strong'
  if (samePerson(a.tokens, b.tokens) || sameButInitials(a.tokens, b.tokens)) return 'strong'
  if (codeOf(a, b) || codeOf(b, a)) return 'weak'
  return 'none'
}

/**
 * `short` is `long` with words left out at either end ("DRX Challengers" in "Kiwoom DRX Challengers", "Sinner" in
 * "Jannik Sinner"), keeping a word of three letters or more, and what is left out is not a name suffix.
 */
function contained(short: readonly string[], long: readonly string[]): boolean {
  if (short.length >= long.length || !short.some((w) => w.length >= 3)) return false
  for (let at = 0; at + short.length <= long.length; at++) {
    if (!short.every((w, i) => long[at + i] === w)) continue
    const left = [...long.slice(0, at), ...long.slice(at + short.length)]
    if (left.some((w) => SUFFIXES.has(w))) return false
    return true
  }
  return false
}

/** The same person: as many words, the same last word, each first word the other's or its start ("Zach" / "Zachary"). */
export function samePerson(a: readonly string[], b: readonly string[]): boolean {
  if (a.length < 2 || a.length !== b.length || a[a.length - 1] !== b[b.length - 1]) return false
  if ((a[a.length - 1] as string).length < 3) return false
  for (let i = 0; i < a.length - 1; i++) {
    const x = a[i] as string
    const y = b[i] as string
    if (!(x.startsWith(y) || y.startsWith(x))) return false
  }
  return true
}

/**
 * The same words but where one writes a word by its initial: a city shared by two teams told apart by a letter
 * ("Los Angeles L" / "Los Angeles Lakers"), an initialled first name ("J Smith" / "John Smith"). At least one word of
 * three letters or more is written in full on both sides.
 */
function sameButInitials(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length || a.length < 2) return false
  let initials = 0
  let full = 0
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as string
    const y = b[i] as string
    if (x === y) {
      if (x.length >= 3) full++
      continue
    }
    if ((x.length === 1 && y.startsWith(x)) || (y.length === 1 && x.startsWith(y))) initials++
    else return false
  }
  return initials > 0 && full > 0
}

/**
 * `code` is a code built from `name`: one word of two to six letters and digits that is the name's initials, the
 * start of its letters, or its letters in order from its first ("GX" in "GIANTX", "MNTE" in "Monte").
 */
function codeOf(code: NameKey, name: NameKey): boolean {
  if (code.tokens.length !== 1 || name.tokens.length === 0) return false
  const c = code.joined
  if (c.length < 2 || c.length > 6 || c === name.joined) return false
  if (c === name.initials) return true
  if (name.tokens.length === 1 && c.length >= name.joined.length) return false
  if (name.joined.startsWith(c)) return true
  if (c[0] !== name.joined[0]) return false
  let at = 0
  for (const ch of c) {
    at = name.joined.indexOf(ch, at)
    if (at === -1) return false
    at++
  }
  return true
}

/**
 * Whether two identifier codes name the same participant: equal, or equal but for a digit a venue appends to one to
 * tell two teams apart ("g21" / "g2", "k271" / "k27").
 */
export function sameCode(a: string, b: string): boolean {
  if (a === b) return a.length >= 2
  return (codeStem(a) === b || codeStem(b) === a) && Math.min(a.length, b.length) >= 2
}

/** Looks names up in the reviewed alias groups (aliases.ts). */
export interface AliasLookup {
  /** The group a name belongs to (by its folded words), undefined when it is in none. */
  groupOf(name: NameKey): number | undefined
}

export const NO_ALIASES: AliasLookup = { groupOf: () => undefined }

/** A code without the digit a venue may append to tell two teams apart ("g21" → "g2"); the code itself otherwise. */
export function codeStem(c: string): string {
  return /[a-z0-9][0-9]$/.test(c) && /[a-z]/.test(c) ? c.slice(0, -1) : c
}

/**
 * Blocking keys of a name (contest-index.ts): two names that agree strongly (compareNames 'same' or 'strong',
 * sameCode, or one alias group) always meet, one's held key being one of the other's probe keys:
 * - the whole name (`W:`) is held, and probes whole names and the parts of longer names (`S:`);
 * - each part of the name (a contiguous run of its words, one of three letters or more) is held as `S:`, and probes
 *   whole names only: "Pilots" is inside "Harbor City Pilots", but two names sharing "Pilots" need not agree;
 * - the same person or the same words told apart by initials (`I:` first letters, and a word of three letters or
 *   more with its place), each code and its stem (`C:`), the alias group (`G:`) are held and probed alike.
 */
export function heldKeys(name: NameKey, codes: readonly string[], aliases: AliasLookup): string[] {
  const out = [`W:${name.words}`, ...partsOf(name.tokens).map((p) => `S:${p}`), ...sharedKeys(name, codes, aliases)]
  return out
}

export function probeKeys(name: NameKey, codes: readonly string[], aliases: AliasLookup): string[] {
  return [
    `W:${name.words}`,
    `S:${name.words}`,
    ...partsOf(name.tokens).map((p) => `W:${p}`),
    ...sharedKeys(name, codes, aliases),
  ]
}

/** The runs of words shorter than the whole with a word of three letters or more (what contained() can leave). */
function partsOf(tokens: readonly string[]): string[] {
  const out: string[] = []
  for (let i = 0; i < tokens.length; i++)
    for (let j = i + 1; j <= tokens.length; j++) {
      if (j - i === tokens.length) continue
      const run = tokens.slice(i, j)
      if (run.some((t) => t.length >= 3)) out.push(run.join(' '))
    }
  return out
}

function sharedKeys(name: NameKey, codes: readonly string[], aliases: AliasLookup): string[] {
  const t = name.tokens
  const out: string[] = []
  // The same person and the same words but for initials both need as many words with the same first letters, and a
  // word of three letters or more in the same place on both (the person's last name): keyed by each such word.
  if (t.length >= 2) {
    const initials = t.map((w) => w[0]).join('')
    for (let i = 0; i < t.length; i++) if ((t[i] as string).length >= 3) out.push(`I:${initials}:${i}:${t[i]}`)
  }
  for (const c of codes) out.push(`C:${c}`, `C:${codeStem(c)}`)
  const group = aliases.groupOf(name)
  if (group !== undefined) out.push(`G:${group}`)
  return out
}

/**
 * Two outcome labels that name the same one though their words differ (judge.ts labelExtension): equal once folded
 * ("Team Liquid" / "Liquid"), one alias group, or the same person with a shortened first name. `labelKeys` are the
 * keys such labels share (the word indexes block labelled contracts by a label's first word, which these may not
 * share: contract-index.ts LabelIndex).
 */
export function sameLabelName(a: NameKey, b: NameKey, aliases: AliasLookup): boolean {
  const ga = aliases.groupOf(a)
  const gb = aliases.groupOf(b)
  if (ga !== undefined && gb !== undefined) return ga === gb
  return a.tokens.length > 0 && (a.words === b.words || samePerson(a.tokens, b.tokens))
}

export function labelKeys(name: NameKey, aliases: AliasLookup): string[] {
  if (name.tokens.length === 0) return []
  const out = [`w:${name.words}`]
  const last = name.tokens[name.tokens.length - 1] as string
  // The same person: as many words, the same last word, first words one the other's start (so the same first letter).
  if (name.tokens.length >= 2 && last.length >= 3) out.push(`p:${name.tokens.length}:${last}:${name.tokens[0]?.[0]}`)
  const group = aliases.groupOf(name)
  if (group !== undefined) out.push(`g:${group}`)
  return out
}

/** Alias groups as a lookup: each name of a group, folded to its words, maps to the group's number. */
export function aliasLookup(groups: readonly (readonly string[])[]): AliasLookup {
  const byWords = new Map<string, number>()
  groups.forEach((names, i) => {
    for (const n of names) byWords.set(nameKey(n).words, i)
  })
  return { groupOf: (name) => (byWords.size === 0 ? undefined : byWords.get(name.words)) }
}
