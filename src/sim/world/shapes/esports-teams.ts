import * as N from '../names.js'
import type { Rng } from '../random.js'

/**
 * An esports team as each venue names and codes it, by the rules the real short-dated catalogs follow (the names are
 * invented, names.ts; the ways they differ are the real ones):
 *
 * - the slug style writes the full name in questions and outcomes, a sponsor included ("Brightline Vantor Academy"),
 *   and a short form for the favourite of a handicap market ("Map Handicap: VA (-1.5) vs Kyrex Esports (+1.5)");
 *   its event slug codes each team in lower case, often with a digit against clashes (`va2`, `kyr1`) or as the
 *   name's first six letters (`solvan`, `crimso`);
 * - the ticker style names the team in `yes_sub_title` and titles, without the sponsor ("Vantor Academy"), and codes
 *   it in upper case in tickers: initials of a multi-word name (`CW` for "Crimson Wardens", `VA`), a short word whole
 *   (`OBRIX`), a word's first letters (`KYR`, `SOLV`) or its consonants (`TRV` for "Tarvex");
 * - the word "Esports" is on one venue's name and not the other's now and then.
 */
export interface EsportsTeam {
  /** The canonical label: the fuller spelling. */
  readonly label: string
  /** The slug style's name (questions, outcomes). */
  readonly slugs: string
  /** The ticker style's name (`yes_sub_title`, titles). */
  readonly tickers: string
  /** The ticker style's code: a market ticker's suffix and half of its event code. */
  readonly code: string
  /** The slug style's code in event slugs. */
  readonly slugCode: string
  /** The slug style's short name for a handicap's favourite. */
  readonly short: string
  /** How the two venues' names differ, if they do. */
  readonly variant: 'sponsor' | 'esports suffix' | undefined
}

/** Words a code leaves out when the name has others ("Team Quarrow" is QUA, "Solvane Gaming" SOL). */
const GENERIC = new Set(['ESPORTS', 'GAMING', 'TEAM', 'CLUB'])

function lettersOf(name: string): string[] {
  return name
    .toUpperCase()
    .replace(/[^A-Z0-9 ]/g, '')
    .split(' ')
    .filter(Boolean)
}

/** The first letter and the next consonants, three in all: "TARVEX" → TRV. */
function consonants(word: string): string {
  return (
    (word[0] as string) +
    word
      .slice(1)
      .replace(/[AEIOUY]/g, '')
      .slice(0, 2)
  )
}

function tickerCode(name: string, rng: Rng): string {
  const all = lettersOf(name)
  const core = all.filter((w) => !GENERIC.has(w))
  const words = core.length > 0 ? core : all
  const first = words[0] as string
  if (words.length >= 2) return rng.chance(0.8) ? words.map((w) => w[0]).join('') : first.slice(0, 3)
  if (first.length <= 5 && rng.chance(0.6)) return first
  return rng.chance(0.7) ? first.slice(0, rng.int(3, 4)) : consonants(first)
}

function slugCode(name: string, code: string, rng: Rng): string {
  const joined = lettersOf(name).join('').toLowerCase()
  const r = rng.next()
  const base = r < 0.65 ? code.toLowerCase() : joined.slice(0, 6)
  return rng.chance(0.3) ? `${base}${rng.int(1, 3)}` : base
}

function shortName(name: string, code: string, rng: Rng): string {
  const r = rng.next()
  if (r < 0.75) return code
  const words = lettersOf(name)
  if (r < 0.9 && !name.includes(' ')) return name
  return consonants(words.find((w) => !GENERIC.has(w)) ?? (words[0] as string))
}

/** A team's base name (before a sponsor): a brand word alone or with "Esports", "Gaming", "Team", "Academy". */
function baseName(rng: Rng): string {
  const stem = rng.pick(N.ESPORTS_STEMS)
  const r = rng.next()
  if (r < 0.3) return rng.chance(0.3) ? stem.toUpperCase() : stem
  if (r < 0.55) return `${stem} Esports`
  if (r < 0.7) return `${stem} Gaming`
  if (r < 0.8) return `Team ${stem}`
  if (r < 0.87) return `${stem} Academy`
  return `${rng.pick(N.ESPORTS_ADJECTIVES)} ${rng.pick(N.ESPORTS_NOUNS)}`
}

/** A team named and coded per venue: 12% with a sponsor only the slug style writes, 12% with "Esports" on one side. */
export function esportsTeam(rng: Rng): EsportsTeam {
  const base = baseName(rng)
  const roll = rng.next()
  let slugs = base
  let tickers = base
  let variant: EsportsTeam['variant']
  if (roll < 0.12) {
    slugs = `${rng.pick(N.ESPORTS_SPONSORS)} ${base}`
    variant = 'sponsor'
  } else if (roll < 0.24 && base.endsWith(' Esports')) {
    const bare = base.slice(0, -' Esports'.length)
    if (rng.chance(0.5)) slugs = bare
    else tickers = bare
    variant = 'esports suffix'
  }
  const label = slugs.length >= tickers.length ? slugs : tickers
  const code = tickerCode(tickers, rng)
  return {
    label,
    slugs,
    tickers,
    code,
    slugCode: slugCode(slugs, code, rng),
    short: shortName(slugs, code, rng),
    variant,
  }
}
