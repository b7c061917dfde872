import type { CatalogSnapshot } from '../../actors/catalog-snapshot.js'
import type { ContestFacts } from './contest.js'
import { contractsOf, SpecCache, type ContractSpec } from './contract.js'
import { judge, type JudgedField } from './judge.js'
import { compareNames, NO_ALIASES, STRENGTH_RANK, type AliasLookup } from './names.js'

/**
 * Near misses: contract pairs of two venues that ONE field kept apart, for a reviewer (`npm run matches:review`,
 * tools/matches-review.ts). Matchers that publish only what rules establish leave exactly these to people: the same
 * player with a nickname, a team under its city on one venue and its nickname on the other, a deadline read a day
 * apart, a threshold a tick apart. A pair is a near miss when the judge rejects it on one field and accepts it once
 * that field is made the same on both sides; the reviewer's accept or deny goes to config/matches.json (or a name to
 * config/aliases.json).
 *
 * Not near misses: a different kind of proposition (a handicap and a winner), the other side of the same game (its
 * complement), another map or rank, another hour of an hourly series, words that differ by more than two.
 */
export interface NearMiss {
  readonly a: ContractSpec
  readonly b: ContractSpec
  /** The one field that differs. */
  readonly field: JudgedField
  /** How it differs. */
  readonly reason: string
}

/**
 * Fields a reviewer can settle: a name, a threshold a tick apart, a period or game day read a day apart, a
 * discipline. The others (another part of the game, another rank, kind or side) are different contracts by design.
 */
const REVIEWABLE: ReadonlySet<JudgedField> = new Set(['what', 'threshold', 'when', 'day', 'discipline', 'participants'])

export function nearMiss(a: ContractSpec, b: ContractSpec, aliases: AliasLookup = NO_ALIASES): NearMiss | undefined {
  const j = judge(a, b, true, aliases)
  if (j.same || !REVIEWABLE.has(j.test)) return undefined
  const patched = withField(a, b, j.test, aliases)
  if (patched === undefined) return undefined
  return judge(a, patched, false, aliases).same ? { a, b, field: j.test, reason: j.reason } : undefined
}

/** `b` with `field` made `a`'s; undefined when that field cannot be made alike by itself. */
function withField(
  a: ContractSpec,
  b: ContractSpec,
  field: JudgedField,
  aliases: AliasLookup,
): ContractSpec | undefined {
  switch (field) {
    case 'threshold':
      return closeThresholds(a, b) ? { ...b, interval: a.interval } : undefined
    case 'rank':
      return { ...b, rank: a.rank }
    case 'when':
      return sameDayAround(a, b) ? { ...b, period: a.period, end: a.end } : undefined
    case 'what':
      return a.contest === undefined ? wordsAlike(a, b) : contestWith(b, { residual: a.contest.residual }, a)
    case 'part':
      return contestWith(b, { segment: a.contest?.segment }, a)
    case 'day':
      return daysApart(a, b) <= 1 ? contestWith(b, { day: a.contest?.day, minutes: a.contest?.minutes }, a) : undefined
    case 'discipline':
      return contestWith(b, { discipline: a.contest?.discipline }, a)
    case 'participants':
      return oneParticipantApart(a, b, aliases)
    default:
      return undefined
  }
}

/** Thresholds a reviewer might call one: bounds within 0.1% (a tick, "≥ 80" against "> 80"), not a ladder's next rung. */
function closeThresholds(a: ContractSpec, b: ContractSpec): boolean {
  const x = a.interval
  const y = b.interval
  if (x === undefined || y === undefined) return false
  const near = (p: number | undefined, q: number | undefined) =>
    p === undefined ? q === undefined : q !== undefined && Math.abs(p - q) <= 1e-3 * Math.max(1, Math.abs(p))
  return near(x.lo, y.lo) && near(x.hi, y.hi)
}

/** Periods that can meet on a day (periods.ts keys), neither an instant (another hour is another contract). */
function sameDayAround(a: ContractSpec, b: ContractSpec): boolean {
  if (a.period.instants.length > 0 || b.period.instants.length > 0) return false
  const keys = new Set(a.periodKeys)
  return b.periodKeys.some((k) => keys.has(k))
}

/** Days between two head-to-heads' game days (Infinity when either has none). */
function daysApart(a: ContractSpec, b: ContractSpec): number {
  const x = a.contest?.day
  const y = b.contest?.day
  if (x === undefined || y === undefined) return Number.POSITIVE_INFINITY
  return Math.abs(Date.parse(x) - Date.parse(y)) / 86_400_000
}

