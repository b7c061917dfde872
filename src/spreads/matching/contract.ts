import type { CatalogEvent, IdentifierFacts, Outcome } from '../../model/types.js'
import { DIRECT, mayBeContest, readContest, type ContestFacts, type ContestTexts } from './contest.js'
import { NO_ALIASES, type AliasLookup } from './names.js'
import { hasFacts, NO_PERIOD, periodFacts, periodKeys, type PeriodFacts } from './periods.js'
import { ReadingParts } from './reading-parts.js'
import { intervalIn, intervalOfStrike, type Interval } from './strikes.js'
import { contentWords, fold, IMPLICIT_WORDS } from './text.js'

/**
 * One binary contract as the matcher reads it: what it is about (content words), when it is decided (period), on
 * what threshold (interval), and the venue's own end time. Built from every text the venue writes about it, most
 * specific first: the outcome's label (its title: a group item's title, a ladder rung's subtitle, or the name its
 * question gives), the market's own question or title (`details.question`), the event's subtitle, the event's title.
 *
 * - A binary market the venue lists as its two sides (two outcomes, each the other's complement book, or a group's
 *   child whose `details.sides` are named): a yes/no market is one contract (its YES side; NO is the same contract's
 *   other side); a two-sided market ("Lakers" / "Celtics", "Over" / "Under") is two, each side its own contract.
 * - A head-to-head contract (a side of a two-sided game market, a team's market of a game, "Will A vs. B end in a
 *   draw?") is also read as a contest (contest.ts): who plays whom, what resolves it, which part, which day. Such
 *   contracts are judged field by field (contest-judge.ts), not by their words.
 * - Any other outcome is one contract (its YES side): a group's children, a venue's markets listed one an outcome.
 * - Labels that stand for a set rather than one thing ("Other", "Someone else", "None of the above") never pair.
 */
export interface ContractSpec extends TextReading {
  readonly outcome: Outcome
  readonly event: CatalogEvent
  /** The texts read, most specific first (label, question, subtitle, event title), for evidence. */
  readonly texts: readonly string[]
  /** The venue's end time of this contract (the outcome's `closeTime`, else the event's), evidence only. */
  readonly end: number | undefined
  /**
   * What the reading depends on besides its texts (its end day, strike, contest sides, code and identifier), as one
   * short string: two specs with the same texts, facts and outcome were read the same way (the matcher keeps a held
   * contract when a refresh brings the same reading, `sameReading`). The texts are not copied into it: they are the
   * catalog's own strings, held once (`readingKey` joins both where one string is needed).
   */
  readonly facts: string
}

/**
 * What a contract's texts say, as the judge reads it: shared by every contract read from the same inputs.
 *
 * Word sets are arrays of distinct words, not Sets: a contract states a handful of words (about ten with its frame),
 * where a scan is as quick as a hash lookup, and a Set of that size holds about twice the bytes of the array (a
 * third of a contract's memory went to its three Sets; docs/SCALE.md).
 */
export interface TextReading {
  /** Normalized content words of the contract's own texts, its label and question (text.ts); distinct. */
  readonly words: readonly string[]
  /** Those and the words of the event's frame (subtitle, title): what the venue states around the contract; distinct. */
  readonly allWords: readonly string[]
  /**
   * The distinct words of the outcome's label alone ("J.D. Vance" → jd vance; empty for "Yes", "Before 2030",
   * "Above 5%"): `labelSequence` itself when its words are distinct (nearly always).
   */
  readonly labelWords: readonly string[]
  /** The same words in the label's order. */
  readonly labelSequence: readonly string[]
  /**
   * What the other side must state (judge.ts `mayMatch`): its own words but its label's and the implicit ones, and its
   * label's words (a label is compared as a name: a short form, a shortened first name, an alias). The blocking
   * indexes look candidates up by these (contract-index.ts).
   */
  readonly required: readonly string[]
  /**
   * The words the word indexes block it by (contract-index.ts): `required` and its label's first word (labels that
   * agree or where one is a short form beginning the other share it; other agreeing labels meet in the LabelIndex).
   */
  readonly blocking: readonly string[]
  /** The period of the most specific text that states one (periods.ts). */
  readonly period: PeriodFacts
  /** The threshold or range (the outcome's strike fields first, then the label, then the question). */
  readonly interval: Interval | undefined
  /** The days its period can meet another's on (periods.ts `periodKeys`), for blocking. */
  readonly periodKeys: readonly string[]
  /** The head-to-head proposition, when the contract is one (contest.ts). */
  readonly contest: ContestFacts | undefined
  /** A finishing-position contract's N ("top 10", "Top-5 finish"), undefined otherwise. */
  readonly rank: number | undefined
  /** Its texts ask who or what is NEXT ("the next Prime Minister"): a question without a period of its own. */
  readonly successor: boolean
  /**
   * 64-bit Bloom signatures (two 32-bit halves) of `required` and of `allWords`. A required bit missing from the
   * other's `allWords` signature proves a required word missing: judge.ts `mayMatch` rejects most candidates on two
   * integer tests. Held as four small integers on the reading itself (no signature objects: 80 bytes a contract).
   */
  readonly requiredHi: number
  readonly requiredLo: number
  readonly allHi: number
  readonly allLo: number
}

