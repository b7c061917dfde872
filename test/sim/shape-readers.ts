/**
 * Readers for the real catalog shapes the generated world must show (src/sim/world/shapes), applied alike to the
 * simulator's served catalogs and to the real captures (test/fixtures/real-venues), so the two can be compared.
 */
type Json = Record<string, any>

const MON: Record<string, number> = {
  jan: 0,
  feb: 1,
  mar: 2,
  apr: 3,
  may: 4,
  jun: 5,
  jul: 6,
  aug: 7,
  sep: 8,
  oct: 9,
  nov: 10,
  dec: 11,
}

/**
 * The date a venuek sub-title states, as an instant: "Before Jul 1, 2026" / "Before Jan 20, 2029" (that day),
 * "Before Sep 2026" (its first day), "Before 2030" / "By 2030" (January 1), "In 2028" / "Calendar year 2028" (the
 * year's last day). Undefined when it states none ("During the term", "In the next … election").
 */
export function subTitleDate(text: string | undefined): number | undefined {
  if (text === undefined) return undefined
  let m = /\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* (\d{1,2}), (\d{4})\b/i.exec(text)
  if (m !== null) return Date.UTC(Number(m[3]), MON[m[1]!.toLowerCase()] as number, Number(m[2]))
  m = /\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* (\d{4})\b/i.exec(text)
  if (m !== null) return Date.UTC(Number(m[2]), MON[m[1]!.toLowerCase()] as number, 1)
  m = /^(Before|By) (\d{4})\b/i.exec(text)
  if (m !== null) return Date.UTC(Number(m[2]), 0, 1)
  m = /^(In|Calendar year) (\d{4})$/i.exec(text)
  if (m !== null) return Date.UTC(Number(m[2]), 11, 31)
  return undefined
}

/**
 * Per open venuek market (events with nested markets) whose `yes_sub_title`, else its event's `sub_title`, states a
 * date more than 180 days after `now`: close_time minus that date, in days. Long-dated markets are what the real
 * captures hold (first pages of long-dated listings), so this is the population the two can be compared on.
 */
export function closeGapsDays(events: readonly Json[], now: number): number[] {
  const gaps: number[] = []
  for (const e of events) {
    for (const m of e.markets ?? []) {
      if (m.status !== 'active') continue
      const date = subTitleDate(m.yes_sub_title) ?? subTitleDate(e.sub_title)
      const close = Date.parse(m.close_time)
      if (date !== undefined && date - now > 180 * 86_400_000 && Number.isFinite(close))
        gaps.push((close - date) / 86_400_000)
    }
  }
  return gaps
}

function fold(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ø/g, 'o')
    .replace(/Ø/g, 'O')
    .replace(/ł/g, 'l')
    .replace(/Ł/g, 'L')
}

const NICKNAMES: Record<string, string> = {
  Alexander: 'Alex',
  William: 'Bill',
  Robert: 'Bob',
  Katherine: 'Kate',
  Nicholas: 'Nick',
  Elizabeth: 'Liz',
  Jonathan: 'Jon',
  Theodore: 'Ted',
  Margaret: 'Maggie',
  Christopher: 'Chris',
}

/** How two spellings of one name differ ("J.D. Vance" / "JD Vance": initials), or undefined when they do not. */
export function spellingVariant(a: string, b: string): string | undefined {
  if (a === b) return undefined
  if (fold(a) === fold(b)) return 'diacritics'
  if (a.replace(/\./g, '') === b.replace(/\./g, '')) return 'initials'
  const noMiddle = (s: string) => s.replace(/ [A-Z]\. /, ' ')
  if (noMiddle(a) === noMiddle(b)) return 'middle initial'
  const noSuffix = (s: string) => s.replace(/ (Jr\.|Sr\.|III)$/, '')
  if (noSuffix(a) === noSuffix(b)) return 'suffix'
  const nick = (s: string) => s.replace(/^(\w+)/, (w) => NICKNAMES[w] ?? w)
  if (nick(a) === nick(b)) return 'nickname'
  const party = (s: string) =>
    s
      .toLowerCase()
      .replace(/^the /, '')
      .replace(/ party$/, '')
      .replace(/s$/, '')
      .replace(/ic$/, '')
  if (/democrat|republican/i.test(a) && party(a) === party(b)) return 'party name'
  return 'other'
}

/** venuep's placeholder children ("Person K", "Party A", "Team AM", "Company C", "Placeholder 13", "another person"). */
export const PLACEHOLDER =
  /\b(Person [A-Z]|Party [A-Z]|Team [A-Z]{2}|Club [A-Z]|Company [A-Z]|Individual [A-Z]|Placeholder \d+|another (person|party))\b/
