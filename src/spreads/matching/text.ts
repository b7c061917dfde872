/**
 * Words of a contract's text, normalized so the two venues' wordings of one question compare equal and different
 * questions do not. Rules are about English and the venues' title templates in general, never about a title:
 *
 * - folded: lower case, diacritics dropped ("Erdő" → "erdo"), apostrophes and dots inside words dropped ("J.D." →
 *   "jd", "U.S." → "us"), so spellings of one name agree;
 * - single letters dropped: middle initials ("Stephen A. Smith" → "stephen smith") and stray letters; name suffixes
 *   ("Jr.", "III") are words and stay, so "Donald Trump Jr." is not "Donald Trump";
 * - light stemming ("nominees" → "nominee") and a table of words the venues use interchangeably ("winner" / "win",
 *   "presidency" / "presidential", "Democrats" / "Democratic"), each an equivalence of English, not of a venue;
 * - function words and the question templates' own words (will, who, which, next, happen, party…) dropped: they do
 *   not say what resolves the contract;
 * - numbers, months and deadline words are left to the period and strike parsers (periods.ts, strikes.ts).
 */

/** Words that carry no part of what a contract resolves on: function words and question-template words. */
const GENERIC = new Set([
  'a',
  'an',
  'the',
  'of',
  'in',
  'on',
  'at',
  'to',
  'for',
  'from',
  'with',
  'as',
  'and',
  'or',
  'vs',
  'versus',
  'v',
  'will',
  'would',
  'shall',
  'be',
  'is',
  'are',
  'was',
  'were',
  'been',
  'being',
  'do',
  'does',
  'did',
  'has',
  'have',
  'had',
  'who',
  'what',
  'which',
  'when',
  'where',
  'whom',
  'whose',
  'how',
  'why',
  'whether',
  'it',
  'its',
  'this',
  'that',
  'these',
  'those',
  'there',
  'their',
  'his',
  'her',
  'he',
  'she',
  'they',
  'them',
  'any',
  'some',
  'yes',
  'no',
  'not',
  'next',
  'happen',
  'occur',
  'get',
  'than',
  'then',
  'also',
  'again',
  'ever',
  'one',
  // "Win the 2028 Colorado governor election" is "be elected governor of Colorado in 2028": the contest is named by
  // its office and year; a primary or nomination names itself ("nomination" stays a word).
  'election',
  'elections',
  'race',
  // A dollar threshold on an asset is on its price; a decision "announced" at a meeting is the decision.
  'price',
  'prices',
  'value',
  'announce',
  'announced',
  'announces',
  'announcement',
  'meeting',
  'new',
  'market',
  'question',
  'outcome',
  'party',
  'person',
  'candidate',
  'option',
  'official',
  'officially',
  // Deadline and period words: periods.ts reads them; as words they only repeat the period.
  'by',
  'before',
  'after',
  'until',
  'till',
  'through',
  'thru',
  'during',
  'since',
  'prior',
  'end',
  'ending',
  'start',
  'year',
  'years',
  'day',
  'days',
  'month',
  'months',
  'week',
  'weeks',
  'date',
  'time',
  'today',
  'tonight',
  'tomorrow',
  'later',
  'least',
  'most',
  'calendar',
  'et',
  'est',
  'edt',
  'utc',
  'gmt',
  'pt',
  'noon',
  'midnight',
  // The occasion of a head-to-head contest: its teams and date say which one.
  'game',
  'match',
  // Comparators and units: strikes.ts reads them.
  'above',
  'below',
  'over',
  'under',
  'more',
  'less',
  'fewer',
  'greater',
  'higher',
  'lower',
  'between',
  'exactly',
  'equal',
  'plus',
  'percent',
  'pct',
  'bps',
  'basis',
  'point',
  'points',
])

const MONTHS = new Set([
  'jan',
  'january',
  'feb',
  'february',
  'mar',
  'march',
  'apr',
  'april',
  'may',
  'jun',
  'june',
  'jul',
  'july',
  'aug',
  'august',
  'sep',
  'sept',
  'september',
  'oct',
  'october',
  'nov',
  'november',
  'dec',
  'december',
])

/**
 * Words the venues use for the same thing, mapped to one. English equivalences only: a word whose meaning differs
 * in a way a contract can turn on (resign ≠ leave office, nominee ≠ winner, announce ≠ nominate) is not here.
 */
