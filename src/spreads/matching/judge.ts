import type { ContractSpec } from './contract.js'
import { periodsAgree } from './periods.js'
import { describeInterval, sameInterval } from './strikes.js'
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
 * A pair that passes is graded: `high` when every test passed on what the texts state, `medium` when it leaned on
 * weaker evidence (end times instead of a stated period, a word left implicit on one side). The grade's measured
 * precision is what the spread's confidence uses (calibration.ts).
 */
export type Grade = 'high' | 'medium'

export interface Evidence {
  /** Content words both texts share (the subject, role and action they agree on). */
  readonly shared: readonly string[]
  /** Words only one side names, accepted as implicit on the other. */
  readonly implicit: readonly string[]
  /** How the periods agree ("deadline 2026-07-01", "year 2028", "end times …"). */
  readonly period: string
  /** The common threshold or range, when there is one. */
  readonly strike: string | undefined
}

export type Judgement =
  | { readonly same: true; readonly grade: Grade; readonly evidence: Evidence }
  | { readonly same: false; readonly test: 'what' | 'threshold' | 'when'; readonly reason: string }

export function judge(p: ContractSpec, k: ContractSpec, explain = true): Judgement {
  const reject = explain ? rejecting : quietReject
  // Two named outcomes name the same one: "Lakers" is not "Celtics", although each side's event names both. A short
  // form that begins the other's name ("Stonebridge" / "Stonebridge Mariners": a team by its city) is the same one,
  // weakly, unless what it leaves out is a name suffix ("Donald Trump" / "Donald Trump Jr.").
  const shortened = labelExtension(p, k)
  if (shortened === undefined) return reject('what', () => `outcome ${p.labelSequence.join(' ')} vs ${k.labelSequence.join(' ')}`)
  // Threshold and period before the words: they reject most candidates of a ladder without allocating.
  if (p.interval !== undefined || k.interval !== undefined) {
    if (p.interval === undefined || k.interval === undefined || !sameInterval(p.interval, k.interval)) {
      const d = (i: ContractSpec['interval']) => (i === undefined ? 'none' : describeInterval(i))
      return reject('threshold', () => `threshold ${d(p.interval)} vs ${d(k.interval)}`)
    }
  }
  const when = periodsAgree(p.period, k.period, p.end, k.end, explain)
  if (!when.agree) return reject('when', () => when.reason)
  const shared: string[] = []
  const onlyP: string[] = []
  const onlyK: string[] = []
  for (const w of p.words) {
    if (k.words.has(w)) shared.push(w)
    else if (!k.allWords.has(w)) onlyP.push(w)
  }
  for (const w of k.words) if (!p.allWords.has(w)) onlyK.push(w)
  const tolerated = (w: string) => IMPLICIT_WORDS.has(w) || shortened.has(w)
  const implicit = [...onlyP, ...onlyK].filter(tolerated)
  const differs = [...onlyP.filter((w) => !tolerated(w)), ...onlyK.filter((w) => !tolerated(w))]
  if (shared.length === 0 || differs.length > 0) {
    return reject('what', () => (shared.length === 0 ? 'no words in common' : `only venuep: ${onlyP.join(' ') || '-'}; only venuek: ${onlyK.join(' ') || '-'}`))
  }
  const grade: Grade = when.strength === 'stated' && implicit.length === 0 && shortened.size === 0 ? 'high' : 'medium'
  return {
    same: true,
    grade,
    evidence: { shared: shared.sort(), implicit: implicit.sort(), period: when.evidence, strike: p.interval === undefined ? undefined : describeInterval(p.interval) },
  }
}

/**
 * The words one outcome label adds to the other when one is a short form of the other (empty when the labels agree or
 * either is not a name); undefined when the labels name different things.
 */
function labelExtension(p: ContractSpec, k: ContractSpec): ReadonlySet<string> | undefined {
  if (p.labelWords.size === 0 || k.labelWords.size === 0) return NONE
  const differ = [...p.labelWords].some((w) => !k.labelWords.has(w) && !IMPLICIT_WORDS.has(w)) || [...k.labelWords].some((w) => !p.labelWords.has(w) && !IMPLICIT_WORDS.has(w))
  if (!differ) return NONE
  const [short, long] = p.labelSequence.length < k.labelSequence.length ? [p.labelSequence, k.labelSequence] : [k.labelSequence, p.labelSequence]
  if (short.length === 0 || !short.every((w, i) => long[i] === w)) return undefined
  const extra = long.slice(short.length)
  if (extra.some((w) => NAME_SUFFIXES.has(w))) return undefined
  return new Set(extra)
}

const NONE: ReadonlySet<string> = new Set()

/** The rejections of a caller that does not read reasons (the matcher: far more rejections than anyone reads). */
const QUIET: Readonly<Record<'what' | 'threshold' | 'when', Judgement>> = {
  what: Object.freeze({ same: false, test: 'what', reason: 'what differs' }),
  threshold: Object.freeze({ same: false, test: 'threshold', reason: 'threshold differs' }),
  when: Object.freeze({ same: false, test: 'when', reason: 'period differs' }),
}

function quietReject(test: 'what' | 'threshold' | 'when'): Judgement {
  return QUIET[test]
}

/** A rejection whose reason is written only when read. */
function rejecting(test: 'what' | 'threshold' | 'when', reason: () => string): Judgement {
  return {
    same: false,
    test,
    get reason() {
      return reason()
    },
  }
}

/**
 * Whether `p` and `k` could pass the word tests at all: each one's required words (contract.ts `required`: its own
 * words but its label's, which a short form may leave out, and implicit ones; and its label's first word) are
 * stated around the other. Cheap (set lookups, no allocation) and never false for a pair the judge accepts, so the
 * matcher runs it before the judge on every candidate.
 */
export function mayMatch(p: ContractSpec, k: ContractSpec): boolean {
  return signaturesAllow(p, k) && statedAround(p, k) && statedAround(k, p)
}

/**
 * The Bloom test alone (contract.ts): false when a required word of either side is certainly not stated around the
 * other. Two integer tests per side; never false for a pair the judge accepts.
 */
export function signaturesAllow(p: ContractSpec, k: ContractSpec): boolean {
  if ((p.requiredSig.hi & ~k.allSig.hi) !== 0 || (p.requiredSig.lo & ~k.allSig.lo) !== 0) return false
  return (k.requiredSig.hi & ~p.allSig.hi) === 0 && (k.requiredSig.lo & ~p.allSig.lo) === 0
}

function statedAround(a: ContractSpec, b: ContractSpec): boolean {
  for (const w of a.required) if (!b.allWords.has(w)) return false
  return true
}
