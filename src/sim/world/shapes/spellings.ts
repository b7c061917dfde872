import * as N from '../names.js'
import type { Rng } from '../random.js'

/**
 * The same name spelled differently on the two venues, as real candidate lists are (docs/spreads.md F2): "J.D. Vance" /
 * "JD Vance", "Donald J. Trump" / "Donald Trump", "Peter Erdő" / "Peter Erdo" (the ticker style itself writes both
 * "Peter Erdo" and "Peter Erdö" in two real ticker-style 'next Pope' events), nicknames, "Jr.", "Democratic party" / "the Democrats".
 * The names are invented; the ways they differ are the real ones. `label` is the fuller spelling (the contract's
 * canonical label); `slugs` and `tickers` are what each venue shows; `variant` names how they differ, if they do.
 */
export interface Spelled {
  readonly label: string
  readonly slugs: string
  readonly tickers: string
  readonly variant: string | undefined
}

/** A key that is equal for two draws of the same person, however spelled (to keep a candidate list distinct). */
export type Keyed = Spelled & { readonly key: string }

const INITIALS = ['J.D.', 'A.J.', 'T.J.', 'C.J.', 'R.J.', 'D.J.']
const NICKNAMES: readonly [full: string, short: string][] = [
  ['Alexander', 'Alex'],
  ['William', 'Bill'],
  ['Robert', 'Bob'],
  ['Katherine', 'Kate'],
  ['Nicholas', 'Nick'],
  ['Elizabeth', 'Liz'],
  ['Jonathan', 'Jon'],
  ['Theodore', 'Ted'],
  ['Margaret', 'Maggie'],
  ['Christopher', 'Chris'],
]
const ACCENTED_FIRST: readonly [accented: string, plain: string][] = [
  ['Inés', 'Ines'],
  ['José', 'Jose'],
  ['Zoë', 'Zoe'],
  ['Raúl', 'Raul'],
  ['Chloé', 'Chloe'],
  ['Søren', 'Soren'],
  ['Agnès', 'Agnes'],
  ['Jürgen', 'Jurgen'],
]
const ACCENTED_LAST: readonly [accented: string, plain: string][] = [
  ['Erdő', 'Erdo'],
  ['Dávila', 'Davila'],
  ['Müller', 'Muller'],
  ['Núñez', 'Nunez'],
  ['Kovač', 'Kovac'],
  ['Ødegaard', 'Odegaard'],
  ['Sánchez', 'Sanchez'],
  ['Çelik', 'Celik'],
  ['Lefèvre', 'Lefevre'],
  ['Łukaszewski', 'Lukaszewski'],
]
const SUFFIXES = ['Jr.', 'III', 'Sr.']
const MIDDLE = 'ABCDEFGHJKLMNPRSTW'

/** Which venue shows the fuller form: either, at random. */
function sides(rng: Rng, full: string, short: string, variant: string): Spelled {
  return rng.chance(0.5)
    ? { label: full, slugs: full, tickers: short, variant }
    : { label: full, slugs: short, tickers: full, variant }
}

/**
 * A person named alike on both venues (45%) or spelled apart: a middle initial on one side (15%), dotted initials
 * (10%), diacritics (12%), a nickname (10%) or a suffix (8%).
 */
export function person(rng: Rng): Keyed {
  const last = rng.pick(N.LAST_NAMES)
  const first = rng.pick(N.FIRST_NAMES)
  const roll = rng.next()
  let s: Spelled
  let key: string
  if (roll < 0.45) {
    const name = `${first} ${last}`
    s = { label: name, slugs: name, tickers: name, variant: undefined }
    key = name
  } else if (roll < 0.6) {
    const m = MIDDLE[rng.int(0, MIDDLE.length - 1)]
    s = sides(rng, `${first} ${m}. ${last}`, `${first} ${last}`, 'middle initial')
    key = `${first} ${last}`
  } else if (roll < 0.7) {
    const ini = rng.pick(INITIALS)
    s = sides(rng, `${ini} ${last}`, `${ini.replace(/\./g, '')} ${last}`, 'initials')
    key = `${ini} ${last}`
  } else if (roll < 0.82) {
    if (rng.chance(0.5)) {
      const [a, p] = rng.pick(ACCENTED_LAST)
      s = sides(rng, `${first} ${a}`, `${first} ${p}`, 'diacritics')
      key = `${first} ${p}`
    } else {
      const [a, p] = rng.pick(ACCENTED_FIRST)
      s = sides(rng, `${a} ${last}`, `${p} ${last}`, 'diacritics')
      key = `${p} ${last}`
    }
  } else if (roll < 0.92) {
    const [full, short] = rng.pick(NICKNAMES)
    s = sides(rng, `${full} ${last}`, `${short} ${last}`, 'nickname')
    key = `${full} ${last}`
  } else {
    s = sides(rng, `${first} ${last} ${rng.pick(SUFFIXES)}`, `${first} ${last}`, 'suffix')
    key = `${first} ${last}`
  }
  return { ...s, key }
}

