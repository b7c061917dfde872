import { easternDay, instantOn } from './clock-times.js'
import type { ContestFacts, Participant } from './contest.js'
import { compareNames, sameCode, STRENGTH_RANK, type AliasLookup, type NameStrength } from './names.js'

/**
 * Whether two head-to-head contracts (contest.ts), one per venue, resolve YES in exactly the same worlds. Field by
 * field, each can only reject:
 *
 * 1. **kind** (winner, draw, handicap, total, both teams to score, exact score) and **part** (match, map 2, set 1);
 * 2. **discipline**, when both state one (the same two organisations meet in several games);
 * 3. **participants**: each of one side's two is one of the other side's, one to one; a name agrees by the rules of
 *    names.ts or by equal identifier codes, and a code built from a name never carries both. Two assignments that fit
 *    equally well are ambiguous: rejected (docs/spreads.md F10, the "Jets" that matched another team's game);
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
  readonly allWords: ReadonlySet<string>
  readonly end: number | undefined
}

const DAY_MS = 86_400_000

export function judgeContests(a: ContestSide, b: ContestSide, aliases: AliasLookup): ContestJudgement {
  const x = a.contest
  const y = b.contest
  if (x.kind !== y.kind) return reject('kind', () => `${x.kind} vs ${y.kind}`)
  if (x.segment !== y.segment) return reject('part', () => `${x.segment} vs ${y.segment}`)
  if (x.discipline !== undefined && y.discipline !== undefined && x.discipline !== y.discipline)
    return reject('discipline', () => `${x.discipline} vs ${y.discipline}`)
  const map = assign(x.participants, y.participants, aliases)
  if (map === undefined) return reject('participants', () => `${names(x)} vs ${names(y)}`)
  if (map === 'ambiguous') return reject('participants', () => `${names(x)} vs ${names(y)}: ambiguous`)
  const toY = (i: 0 | 1 | undefined) => (i === undefined ? undefined : map.order[i])
  const sideReason = sideDiffers(x, y, toY)
  if (sideReason !== undefined) return reject('side', sideReason)
  const day = sameDay(x, y, a.end, b.end)
  if (day === undefined) return reject('day', () => `${x.day ?? '?'} vs ${y.day ?? '?'}`)
  for (const [from, to] of [
    [a, b],
    [b, a],
  ] as const) {
    const missing = from.contest.residual.filter((w) => !to.allWords.has(w))
    if (missing.length > 0) return reject('what', () => `only one side says: ${missing.join(' ')}`)
  }
  const compared = [
    `kind: ${x.kind}`,
    `part: ${x.segment}`,
    ...(x.discipline !== undefined && y.discipline !== undefined ? [`discipline: ${x.discipline}`] : []),
    `participants: ${map.pairs.join('; ')}`,
    ...sideEvidence(x),
    `day: ${day.evidence}`,
  ]
  return { same: true, strong: map.strong && day.stated, compared, period: day.evidence }
}

function reject(field: ContestField, reason: () => string): ContestJudgement {
  return { same: false, field, reason }
}

function names(c: ContestFacts): string {
  return `${c.participants[0].name} / ${c.participants[1].name}`
}

interface Assignment {
  /** Index in B of A's participant 0 and 1. */
  readonly order: readonly [0 | 1, 0 | 1]
  readonly strong: boolean
  readonly pairs: readonly string[]
}

/** How strongly two participants agree: their names, or a code of one against the other's name or codes. */
function strength(p: Participant, q: Participant, aliases: AliasLookup): NameStrength {
  const byName = compareNames(p.key, q.key, aliases)
  if (byName === 'same' || byName === 'strong') return byName
  if (p.codes.some((c) => q.codes.some((d) => sameCode(c, d)))) return 'strong'
  return byName
}

function assign(
  a: readonly [Participant, Participant],
  b: readonly [Participant, Participant],
  aliases: AliasLookup,
): Assignment | 'ambiguous' | undefined {
  const s = [
    [strength(a[0], b[0], aliases), strength(a[0], b[1], aliases)],
    [strength(a[1], b[0], aliases), strength(a[1], b[1], aliases)],
  ] as const
  const option = (order: readonly [0 | 1, 0 | 1]) => {
    const s0 = s[0][order[0]]
    const s1 = s[1][order[1]]
    const r0 = STRENGTH_RANK[s0]
    const r1 = STRENGTH_RANK[s1]
    // A weak (code-built) agreement never carries both participants.
    const ok = r0 > 0 && r1 > 0 && (r0 > 1 || r1 > 1)
    return { order, ok, min: Math.min(r0, r1), sum: r0 + r1, s0, s1 }
  }
  const straight = option([0, 1])
  const crossed = option([1, 0])
  let pick
  if (straight.ok && crossed.ok) {
    if (straight.min !== crossed.min) pick = straight.min > crossed.min ? straight : crossed
    else if (straight.sum !== crossed.sum) pick = straight.sum > crossed.sum ? straight : crossed
    else return 'ambiguous'
  } else pick = straight.ok ? straight : crossed.ok ? crossed : undefined
  if (pick === undefined) return undefined
  return {
    order: pick.order,
    strong: STRENGTH_RANK[pick.s0] >= 2 && STRENGTH_RANK[pick.s1] >= 2,
    pairs: [
      `${a[0].name} = ${b[pick.order[0]].name} (${pick.s0})`,
      `${a[1].name} = ${b[pick.order[1]].name} (${pick.s1})`,
    ],
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