// A Map, not an object: a word like "constructor" must not find Object.prototype's members.
const SAME_AS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    winner: 'win',
    wins: 'win',
    won: 'win',
    winning: 'win',
    presidency: 'president',
    presidential: 'president',
    presidents: 'president',
    democrat: 'democratic',
    democrats: 'democratic',
    dem: 'democratic',
    dems: 'democratic',
    republicans: 'republican',
    gop: 'republican',
    buy: 'acquire',
    purchase: 'acquire',
    acquires: 'acquire',
    acquired: 'acquire',
    acquisition: 'acquire',
    leave: 'out',
    leaves: 'out',
    ousted: 'out',
    removed: 'out',
    release: 'launch',
    released: 'launch',
    releases: 'launch',
    launches: 'launch',
    launched: 'launch',
    hit: 'reach',
    hits: 'reach',
    touch: 'reach',
    reaches: 'reach',
    reached: 'reach',
    usa: 'us',
    america: 'us',
    britain: 'uk',
    elected: 'win',
    elect: 'win',
    nominee: 'nomination',
    nominees: 'nomination',
    btc: 'bitcoin',
    eth: 'ethereum',
    sol: 'solana',
    doge: 'dogecoin',
    xrp: 'ripple',
    ada: 'cardano',
    avax: 'avalanche',
    gubernatorial: 'governor',
    governorship: 'governor',
    warmest: 'hottest',
    title: 'championship',
    titles: 'championship',
    champion: 'championship',
    champions: 'championship',
    temp: 'temperature',
    temps: 'temperature',
    temperatures: 'temperature',
    highest: 'high',
    lowest: 'low',
    // A day's maximum temperature is its high ("maximum temperature" / "highest temperature").
    maximum: 'high',
    minimum: 'low',
    mention: 'say',
    mentions: 'say',
    mentioned: 'say',
    said: 'say',
    says: 'say',
    pm: 'prime-minister',
  }),
)

