import { easternDay, instantOn } from './clock-times.js'
import type { ContestFacts, Participant } from './contest.js'
import { compareNames, sameCode, STRENGTH_RANK, type AliasLookup, type NameStrength } from './names.js'

/**
 * Whether two head-to-head contracts (contest.ts), one per venue, resolve YES in exactly the same worlds. Field by
 * field, each can only reject:
 *
 * 1. **kind** (winner, draw, handicap, total, both teams to score, exact score) and **part** (match, map 2, set 1);
 * 2. **discipline**, when both state one (the same two organisations meet in several games);
 * 3. **participants**: each of one side's two is one of the other side's, one to one, both agreeing strongly by the
 *    rules of names.ts (the same name, one inside the other, the same person, a city told apart by a letter, a
 *    reviewed alias) or by equal identifier codes; a code merely built from a name is not enough. Two assignments
 *    that fit equally well are ambiguous: rejected (docs/spreads.md F10, the "Jets" that matched another team's game);
 * 4. **side**: the same participant (under that assignment) wins, covers the same line, or the same total side and
 *    line, or the same exact score;
 * 5. **day**: the same game day (the start's UTC day counts too where an identifier gives the start time: one venue
 *    may date a game by UTC); without a day on a side, end times within a day, weakly;
 * 6. **what else the texts say** (residual words) is stated around the other side.
 */
export type ContestField = 'kind' | 'part' | 'discipline' | 'participants' | 'side' | 'day' | 'what'

export type ContestJudgement =
  | {
      readonly same: true
      readonly strong: boolean
      /** Each field compared and the value both agreed on. */
      readonly compared: readonly string[]
      readonly period: string
    }
  | { readonly same: false; readonly field: ContestField; readonly reason: () => string }

export interface ContestSide {
  readonly contest: ContestFacts
  readonly allWords: readonly string[]
  readonly end: number | undefined
}

const DAY_MS = 86_400_000

export function judgeContests(a: ContestSide, b: ContestSide, aliases: AliasLookup, explain = true): ContestJudgement {
  const reject = explain ? rejecting : quietReject
  const x = a.contest
  const y = b.contest
  if (x.kind !== y.kind) return reject('kind', () => `${x.kind} vs ${y.kind}`)
  if (x.segment !== y.segment) return reject('part', () => `${x.segment} vs ${y.segment}`)
  if (x.discipline !== undefined && y.discipline !== undefined && x.discipline !== y.discipline)
    return reject('discipline', () => `${x.discipline} vs ${y.discipline}`)
  const px = x.participants
  const py = y.participants
  const map = assign(px, py, aliases)
  if (map === undefined) return reject('participants', () => `${names(x)} vs ${names(y)}`)
  if (map === AMBIGUOUS) return reject('participants', () => `${names(x)} vs ${names(y)}: ambiguous`)
  const toY = (i: 0 | 1 | undefined) => (i === undefined ? undefined : map.order[i])
  const sideReason = sideDiffers(x, y, toY)
  if (sideReason !== undefined) return reject('side', sideReason)
  const day = sameDay(x, y, a.end, b.end)
  if (day === undefined) return reject('day', () => `${x.day ?? '?'} vs ${y.day ?? '?'}`)
  for (const [from, to] of [
    [a, b],
    [b, a],
  ] as const) {
    for (const w of from.contest.residual)
      if (!to.allWords.includes(w))
        return reject(
          'what',
          () => `only one side says: ${from.contest.residual.filter((r) => !to.allWords.includes(r)).join(' ')}`,
        )
  }
  const pairs = [0, 1].map((i) => `${px[i]?.name} = ${py[map.order[i] as 0 | 1].name} (${map.strengths[i]})`)
  const compared = [
    `kind: ${x.kind}`,
    `part: ${x.segment}`,
    ...(x.discipline !== undefined && y.discipline !== undefined ? [`discipline: ${x.discipline}`] : []),
    `participants: ${pairs.join('; ')}`,
    ...sideEvidence(x),
    `day: ${day.evidence}`,
  ]
  return { same: true, strong: map.strong && day.stated, compared, period: day.evidence }
}

/** A rejection whose reason is written only when read. */
function rejecting(field: ContestField, reason: () => string): ContestJudgement {
  return { same: false, field, reason }
}

/** The rejections of a caller that does not read reasons (the matcher): one object per field, no allocation. */
const QUIET = new Map<ContestField, ContestJudgement>()

function quietReject(field: ContestField): ContestJudgement {
  let j = QUIET.get(field)
  if (j === undefined) QUIET.set(field, (j = Object.freeze({ same: false, field, reason: () => `${field} differs` })))
  return j
}

function names(c: ContestFacts): string {
  return `${c.participants[0].name} / ${c.participants[1].name}`
}

interface Assignment {
  /** Index in B of A's participant 0 and 1. */
  readonly order: readonly [0 | 1, 0 | 1]
  readonly strong: boolean
  readonly strengths: readonly [NameStrength, NameStrength]
}

const AMBIGUOUS = 'ambiguous'