interface WordSignature {
  readonly hi: number
  readonly lo: number
}

/** Whether a held spec was read from what `r` would be read from: the same outcome, texts, facts and end time. */
export function sameReading(held: ContractSpec, r: Reading): boolean {
  return (
    held.facts === r.facts &&
    held.end === r.end &&
    held.outcome.outcomeId === r.outcome.outcomeId &&
    sameTexts(held.texts, r.texts)
  )
}

function sameTexts(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** Everything a reading is read from, as one string: equal keys read the same way (SpecCache, match files). */
export function readingKey(r: Pick<Reading, 'texts' | 'facts'>): string {
  return `${r.texts.join('\u0000')}\u0000${r.facts}`
}

/**
 * Points a held spec at a newer catalog's objects for the same contract (`sameReading`), so the matcher's state
 * keeps no older catalog alive. Everything the judge reads is unchanged by definition.
 */
export function rebind(held: ContractSpec, current: Reading): void {
  const target = held as { outcome: Outcome; event: CatalogEvent; texts: readonly string[] }
  target.outcome = current.outcome
  target.event = current.event
  // Equal strings, but the new catalog's: the old catalog's copies are freed with it. (`facts` is not the catalog's:
  // the held one, shared with equal readings, stays.)
  target.texts = current.texts
}

/** Labels of catch-all outcomes: their contract depends on which others the venue lists. */
const CATCH_ALL =
  /^(?:other|others|another|any other|someone else|somebody else|none|none of the above|no one|nobody|field|the field|all others|rest of field)\b/

/**
 * Labels repeat across a catalog ("Yes", team names, "Above $X"): each is folded once. Bounded: cleared past
 * 100,000 labels (the next refresh fills it again).
 */
const catchAllLabels = new Map<string, boolean>()

function isCatchAll(label: string): boolean {
  let known = catchAllLabels.get(label)
  if (known === undefined) {
    if (catchAllLabels.size >= 100_000) catchAllLabels.clear()
    catchAllLabels.set(label, (known = CATCH_ALL.test(fold(label).trim())))
  }
  return known
}

/** The contracts of an event, one per tradable outcome (the order of the event's outcomes). */
export function contractsOf(event: CatalogEvent, cache: SpecCache): ContractSpec[] {
  return readingsOf(event).map((r) => cache.spec(r))
}

/**
 * What each contract of an event would be read from, without reading it (no text is parsed): its outcome, texts, end
 * time and key. The matcher compares a refreshed event's readings with the contracts it holds by key, and parses only
 * the ones that changed.
 */
export interface Reading {
  readonly event: CatalogEvent
  readonly outcome: Outcome
  readonly texts: readonly string[]
  readonly end: number | undefined
  /** A two-sided market's labels (not Yes/No) and which side this contract is. */
  readonly sides: readonly [string, string] | undefined
  readonly sideIndex: number | undefined
  readonly code: string | undefined
  readonly identifier: IdentifierFacts | undefined
  /** ContractSpec `facts`. */
  readonly facts: string
}

export function readingsOf(event: CatalogEvent): Reading[] {
  const out: Reading[] = []
  for (const market of event.markets) {
    for (const o of market.outcomes) {
      const sides = namedSides(o)
      if (sides === undefined && o.details?.sides !== undefined && o.outcomeIndex === 1) continue
      if (o === market.outcomes[1] && isYesNo(market.outcomes) && isTwoSides(market.outcomes)) continue
      const label = sides !== undefined ? sides[o.outcomeIndex === 1 ? 1 : 0] : labelOf(o, market.outcomes)
      if (isCatchAll(label)) continue
      out.push(reading(event, o, label, sides ?? (isContest(market.outcomes) ? sidesOf(market.outcomes) : undefined)))
    }
  }
  return out
}

/** The two labels of the outcome's binary market when the venue names its sides otherwise than Yes/No. */
function namedSides(o: Outcome): readonly [string, string] | undefined {
  const s = o.details?.sides
  if (s === undefined || (s[0].trim().toLowerCase() === 'yes' && s[1].trim().toLowerCase() === 'no')) return undefined
  return s
}

function sidesOf(outcomes: readonly Outcome[]): readonly [string, string] {
  return [outcomes[0]?.title ?? '', outcomes[1]?.title ?? '']
}

function reading(
  event: CatalogEvent,
  o: Outcome,
  label: string,
  sides: readonly [string, string] | undefined,
): Reading {
  const question = o.details?.question ?? ''
  const subtitle = event.subtitle ?? ''
  const texts = [label, question === label ? '' : question, subtitle, event.title]
  const end = o.closeTime ?? event.endTime
  // Year-less dates are dated from the contract's own end (its day): part of its facts.
  const reference = end === undefined ? '' : Math.floor(end / DAY_MS)
  const strike = o.strike === undefined ? '' : `${o.strike.type}|${o.strike.floor}|${o.strike.cap}`
  const identifier = event.details?.identifier
  const code = o.details?.code
  const sideIndex = sides === undefined ? undefined : o.outcomeIndex === 1 ? 1 : 0
  return {
    event,
    outcome: o,
    texts,
    end,
    sides,
    sideIndex,
    code,
    identifier,
    // `readingKey` (texts, then these) is the key this was before facts were held apart from the texts: match files'
    // reading fingerprints are its digest, so files written before still check.
    facts: [
      reference,
      strike,
      sides === undefined ? '' : `${sides.join('\u0001')}\u0001${sideIndex}`,
      code ?? '',
      identifierKey(identifier),
    ].join('\u0000'),
  }
}

function identifierKey(f: IdentifierFacts | undefined): string {
  return f === undefined ? '' : `${f.day}|${f.minutes}|${f.league}|${f.codes?.join(',')}|${f.codeRun}`
}

/**
 * A binary market listed as its two sides that are the two sides of a contest (not Yes/No, and one market: a group's
 * outcomes are several markets): each side is "it wins".
 */
function isContest(outcomes: readonly Outcome[]): boolean {
  return isTwoSides(outcomes) && !isYesNo(outcomes)
}

/**
 * The two outcomes are the two sides of one binary market, listed side by side: each prices the other's complement
 * book (Outcome.complementInstrumentId). A venue that lists one outcome per binary market has no such pair.
 */
function isTwoSides(outcomes: readonly Outcome[]): boolean {
  const [a, b] = outcomes
  return (
    outcomes.length === 2 &&
    a !== undefined &&
    b !== undefined &&
    a.complementInstrumentId === b.instrumentId &&
    b.complementInstrumentId === a.instrumentId
  )
}

function isYesNo(outcomes: readonly Outcome[]): boolean {
  return (
    outcomes.length === 2 && outcomes[0]?.title.toLowerCase() === 'yes' && outcomes[1]?.title.toLowerCase() === 'no'
  )
}

/** The outcome's own label, '' for the YES side of a yes/no market (its question says everything). */
function labelOf(o: Outcome, siblings: readonly Outcome[]): string {
  if (isYesNo(siblings) && isTwoSides(siblings)) return ''
  return o.title
}

/**
 * Readings by the inputs they are read from, and words and periods by text (an event title is read for each of its
 * outcomes), while a caller reads a batch of contracts: reading texts (a few dozen regular expressions) is most of
 * the matcher's cost. The matcher keeps the specs it reads and clears the cache after each update
 * (`clear`): held, the cache would only double them.
 */
export class SpecCache {
  /** The reviewed name aliases readings use (a head-to-head's side is found by name); set by the matcher. */
  aliases: AliasLookup = NO_ALIASES
  #readings = new Map<string, Parsed>()
  #words = new Map<string, readonly string[]>()
  #periods = new Map<string, PeriodFacts>()
  #contestTexts = memoizedContestTexts((t) => this.wordsOf(t))
  /** Equal parts of the readings held once (reading-parts.ts). */
  readonly parts = new ReadingParts()

  clear(): void {
    this.parts.clear()
    this.#readings = new Map()
    this.#words = new Map()
    this.#periods = new Map()
    this.#contestTexts = memoizedContestTexts((t) => this.wordsOf(t))
  }

  /** contest.ts's readings of texts, memoized until `clear`. */
  get contestTexts(): ContestTexts {
    return this.#contestTexts
  }

  spec(r: Reading): ContractSpec {
    const { event, outcome: o, texts, end, facts } = r
    const key = readingKey(r)
    let parsed = this.#readings.get(key)
    if (parsed === undefined) this.#readings.set(key, (parsed = parse(r, this)))
    // Built field by field, not spread: a spread object of this size came out about 460 B larger (82 MiB at 178k contracts).
    return {
      outcome: o,
      event,
      texts,
      end,
      facts: this.parts.text(facts),
      words: parsed.words,
      allWords: parsed.allWords,
      labelWords: parsed.labelWords,
      labelSequence: parsed.labelSequence,
      required: parsed.required,
      blocking: parsed.blocking,
      period: parsed.period,
      interval: parsed.interval,
      periodKeys: parsed.periodKeys,
      requiredHi: parsed.requiredHi,
      requiredLo: parsed.requiredLo,
      allHi: parsed.allHi,
      allLo: parsed.allLo,
      contest: parsed.contest,
      rank: parsed.rank,
      successor: parsed.successor,
    }
  }

  wordsOf(text: string): readonly string[] {
    let w = this.#words.get(text)
    if (w === undefined) this.#words.set(text, (w = this.parts.list(contentWords(text))))
    return w
  }

  periodOf(text: string, end: number | undefined): PeriodFacts {
    const key = `${text}\u0000${end === undefined ? '' : Math.floor(end / DAY_MS)}`
    let f = this.#periods.get(key)
    if (f === undefined)
      this.#periods.set(
        key,
        (f = this.parts.period(periodFacts(text, end === undefined ? undefined : Math.floor(end / DAY_MS) * DAY_MS))),
      )
    return f
  }
}