/** Phrases written as one word before splitting ("prime minister" → prime-minister), same rule as SAME_AS. */
const PHRASES: readonly (readonly [RegExp, string])[] = [
  [/\bunited states(?: of america)?\b/g, 'us'],
  [/\bunited kingdom\b/g, 'uk'],
  // The city as venues abbreviate it ("NYC", "New York City"); "New York" alone may be the state.
  [/\bnew york city\b/g, 'nyc'],
  [/\bprime minister\b/g, 'prime-minister'],
  [/\bfederal reserve\b/g, 'fed'],
  [/\bsupreme court\b/g, 'supreme-court'],
  [/\bsupreme leader\b/g, 'supreme-leader'],
  [/\bwhite house\b/g, 'white-house'],
  [/\ball[- ]time high\b/g, 'all-time-high'],
  [/\b(?:leave|leaves|left|out of) office\b/g, 'out'],
  // A ceasefire, truce or deal is an agreement: "agree to a ceasefire" is "a ceasefire".
  [/\bagree(?:s|d)? (?:to|on) (?:a |an )?(ceasefire|truce|peace deal|deal)\b/g, '$1'],
  // Price thresholds: "trade at or above $X" is reaching $X (strikes.ts reads the comparator).
  [/\btrades? (?=at least|at or above|above|over|at or below|below|under|\$?\d)/g, 'reach '],
  // An economic data release named by its month ("January 2027 release") is the month's figure.
  [/\b((?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d{4}) release\b/g, '$1'],
]

/**
 * Words one of PHRASES needs: a text without any skips their sixteen passes (most catalog text; the passes were a
 * large share of reading a contract's words). Keep in step with PHRASES (checked by
 * test/spreads/matching/reading-shortcuts.property.test.ts).
 */
const PHRASE_HINT = /united|new york|prime|federal|supreme|white house|time high|office|agree|trade|release/

const PLAIN_WORD = /^[a-z]+$/

/** Lower case, no diacritics, no apostrophes or dots inside words, typographic dashes and quotes made plain. */
export function fold(text: string): string {
  // Most catalog text is ASCII: none of the replacements below but the backtick can apply (a third of a matcher
  // build's parsing went to these passes).
  if (ASCII.test(text)) {
    const lower = text.toLowerCase()
    return dotted(lower.includes('`') ? lower.replace(/`/g, "'") : lower)
  }
  return foldFully(text)
}

/** `fold` without its ASCII shortcut (the shortcut must agree with it: test/spreads/matching/text-fold.property.test.ts). */
export function foldFully(text: string): string {
  return dotted(foldUnicode(text))
}

const ASCII = /^[\x00-\x7f]*$/

/** Initials and abbreviations: "U.S." → "us", "J. D." → "j d". */
function dotted(t: string): string {
  if (!t.includes('.')) return t
  return t.replace(/([a-z])\.(?=[a-z]\b|[a-z]\.)/g, '$1').replace(/\b([a-z])\.(?=\s|$)/g, '$1')
}

function foldUnicode(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      // Letters that do not decompose: "Łukaszewski", "Ødegaard", "Straße".
      .replace(/[łŀ]/g, 'l')
      .replace(/ø/g, 'o')
      .replace(/æ/g, 'ae')
      .replace(/œ/g, 'oe')
      .replace(/ß/g, 'ss')
      .replace(/[đð]/g, 'd')
      .replace(/þ/g, 'th')
      .replace(/ı/g, 'i')
      .replace(/[’‘`´]/g, "'")
      .replace(/[–—−]/g, '-')
  )
}

/** Light suffix stripping so "nominees"/"nominee" and "recorded"/"record" agree. */
function stem(t: string): string {
  if (t.length <= 3 || /\d/.test(t)) return t
  if (t.endsWith('ies')) return `${t.slice(0, -3)}y`
  if (/(ss|x|z|ch|sh)es$/.test(t)) return t.slice(0, -2)
  if (t.endsWith('s') && !t.endsWith('ss') && !t.endsWith('us') && !t.endsWith('is')) return t.slice(0, -1)
  // Verb forms: "nominated" / "nominate" → "nominat" (a noun like "nomination" keeps its own form).
  if (t.length > 6 && t.endsWith('ed') && !t.endsWith('eed')) return t.slice(0, -2)
  if (t.length > 5 && t.endsWith('e') && !t.endsWith('ee')) return t.slice(0, -1)
  return t
}

/** Normalized content words of a text: what it says a contract resolves on, minus dates, numbers and templates. */
export function contentWords(text: string): string[] {
  return readWords(text, true)
}

/**
 * `contentWords` without its shortcuts, which must agree with it
 * (test/spreads/matching/reading-shortcuts.property.test.ts).
 */
export function contentWordsAllPasses(text: string): string[] {
  return readWords(text, false)
}

function readWords(text: string, shortcuts: boolean): string[] {
  let t = fold(text)
  // A quoted nickname is part of a name the other venue may not write ("Dwayne 'The Rock' Johnson").
  t = t.replace(/\s'[^']{1,30}'\s/g, ' ')
  if (!shortcuts || PHRASE_HINT.test(t)) for (const [re, to] of PHRASES) t = t.replace(re, to)
  const out: string[] = []
  let previous = ''
  for (const raw of t.split(/[^a-z0-9'-]+/)) {
    // Most words are plain letters: none of the rules for numbers, apostrophes and hyphens below applies.
    if (shortcuts && PLAIN_WORD.test(raw)) {
      previous = raw
      const s = plainWord(raw)
      if (s !== '') out.push(s)
      continue
    }
    const w = raw
      .replace(/^[-']+|[-']+$/g, '')
      .replace(/'s$/, '')
      .replace(/'/g, '')
    // Numbers are dates, thresholds or times (periods.ts, strikes.ts), except an ordinal ("22nd") or the number of a
    // season, game or part ("Season 3"), which names which one: kept as a word ("season", "#3").
    if (/^\d{1,3}(st|nd|rd|th)$/.test(w) && !MONTHS.has(previous)) {
      out.push(w)
      continue
    }
    if (/^\d+$/.test(w) && NUMBERED.has(previous)) {
      out.push(`#${w}`)
      continue
    }
    previous = w
    if (w.length < 2 || /^\d+(st|nd|rd|th|am|pm)?$/.test(w) || MONTHS.has(w)) continue
    // Hyphenated words compare by their parts ("Ocasio-Cortez" and "Ocasio Cortez"), joined phrases above excepted.
    const parts = w.includes('-') && !PHRASE_WORDS.has(w) ? w.split('-') : [w]
    for (const p of parts) {
      if (p.length < 2 || /^\d+$/.test(p)) continue
      const same = SAME_AS.get(p) ?? SAME_AS.get(stem(p))
      const s = stem(same ?? p)
      if (!GENERIC.has(s) && !GENERIC.has(p)) out.push(s)
    }
  }
  return out
}

/**
 * What a word of plain letters contributes to contentWords ('' nothing: too short, a month, generic), by word: a
 * catalog's texts repeat a vocabulary of some tens of thousands of words, each stemmed once.
 */
function plainWord(w: string): string {
  let s = PLAIN_WORDS.get(w)
  if (s === undefined) {
    // Bounded: cleared past 200,000 words.
    if (PLAIN_WORDS.size >= 200_000) PLAIN_WORDS.clear()
    if (w.length < 2 || MONTHS.has(w)) s = ''
    else {
      const stemmed = stem(SAME_AS.get(w) ?? SAME_AS.get(stem(w)) ?? w)
      s = GENERIC.has(stemmed) || GENERIC.has(w) ? '' : stemmed
    }
    PLAIN_WORDS.set(w, s)
  }
  return s
}

const PLAIN_WORDS = new Map<string, string>()

/** Nouns whose number says which one: "Season 3" is not "Season 2". */
const NUMBERED = new Set([
  'season',
  'seasons',
  'game',
  'episode',
  'part',
  'volume',
  'vol',
  'chapter',
  'round',
  'stage',
  'phase',
  'generation',
  'gen',
  'series',
  'book',
  'film',
  'movie',
  'album',
  'edition',
  'number',
  'no',
])

/** Suffixes that make another person of the same name ("Donald Trump Jr."). */
export const NAME_SUFFIXES: ReadonlySet<string> = new Set(['jr', 'sr', 'ii', 'iii', 'iv', 'v'])

/** The joined phrases ("prime-minister"): hyphenated, but one word. */
const PHRASE_WORDS: ReadonlySet<string> = new Set(PHRASES.map(([, to]) => to))

/**
 * Words a side may name that the other leaves implicit without the contracts differing: the United States, which
 * US-listed questions often do not spell out ("2028 Presidential Election" / "2028 US Presidential Election").
 * Another country on one side is a different subject (docs/spreads.md F6) and is not here.
 */
export const IMPLICIT_WORDS: ReadonlySet<string> = new Set(['us'])
