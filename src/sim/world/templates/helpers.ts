import type { Rng } from '../random.js'
import { outcomeSides } from '../shapes/outcome-sets.js'
import type { Spelled } from '../shapes/spellings.js'
import { slugsEndDate } from '../shapes/venue-dates.js'
import type { GroupTitles, ContractSpec } from './types.js'

export const DAY_MS = 86_400_000

export function distinct<T>(rng: Rng, n: number, make: () => T, keyOf: (t: T) => string = String): T[] {
  const out = new Map<string, T>()
  for (let guard = 0; out.size < n && guard < n * 20; guard++) {
    const t = make()
    out.set(keyOf(t), t)
  }
  return [...out.values()]
}

export function suffixOf(label: string): string {
  const words = label
    .toUpperCase()
    .replace(/[^A-Z0-9 ]/g, '')
    .split(' ')
    .filter(Boolean)
  return (words[words.length - 1] ?? 'X').slice(0, 6)
}

export function multiBases(rng: Rng, n: number): number[] {
  // A favourite, a few contenders and long shots: logits spread so probabilities look like real books.
  return Array.from({ length: n }, (_, i) => (i === 0 ? 1.2 : 0) + rng.normal() * 0.9 - i * 0.35)
}

export function binaryContract(label = 'Yes'): ContractSpec {
  return { label, onSlugs: true, onTickers: true, slugsLabel: label, tickersLabel: label, tickersSuffix: 'YES' }
}

/**
 * Candidates named as each venue spells them (shapes/spellings.ts), each listed on both venues or on one only
 * (shapes/outcome-sets.ts).
 */
export function spelledContracts(rng: Rng, names: readonly Spelled[]): ContractSpec[] {
  const used = new Set<string>()
  const sides = outcomeSides(rng, names.length)
  return names.map((n, i) => {
    let suffix = suffixOf(n.tickers)
    while (used.has(suffix)) suffix += 'X'
    used.add(suffix)
    return {
      label: n.label,
      ...(sides[i] as { onSlugs: boolean; onTickers: boolean }),
      slugsLabel: n.slugs,
      tickersLabel: n.tickers,
      tickersSuffix: suffix,
    }
  })
}

/**
 * How a grouped the slug style event titles its children: the label (55%), `""` (10%), or no field (35%), when the name is
 * only in the question. The real captures drop `groupItemTitle` on 84 of 108 grouped events (some of it is the
 * capture's loss), and the raw Gamma pages send `""` on most single-market events.
 */
export function groupTitles(rng: Rng): GroupTitles {
  const r = rng.next()
  return r < 0.55 ? 'title' : r < 0.65 ? 'empty' : 'absent'
}

export function fmtMoney(x: number): string {
  if (x < 1) return `$${x.toFixed(3).replace(/0+$/, '')}`
  // Manual grouping: Number#toLocaleString is slow enough to dominate world generation.
  const [int, frac] = (Math.round(x * 100) / 100).toString().split('.') as [string, string | undefined]
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return frac === undefined ? `$${grouped}` : `$${grouped}.${frac}`
}

/** Thresholds around a level; each venue lists an overlapping subset, as real ladders differ. */
export function ladder(
  level: number,
  stepFraction: number,
  rng: Rng,
): { values: number[]; onP: boolean[]; onK: boolean[] } {
  const rawStep = level * stepFraction
  const magnitude = 10 ** Math.floor(Math.log10(rawStep))
  const step = Math.max(magnitude, Math.round(rawStep / magnitude) * magnitude)
  const center = Math.round(level / step) * step
  const count = rng.int(5, 8)
  const values: number[] = []
  for (let i = 0; i < count; i++) values.push(Number((center + (i - Math.floor(count / 2)) * step).toPrecision(10)))
  const offsetP = rng.int(0, 1)
  const onP = values.map((_, i) => i >= offsetP && i < count - (1 - offsetP))
  const onK = values.map((_, i) => (i + 1) % 4 !== 0 || i === 0)
  return { values, onP, onK }
}

/**
 * The slug-style side of a candidate group (one neg-risk market per person, party or team), as the real catalogs list
 * one: each market asks `ask(name)` about the name as the slug style spells it, titled by that name. Draws the group's title
 * style, then its end date (in that order: the world is seeded).
 */
export function candidateGroup(rng: Rng, names: readonly Spelled[], ask: (name: string) => string, endTime: number) {
  return {
    negRisk: true,
    outcomes: undefined,
    marketQuestion: (i: number) => ask((names[i] as Spelled).slugs),
    groupItemTitle: (i: number) => (names[i] as Spelled).slugs,
    groupTitles: groupTitles(rng),
    endDate: slugsEndDate(endTime, rng),
  }
}

/**
 * The day a team takes up (Template.occupies): its name without the kind of organisation ("Draxil Esports" is
 * "Draxil"), so two spellings of one team never play twice that day.
 */
export function teamDay(sport: string, name: string, dateCode: string): string {
  const base = name
    .toLowerCase()
    .replace(/\b(?:esports|e-sports|gaming|team|club|fc)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  return `${sport}:${base}:${dateCode}`
}