/** Parties of the invented countries, each with an informal name ("the Greens" for "Green Coalition"). */
const PARTY_FORMS: readonly [official: string, informal: string][] = [
  ['Progress Party', 'the Progressives'],
  ['Civic Alliance', 'Civic'],
  ['National Front', 'the Nationals'],
  ['Green Coalition', 'the Greens'],
  ['Liberty Union', 'the Libertarians'],
  ['Labour Bloc', 'Labour'],
]

export const PARTY_NAMES: readonly string[] = PARTY_FORMS.map(([official]) => official)

/** A party as each venue names it: the official name on both, or the informal one on one side (40%). */
export function party(rng: Rng, official: string): Spelled {
  const informal = PARTY_FORMS.find(([o]) => o === official)?.[1] ?? official
  if (informal === official || rng.chance(0.6))
    return { label: official, slugs: official, tickers: official, variant: undefined }
  return sides(rng, official, informal, 'party name')
}

/**
 * A US party in a state or national race: the ticker style writes "Democratic party" or "Democratic" (SENATE*-28,
 * GOVPARTY*-28), the slug style "Democratic", "Democrats" or "the Democratic Party".
 */
export function usParty(rng: Rng, which: 'D' | 'R'): Spelled {
  const adj = which === 'D' ? 'Democratic' : 'Republican'
  const plural = which === 'D' ? 'Democrats' : 'Republicans'
  const tickers = rng.chance(0.6) ? `${adj} party` : adj
  const slugs = rng.pick([adj, plural, `the ${adj} Party`, `${adj} Party`])
  return {
    label: `${adj} party`,
    slugs,
    tickers,
    variant: slugs.toLowerCase() === tickers.toLowerCase() ? undefined : 'party name',
  }
}

/**
 * A team: its full name on both venues, or in the ticker style the city alone when no other team of the list shares it, or
 * the city and the mascot's initial when one does ("Los Angeles L", the real ticker-style game markets' form).
 */
export function team(rng: Rng, name: string, all: readonly string[]): Spelled {
  if (rng.chance(0.65)) return { label: name, slugs: name, tickers: name, variant: undefined }
  const mascot = N.TEAM_MASCOTS.find((m) => name.endsWith(` ${m}`))
  if (mascot === undefined) return { label: name, slugs: name, tickers: name, variant: undefined }
  const city = name.slice(0, name.length - mascot.length - 1)
  const shared = all.some((o) => o !== name && o.startsWith(`${city} `))
  return { label: name, slugs: name, tickers: shared ? `${city} ${mascot[0]}` : city, variant: 'team city' }
}

/** A title: with or without its leading article ("The Quiet Harbor" / "Quiet Harbor"). */
export function work(rng: Rng, title: string): Spelled {
  if (!title.startsWith('The ') || rng.chance(0.6))
    return { label: title, slugs: title, tickers: title, variant: undefined }
  return sides(rng, title, title.slice(4), 'article')
}

/** A company: its full name, or its first word on one side ("Nimbus Labs" / "Nimbus"). */
export function company(rng: Rng, name: string): Spelled {
  const first = name.split(' ')[0] as string
  if (first === name || rng.chance(0.7)) return { label: name, slugs: name, tickers: name, variant: undefined }
  return sides(rng, name, first, 'short name')
}
