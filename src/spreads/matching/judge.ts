import { judgeContests, type ContestField } from './contest-judge.js'
import type { ContractSpec } from './contract.js'
import type { Evidence } from './match-types.js'
import { nameKey, NO_ALIASES, sameLabelName, type AliasLookup } from './names.js'
import { periodsAgree } from './period-agreement.js'
import { propositionKind } from './proposition.js'
import { describeInterval, intervalsAgree } from './strikes.js'
import { IMPLICIT_WORDS, NAME_SUFFIXES } from './text.js'

/**
 * Whether two contracts, one per venue, resolve YES in exactly the same worlds. A false "same" shows every user a
 * phantom spread, so each test can only reject, and anything the texts do not establish counts as different:
 *
 * 1. **What**: two named outcomes name the same thing (their labels' words agree: "J.D. Vance" / "JD Vance", not
 *    "Lakers" / "Celtics"); every content word of each contract's own texts (label, question) is stated by the other venue too,
 *    in its contract or in the event around it (normalized, text.ts), and they share at least one. A word the other
 *    side never states is a difference of subject, role or action ("nomination" vs "election", "Jr.", another
 *    person or country), except words one venue leaves implicit (IMPLICIT_WORDS: the United States).
 * 2. **Threshold**: no interval on either side, or the same interval, ends included (≥ 100 is not > 100).
 * 3. **When**: the same stated period (deadline, year or datable phrase), or, when neither side states one, venue
 *    end times within two days (periods.ts).
 *
 * 4. **Rank**: a finishing-position contract's N ("top 10") on both sides alike, or on neither.
 *
 * Head-to-head contracts (a side of a game, a draw, a handicap, a total) are propositions with fields of their own
 * and are judged on those instead (contest-judge.ts); a head-to-head never pairs with anything else.
 *
 * A pair that passes is graded: `high` when every test passed on what the texts state, `medium` when it leaned on
 * weaker evidence (end times instead of a stated period, a word left implicit on one side, a short name). The grade's
 * measured precision is what the spread's confidence uses (calibration.ts). The evidence says which fields were
 * compared and what they agreed on.
 */
export type Grade = 'high' | 'medium'

/** The field that kept two contracts apart. */
export type JudgedField = 'what' | 'threshold' | 'when' | 'rank' | ContestField

export type Judgement =
  | { readonly same: true; readonly grade: Grade; readonly evidence: Evidence }
  | { readonly same: false; readonly test: JudgedField; readonly reason: string }

export function judge(a: ContractSpec, b: ContractSpec, explain = true, aliases: AliasLookup = NO_ALIASES): Judgement {
  const reject = explain ? rejecting : quietReject
  if (a.contest !== undefined || b.contest !== undefined) return judgeHeadToHead(a, b, reject, aliases, explain)
  // Two named outcomes name the same one: "Lakers" is not "Celtics", although each side's event names both. A short
  // form that begins the other's name ("Stonebridge" / "Stonebridge Mariners": a team by its city) is the same one,
  // weakly, unless what it leaves out is a name suffix ("Donald Trump" / "Donald Trump Jr.").
  const shortened = labelExtension(a, b, aliases)
  if (shortened === undefined)
    return reject('what', () => `outcome ${a.labelSequence.join(' ')} vs ${b.labelSequence.join(' ')}`)
  // Threshold and period before the words: they reject most candidates of a ladder without allocating.
  let strikes: 'exact' | 'tick' | undefined
  if (a.interval !== undefined || b.interval !== undefined) {
    strikes = a.interval === undefined || b.interval === undefined ? undefined : intervalsAgree(a.interval, b.interval)
    if (strikes === undefined) {
      const d = (i: ContractSpec['interval']) => (i === undefined ? 'none' : describeInterval(i))
      return reject('threshold', () => `threshold ${d(a.interval)} vs ${d(b.interval)}`)
    }
  }
  if (a.rank !== b.rank) return reject('rank', () => `top ${a.rank ?? '-'} vs top ${b.rank ?? '-'}`)
  const when = periodsAgree(a.period, b.period, a.end, b.end, explain, a.successor && b.successor)
  if (!when.agree) return reject('when', () => when.reason)
  const shared: string[] = []
  const onlyA: string[] = []
  const onlyB: string[] = []
  for (const w of a.words) {
    if (b.words.includes(w)) shared.push(w)
    else if (!b.allWords.includes(w)) onlyA.push(w)
  }
  for (const w of b.words) if (!a.allWords.includes(w)) onlyB.push(w)
  const tolerated = (w: string) => IMPLICIT_WORDS.has(w) || shortened.has(w)
  const implicit = [...onlyA, ...onlyB].filter(tolerated)
  const differs = [...onlyA.filter((w) => !tolerated(w)), ...onlyB.filter((w) => !tolerated(w))]
  if (shared.length === 0 || differs.length > 0) {
    return reject('what', () =>
      shared.length === 0
        ? 'no words in common'
        : `only ${a.outcome.venue}: ${onlyA.join(' ') || '-'}; only ${b.outcome.venue}: ${onlyB.join(' ') || '-'}`,
    )
  }
  const grade: Grade = when.strength === 'stated' && implicit.length === 0 && shortened.size === 0 ? 'high' : 'medium'
  const strike =
    a.interval === undefined || b.interval === undefined
      ? undefined
      : strikes === 'tick'
        ? `${describeInterval(a.interval)} ≈ ${describeInterval(b.interval)} (one cent apart on a continuous price)`
        : describeInterval(a.interval)
  return {
    same: true,
    grade,
    evidence: {
      kind: propositionKind(a),
      compared: [
        `subject: ${shared.sort().join(' ')}`,
        ...(a.labelWords.length > 0 && b.labelWords.length > 0
          ? [`outcome: ${a.outcome.title} = ${b.outcome.title}`]
          : []),
        ...(strike === undefined ? [] : [`threshold: ${strike}`]),
        ...(a.rank === undefined ? [] : [`rank: top ${a.rank}`]),
        `period: ${when.evidence}`,
      ],
      shared,
      implicit: implicit.sort(),
      period: when.evidence,
      strike,
    },
  }
}