const DAY_MS = 86_400_000

type Parsed = TextReading

/** The Bloom signature of some words: one bit of 64 per word (FNV-1a of its characters). */
function signature(words: Iterable<string>): WordSignature {
  let hi = 0
  let lo = 0
  for (const w of words) {
    let h = 0x811c9dc5
    for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 0x01000193)
    const bit = (h >>> 0) % 64
    if (bit < 32) lo |= 1 << bit
    else hi |= 1 << (bit - 32)
  }
  return { hi, lo }
}

function parse(r: Reading, cache: SpecCache): Parsed {
  const { texts, end, outcome: o } = r
  const contest = r.sides !== undefined
  // What the contract is about: its own label and question. The event's subtitle and title frame the whole event
  // ("What price will Cardano hit?" / "How high will Cardano get?"): the other venue need not repeat them, but what a
  // contract says must be said somewhere around the other (judge.ts). Without a question the frame is the contract.
  const [label0, question0] = texts
  const own = question0 === undefined || question0 === '' ? texts : [label0 ?? '', question0]
  const words = new Set<string>()
  for (const t of own) for (const w of cache.wordsOf(t)) words.add(w)
  // A side of a head-to-head market ("Lakers" in "Lakers vs. Celtics") is the contract "Lakers win".
  if (contest) words.add('win')
  const allWords = new Set(words)
  for (const t of texts) for (const w of cache.wordsOf(t)) allWords.add(w)
  // Held as arrays (TextReading says why); the Sets above only build them.
  const wordList = cache.parts.list([...words])
  const allWordList = allWords.size === words.size ? wordList : cache.parts.list([...allWords])
  let period = NO_PERIOD
  for (const t of texts) {
    if (t === '') continue
    const f = cache.periodOf(t, end)
    if (hasFacts(f)) {
      period = f
      break
    }
  }
  const [label, question] = texts
  const fromLabel = label === undefined || label === '' ? undefined : intervalIn(label)
  const fromQuestion = question === undefined || question === '' ? undefined : intervalIn(question)
  // A ladder's label is often the bare number ("$0.27") of the comparator its question states ("more than $0.27").
  const bare = fromLabel !== undefined && fromLabel.lo !== undefined && fromLabel.lo === fromLabel.hi
  const labelled =
    bare && fromQuestion !== undefined && (fromQuestion.lo === fromLabel.lo || fromQuestion.hi === fromLabel.lo)
      ? fromQuestion
      : fromLabel
  const interval = intervalOfStrike(o.strike) ?? labelled ?? fromQuestion
  const labelSequence = cache.wordsOf(label0 ?? '')
  const labelSet = new Set(labelSequence)
  const labelWords = labelSet.size === labelSequence.length ? labelSequence : cache.parts.list([...labelSet])
  // A label's words are compared as a name (judge.ts labelExtension: a short form, a shortened first name, an alias),
  // so none of them is required of the other side word for word.
  const required = wordList.filter((w) => !IMPLICIT_WORDS.has(w) && !labelSet.has(w))
  const [, , subtitle, eventTitle] = texts
  const facts = !mayBeContest(r.sides, texts)
    ? undefined
    : readContest({
        label: label ?? '',
        question: question ?? '',
        subtitle: subtitle ?? '',
        eventTitle: eventTitle ?? '',
        sides: r.sides,
        sideIndex: r.sideIndex,
        code: r.code,
        identifier: r.identifier,
        aliases: cache.aliases,
        text: cache.contestTexts,
      })
  const successor = texts.some((t) => /\bnext\b/i.test(t))
  const requiredSig = signature(required)
  const allSig = signature(allWordList)
  // The period's days depend on the end time only through its day, which is part of the reading's key.
  return {
    contest: cache.parts.contest(facts),
    rank: rankIn(texts),
    successor,
    words: wordList,
    allWords: allWordList,
    labelWords,
    labelSequence,
    required: cache.parts.list(required),
    blocking: cache.parts.list(blockingWords(required, labelSequence)),
    period,
    interval: cache.parts.interval(interval),
    periodKeys: cache.parts.list(periodKeys(period, end, successor)),
    requiredHi: requiredSig.hi,
    requiredLo: requiredSig.lo,
    allHi: allSig.hi,
    allLo: allSig.lo,
  }
}