/** How strongly two participants agree: their names, or their identifier codes. */
function strength(p: Participant, q: Participant, aliases: AliasLookup): NameStrength {
  const byName = compareNames(p.key, q.key, aliases)
  if (byName === 'same' || byName === 'strong') return byName
  for (const c of p.codes) for (const d of q.codes) if (sameCode(c, d)) return 'strong'
  return byName
}

/**
 * The one-to-one assignment of A's participants to B's: both pairs agree strongly; of two that fit, the one with
 * the stronger weaker pair, then the stronger sum; a tie is ambiguous.
 */
function assign(
  a: readonly [Participant, Participant],
  b: readonly [Participant, Participant],
  aliases: AliasLookup,
): Assignment | typeof AMBIGUOUS | undefined {
  const rank = (s: NameStrength) => STRENGTH_RANK[s]
  const fit = (s0: NameStrength, s1: NameStrength) => rank(s0) >= 2 && rank(s1) >= 2
  let s11: NameStrength = 'none'
  let s10: NameStrength = 'none'
  const s00 = strength(a[0], b[0], aliases)
  if (rank(s00) >= 2) s11 = strength(a[1], b[1], aliases)
  const s01 = strength(a[0], b[1], aliases)
  if (rank(s01) >= 2) s10 = strength(a[1], b[0], aliases)
  const okStraight = fit(s00, s11)
  const okCrossed = fit(s01, s10)
  let useStraight: boolean
  if (okStraight && okCrossed) {
    const minS = Math.min(rank(s00), rank(s11))
    const minC = Math.min(rank(s01), rank(s10))
    const sumS = rank(s00) + rank(s11)
    const sumC = rank(s01) + rank(s10)
    if (minS !== minC) useStraight = minS > minC
    else if (sumS !== sumC) useStraight = sumS > sumC
    else return AMBIGUOUS
  } else if (okStraight || okCrossed) useStraight = okStraight
  else return undefined
  const [t0, t1] = useStraight ? [s00, s11] : [s01, s10]
  return {
    order: useStraight ? [0, 1] : [1, 0],
    strong: rank(t0) >= 2 && rank(t1) >= 2,
    strengths: [t0, t1],
  }
}

/** Why the two contracts are on different sides, or undefined when they are on the same one. */
function sideDiffers(
  x: ContestFacts,
  y: ContestFacts,
  toY: (i: 0 | 1 | undefined) => 0 | 1 | undefined,
): (() => string) | undefined {
  if (toY(x.side) !== y.side) return () => `${sideName(x)} vs ${sideName(y)}`
  if (x.kind === 'total' && (x.over !== y.over || !sameNumber(x.line, y.line)))
    return () => `${x.over ? 'over' : 'under'} ${x.line} vs ${y.over ? 'over' : 'under'} ${y.line}`
  if (x.kind === 'handicap' && !sameNumber(x.line, y.line)) return () => `line ${x.line} vs ${y.line}`
  if (x.kind === 'exact-score') {
    if (x.score === undefined || y.score === undefined) return () => 'score not read'
    const mapped = toY(0) === 0 ? x.score : ([x.score[1], x.score[0]] as const)
    if (mapped[0] !== y.score[0] || mapped[1] !== y.score[1]) return () => `score ${x.score} vs ${y.score}`
  }
  return undefined
}

function sideName(c: ContestFacts): string {
  return c.side === undefined ? 'none' : c.participants[c.side].name
}

function sideEvidence(c: ContestFacts): string[] {
  const out: string[] = []
  if (c.side !== undefined) out.push(`side: ${sideName(c)}`)
  if (c.kind === 'total') out.push(`total: ${c.over ? 'over' : 'under'} ${c.line}`)
  if (c.kind === 'handicap') out.push(`line: ${c.line}`)
  if (c.kind === 'exact-score' && c.score !== undefined) out.push(`score: ${c.score[0]}-${c.score[1]}`)
  return out
}

function sameNumber(a: number | undefined, b: number | undefined): boolean {
  return a !== undefined && b !== undefined && Math.abs(a - b) < 1e-9
}

/**
 * The same game day. Both venues date games in US Eastern time; where one gives the start time and the other's day
 * is the start's UTC day (a venue that dates by UTC), that is the same game too. Without a day on a side, the end
 * times must fall within a day of each other (weak: a rematch two days later is another contract).
 */
function sameDay(
  x: ContestFacts,
  y: ContestFacts,
  endA: number | undefined,
  endB: number | undefined,
): { readonly evidence: string; readonly stated: boolean } | undefined {
  if (x.day !== undefined && y.day !== undefined) {
    if (x.day === y.day) return { evidence: x.day, stated: true }
    for (const [timed, other] of [
      [x, y],
      [y, x],
    ] as const) {
      if (timed.minutes === undefined || timed.day === undefined) continue
      const at = instantOn(Date.parse(`${timed.day}T00:00:00Z`), { minutes: timed.minutes, zone: 'et' })
      if (at !== undefined && new Date(at).toISOString().slice(0, 10) === other.day && easternDay(at) === timed.day)
        return { evidence: `${timed.day} (UTC ${other.day})`, stated: false }
    }
    return undefined
  }
  if (endA !== undefined && endB !== undefined && Math.abs(endA - endB) <= DAY_MS)
    return { evidence: `end times within a day (${x.day ?? y.day ?? 'no day stated'})`, stated: false }
  return undefined
}