/** Two head-to-head contracts, field by field (contest-judge.ts); a head-to-head against anything else is not one. */
function judgeHeadToHead(
  a: ContractSpec,
  b: ContractSpec,
  reject: (test: JudgedField, reason: () => string) => Judgement,
  aliases: AliasLookup,
  explain: boolean,
): Judgement {
  if (a.contest === undefined || b.contest === undefined)
    return reject('kind', () => `${propositionKind(a)} vs ${propositionKind(b)}`)
  // A contract is a ContestSide once its contest is known to be there.
  const j = judgeContests(a as ContestSpec, b as ContestSpec, aliases, explain)
  if (!j.same) return reject(j.field, j.reason)
  const shared = a.words.filter((w) => b.words.includes(w)).sort()
  return {
    same: true,
    grade: j.strong ? 'high' : 'medium',
    evidence: {
      kind: propositionKind(a),
      compared: j.compared,
      shared,
      implicit: [],
      period: j.period,
      strike: undefined,
    },
  }
}

/**
 * The words one outcome label adds to the other when one is a short form of the other (empty when the labels agree or
 * either is not a name); undefined when the labels name different things.
 */
function labelExtension(a: ContractSpec, b: ContractSpec, aliases: AliasLookup): ReadonlySet<string> | undefined {
  if (a.labelWords.length === 0 || b.labelWords.length === 0) return NONE
  if (!wordsBeyond(a.labelWords, b.labelWords) && !wordsBeyond(b.labelWords, a.labelWords)) return NONE
  // The same person with a shortened first name ("Zach" / "Zachary"), or names a reviewer made aliases: the words
  // that differ are tolerated (graded medium).
  if (sameLabelName(nameKey(a.outcome.title), nameKey(b.outcome.title), aliases)) {
    const extra = [...a.labelWords, ...b.labelWords].filter(
      (w) => !a.labelWords.includes(w) || !b.labelWords.includes(w),
    )
    if (!extra.some((w) => NAME_SUFFIXES.has(w))) return new Set(extra)
  }
  const [short, long] =
    a.labelSequence.length < b.labelSequence.length
      ? [a.labelSequence, b.labelSequence]
      : [b.labelSequence, a.labelSequence]
  if (short.length === 0 || !short.every((w, i) => long[i] === w)) return undefined
  const extra = long.slice(short.length)
  if (extra.some((w) => NAME_SUFFIXES.has(w))) return undefined
  return new Set(extra)
}

const NONE: ReadonlySet<string> = new Set()

/** Whether `x` has a word `y` lacks that is not implicit (a loop: the judge runs this on every labelled candidate). */
function wordsBeyond(x: readonly string[], y: readonly string[]): boolean {
  for (const w of x) if (!y.includes(w) && !IMPLICIT_WORDS.has(w)) return true
  return false
}

type ContestSpec = ContractSpec & { readonly contest: NonNullable<ContractSpec['contest']> }

/** The rejections of a caller that does not read reasons (the matcher: far more rejections than anyone reads). */
const QUIET = new Map<JudgedField, Judgement>()

function quietReject(test: JudgedField): Judgement {
  let j = QUIET.get(test)
  if (j === undefined) QUIET.set(test, (j = Object.freeze({ same: false, test, reason: `${test} differs` })))
  return j
}

/** A rejection whose reason is written only when read. */
function rejecting(test: JudgedField, reason: () => string): Judgement {
  return {
    same: false,
    test,
    get reason() {
      return reason()
    },
  }
}

/**
 * Whether `a` and `b` could pass the word tests at all: each one's required words (contract.ts `required`: its own
 * words but its label's, which are compared as a name, and implicit ones) are stated around the other. Cheap (scans of a few words, no allocation) and never false for a pair the judge accepts, so the
 * matcher runs it before the judge on every candidate.
 */
export function mayMatch(a: ContractSpec, b: ContractSpec): boolean {
  return signaturesAllow(a, b) && statedAround(a, b) && statedAround(b, a)
}

/**
 * The Bloom test alone (contract.ts): false when a required word of either side is certainly not stated around the
 * other. Two integer tests per side; never false for a pair the judge accepts.
 */
export function signaturesAllow(a: ContractSpec, b: ContractSpec): boolean {
  if ((a.requiredHi & ~b.allHi) !== 0 || (a.requiredLo & ~b.allLo) !== 0) return false
  return (b.requiredHi & ~a.allHi) === 0 && (b.requiredLo & ~a.allLo) === 0
}

function statedAround(a: ContractSpec, b: ContractSpec): boolean {
  for (const w of a.required) if (!b.allWords.includes(w)) return false
  return true
}
