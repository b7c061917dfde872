import type { IdentifierFacts } from '../../model/types.js'

/**
 * What a venuep event slug states (docs/venues/venuep.md, "Slugs"). A game's slug is its league, the two
 * participants' codes and the game's date: `<league>-<code>-<code>-YYYY-MM-DD` (a code may carry a digit the venue
 * adds to tell two teams apart: "g21"). Other slugs are the title's words; only a trailing date is read from them.
 * Undefined when the slug states neither a date nor a game.
 */
const DATED = /^(.*?)-?(\d{4})-(\d{2})-(\d{2})$/

export function eventSlugFacts(slug: string): IdentifierFacts | undefined {
  const m = DATED.exec(slug)
  if (m === null) return undefined
  const parts = (m[1] as string).split('-').filter((p) => p !== '')
  const day = `${m[2]}-${m[3]}-${m[4]}`
  // A head-to-head names its league and exactly two codes; anything else is words of a title.
  const game = parts.length === 3 && parts.every((p) => /^[a-z0-9]{1,12}$/.test(p))
  return {
    day,
    minutes: undefined,
    league: game ? parts[0] : undefined,
    codes: game ? [parts[1] as string, parts[2] as string] : undefined,
    codeRun: undefined,
  }
}
