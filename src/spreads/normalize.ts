/**
 * Text normalization for cross-venue matching. The venues word the same question differently ("Fed decision in
 * December?" vs "Fed rate decision on Dec 10, 2026"), so matching compares normalized token sets, explicit dates
 * and numbers pulled out of the text rather than raw strings.
 */
const STOPWORDS = new Set([
  'a', 'an', 'the', 'of', 'in', 'on', 'at', 'by', 'for', 'to', 'be', 'will', 'is', 'are', 'was', 'who', 'what', 'which', 'when',
  'and', 'or', 'vs', 'v', 'than', 'after', 'before', 'during', 'end', 'its', 'it', 'this', 'that', 'with', 'from', 'as',
  'winner', 'win', 'wins', 'winning', 'above', 'below', 'over', 'under', 'or above', 'more', 'less', 'least', 'most',
  'yes', 'no', 'today', 'race', 'market', 'markets', 'price', 'prices',
])

const MONTHS: Record<string, number> = {
  jan: 1, january: 1, feb: 2, february: 2, mar: 3, march: 3, apr: 4, april: 4, may: 5, jun: 6, june: 6, jul: 7, july: 7,
  aug: 8, august: 8, sep: 9, sept: 9, september: 9, oct: 10, october: 10, nov: 11, november: 11, dec: 12, december: 12,
}

/**
 * Asset names and their tickers, which venues use interchangeably ("Ethereum" / "ETH"). Real-world knowledge a
 * matcher needs; extend it through config when a new asset is listed.
 */
const ALIASES: Record<string, string> = {
  btc: 'bitcoin',
  eth: 'ethereum',
  sol: 'solana',
  doge: 'dogecoin',
  ada: 'cardano',
  avax: 'avalanche',
  xrp: 'ripple',
  gubernatorial: 'governor',
}

/**
 * Verbs and adjectives the venues use interchangeably in question titles ("reach"/"hit", "launch"/"release"),
 * mapped to one word after stemming. Generic English equivalences, not venue-specific ids.
 */
const SYNONYMS: Record<string, string> = {
  hit: 'reach',
  touch: 'reach',
  release: 'launch',
  releas: 'launch',
  drop: 'launch',
  ship: 'launch',
  warmest: 'hottest',
  elect: 'win',
  leave: 'out',
  resign: 'out',
}

/** Light suffix stripping so "recorded"/"record" and "releases"/"release" compare equal. */
function stem(t: string): string {
  if (t.length <= 4 || /\d/.test(t)) return t
  if (t.endsWith('ies')) return `${t.slice(0, -3)}y`
  if (t.endsWith('ing') && t.length > 5) return t.slice(0, -3)
  if (t.endsWith('ed') && t.length > 4) return t.slice(0, -2)
  if (/(ss|x|z|ch|sh)es$/.test(t)) return t.slice(0, -2)
  if (t.endsWith('s') && !t.endsWith('ss')) return t.slice(0, -1)
  return t
}

/** Lowercase, stemmed, aliased words without punctuation, stopwords, months or years. */
export function tokens(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[’']/g, '')
    .replace(/(\d),(\d{3})/g, '$1$2')
    .replace(/[^a-z0-9.]+/g, ' ')
    .split(' ')
    .map((t) => t.replace(/^\.+|\.+$/g, ''))
    .filter((t) => t.length > 0 && !STOPWORDS.has(t) && !(t in MONTHS) && !/^\d{4}$/.test(t))
    .map((t) => ALIASES[t] ?? stem(t))
    .map((t) => SYNONYMS[t] ?? t)
}

/**
 * Title tokens for comparing questions: `tokens` without day-of-month numbers, which `datesIn` compares on
 * their own ("by May 15" and "before May 16" are the same deadline). Amounts and thresholds stay.
 */
export function titleTokens(text: string): string[] {
  return tokens(text).filter((t) => !/^\d{1,2}$/.test(t) || Number(t) > 31)
}

const NOT_ENTITIES = new Set(['will', 'who', 'which', 'what', 'when', 'how', 'the', 'a', 'an', 'in', 'on', 'at', 'by', 'of', 'for', 'to', 'yes', 'no', 'is', 'are', 'be', 'vs', 'and', 'or', 'new'])

/**
 * Names in a title: capitalized words (and acronyms), lowercased and aliased, without months or function words.
 * Two titles that each name something the other does not ("Chicago" / "Seattle") are about different things,
 * however similar the rest of the wording.
 */
export function entities(title: string): Set<string> {
  const out = new Set<string>()
  for (const m of title.matchAll(/\b[A-Z][A-Za-z0-9]*\b/g)) {
    const w = (m[0] as string).toLowerCase()
    if (w.length < 2 || NOT_ENTITIES.has(w) || w in MONTHS) continue
    out.add(ALIASES[w] ?? w)
  }
  return out
}

/** Jaccard similarity of two token sets (0 when both are empty). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0
  let common = 0
  for (const t of a) if (b.has(t)) common++
  return common / (a.size + b.size - common)
}

/** Share of the smaller set found in the larger one. */
export function containment(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a]
  if (small.size === 0) return 0
  let common = 0
  for (const t of small) if (large.has(t)) common++
  return common / small.size
}

/** Explicit calendar dates written in the text ("November 24, 2026", "Nov 24, 2026", "2026-11-24"), as YYYY-MM-DD. */
export function datesIn(text: string): string[] {
  const out = new Set<string>()
  const lower = text.toLowerCase()
  for (const m of lower.matchAll(/\b([a-z]{3,9})\.? (\d{1,2}),? (\d{4})\b/g)) {
    const month = MONTHS[m[1] as string]
    if (month !== undefined) out.add(`${m[3]}-${String(month).padStart(2, '0')}-${String(m[2]).padStart(2, '0')}`)
  }
  for (const m of lower.matchAll(/\b(\d{4})-(\d{2})-(\d{2})\b/g)) out.add(`${m[1]}-${m[2]}-${m[3]}`)
  return [...out]
}

/** Month-year mentions ("December 2026") as YYYY-MM. */
export function monthsIn(text: string): string[] {
  const out = new Set<string>()
  for (const m of text.toLowerCase().matchAll(/\b([a-z]{3,9}) (\d{4})\b/g)) {
    const month = MONTHS[m[1] as string]
    if (month !== undefined) out.add(`${m[2]}-${String(month).padStart(2, '0')}`)
  }
  return [...out]
}

/** Four-digit years mentioned in the text. */
export function yearsIn(text: string): string[] {
  return [...new Set([...text.matchAll(/\b(20\d{2})\b/g)].map((m) => m[1] as string))]
}

/**
 * The numbers a text mentions, normalized (commas removed, trailing zeros dropped): thresholds and brackets
 * ("$100,000", "2.9%", "60-61°F") are how ladder outcomes differ.
 */
export function numbersIn(text: string): number[] {
  return [...text.replace(/(\d),(\d{3})/g, '$1$2').matchAll(/\d+(?:\.\d+)?/g)].map((m) => Number(m[0]))
}

/** A canonical label key: sorted content tokens ("Decrease of 25 bps" and "25 bps decrease" agree). */
export function labelKey(label: string): string {
  return [...new Set(tokens(label))].sort().join(' ')
}

/** UTC calendar day of a timestamp. */
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10)
}