/** Words that differ by at most two, with at least two in common: `b` with `a`'s words. */
function wordsAlike(a: ContractSpec, b: ContractSpec): ContractSpec | undefined {
  const onlyA = a.words.filter((w) => !b.allWords.includes(w))
  const onlyB = b.words.filter((w) => !a.allWords.includes(w))
  const shared = a.words.filter((w) => b.words.includes(w))
  const labels = a.labelWords.filter((w) => b.labelWords.includes(w))
  if (onlyA.length + onlyB.length > 2 || shared.length < 2) return undefined
  if (a.labelWords.length > 0 && b.labelWords.length > 0 && labels.length === 0) return undefined
  return {
    ...b,
    words: a.words,
    allWords: [...new Set([...b.allWords, ...a.words])],
    labelWords: a.labelWords,
    labelSequence: a.labelSequence,
    outcome: { ...b.outcome, title: a.outcome.title },
  }
}

function contestWith(b: ContractSpec, change: Partial<ContestFacts>, a: ContractSpec): ContractSpec | undefined {
  if (b.contest === undefined || a.contest === undefined) return undefined
  return { ...b, contest: { ...b.contest, ...change } }
}

/**
 * One participant agrees strongly and the other not at all (a nickname, a city): `b` with the other named as `a`
 * names it. The reviewer's answer is then an alias.
 */
function oneParticipantApart(a: ContractSpec, b: ContractSpec, aliases: AliasLookup): ContractSpec | undefined {
  const x = a.contest
  const y = b.contest
  if (x === undefined || y === undefined) return undefined
  const strong = (i: 0 | 1, k: 0 | 1) =>
    STRENGTH_RANK[compareNames(x.participants[i].key, y.participants[k].key, aliases)] >= 2 ||
    x.participants[i].codes.some((c) => y.participants[k].codes.includes(c))
  for (const [i, k] of [
    [0, 0],
    [0, 1],
    [1, 0],
    [1, 1],
  ] as const) {
    if (!strong(i, k)) continue
    const other = (1 - i) as 0 | 1
    const theirs = (1 - k) as 0 | 1
    const participants = [...y.participants] as [ContestFacts['participants'][0], ContestFacts['participants'][1]]
    participants[theirs] = x.participants[other]
    return { ...b, contest: { ...y, participants } }
  }
  return undefined
}

/**
 * Every near miss between two catalogs, best candidates first: each A contract against the B contracts that share its
 * two rarest words (or, for a head-to-head, a participant's word), whatever their period or threshold (which a near
 * miss may differ in). Contracts already published with a partner (`published`: `${A outcome}|${B outcome}`) are
 * left out: their near misses are the ladder's other rungs and hours, different contracts by design.
 */
export function nearMisses(
  a: CatalogSnapshot,
  b: CatalogSnapshot,
  published: ReadonlySet<string>,
  aliases: AliasLookup = NO_ALIASES,
  perContract = 200,
): NearMiss[] {
  const cache = new SpecCache()
  cache.aliases = aliases
  const pairedA = new Set([...published].map((k) => k.slice(0, k.indexOf('|'))))
  const pairedB = new Set([...published].map((k) => k.slice(k.indexOf('|') + 1)))
  const bs = b.events.flatMap((e) => contractsOf(e, cache)).filter((c) => !pairedB.has(c.outcome.outcomeId))
  const byWord = new Map<string, ContractSpec[]>()
  for (const c of bs) for (const w of keyWords(c)) (byWord.get(w) ?? byWord.set(w, []).get(w))?.push(c)
  const out: NearMiss[] = []
  for (const e of a.events) {
    for (const x of contractsOf(e, cache)) {
      if (pairedA.has(x.outcome.outcomeId)) continue
      const words = keyWords(x)
        .filter((w) => byWord.has(w))
        .sort((p, q) => (byWord.get(p)?.length ?? 0) - (byWord.get(q)?.length ?? 0))
      if (words.length === 0) continue
      const first = byWord.get(words[0] as string) ?? []
      const second = words.length > 1 ? new Set(byWord.get(words[1] as string)) : undefined
      let n = 0
      for (const y of first) {
        if (second !== undefined && !second.has(y)) continue
        const miss = nearMiss(x, y, aliases)
        if (miss !== undefined) out.push(miss)
        if (++n >= perContract) break
      }
    }
  }
  return out.sort(
    (p, q) =>
      p.field.localeCompare(q.field) ||
      p.a.outcome.outcomeId.localeCompare(q.a.outcome.outcomeId) ||
      p.b.outcome.outcomeId.localeCompare(q.b.outcome.outcomeId),
  )
}

/** The words a contract is found by: a head-to-head's participants' words, else its own content words. */
function keyWords(c: ContractSpec): string[] {
  if (c.contest !== undefined) return [...new Set(c.contest.participants.flatMap((p) => p.key.tokens))]
  return [...c.words]
}