/** "top 10", "Top-5", "top ten": the N of a finishing-position contract, from the most specific text that states one. */
function rankIn(texts: readonly string[]): number | undefined {
  for (const t of texts) {
    if (!/top/i.test(t)) continue
    const m = /\btop[\s-]?(\d{1,3}|three|five|ten|twenty|thirty|forty|fifty)\b/.exec(fold(t))
    if (m !== null) return RANK_WORDS[m[1] as string] ?? Number(m[1])
  }
  return undefined
}

const RANK_WORDS: Readonly<Record<string, number>> = {
  three: 3,
  five: 5,
  ten: 10,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
}

/** contest.ts's readings, each memoized by text (`words` is the cache's own). */
function memoizedContestTexts(words: (t: string) => readonly string[]): ContestTexts {
  const memo = <T>(f: (t: string) => T): ((t: string) => T) => {
    const m = new Map<string, T>()
    return (t) => {
      if (m.has(t)) return m.get(t) as T
      const v = f(t)
      m.set(t, v)
      return v
    }
  }
  return {
    split: memo(DIRECT.split),
    segment: memo(DIRECT.segment),
    discipline: memo(DIRECT.discipline),
    day: memo(DIRECT.day),
    words,
  }
}

/** `required` and the label's first word that is not implicit (see ContractSpec `blocking`). */
function blockingWords(required: readonly string[], label: readonly string[]): readonly string[] {
  const first = label.find((w) => !IMPLICIT_WORDS.has(w))
  return first === undefined || required.includes(first) ? required : [...required, first]
}
