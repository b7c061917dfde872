import type { PlannedQuestion, World } from './world.js'
import type { HardNegative, Question, TruthLeg } from './types.js'

/** Where one venue lists a generated contract (a peer's `world.truthLeg`, peer.ts); undefined where it does not. */
export type ListedLeg = (world: World, contractKey: string) => TruthLeg | undefined

/**
 * Outcome pairs a matcher must not make though they look alike (docs/spreads.md F3, F6, F7 and the real labels'
 * "different" pairs): one outcome on each venue (A, B: the venues the world pairs), in either of two kinds of place:
 *
 * - within one question, a contract built to imitate another on the other venue (`lookalikeOf`): "$100+" against
 *   "more than $100", "by June 30, 2026" against "Before Jun 30, 2026", "by December 31, 2026" against "before
 *   his term ends";
 * - across a question and its decoy, the outcomes with the same label: the same candidate as nominee and as
 *   winner, the same strike for another country or date, the same team in another game; for a deadline ladder,
 *   every pair (the same subject by other deadlines);
 * - across two siblings (questions of one occasion, `groupOf`), the outcomes with the same label: the same strike
 *   an hour later, the same team on another map or in the handicap. The reason gives both facets, the first
 *   venue's first ("map handicap vs map 1 winner"), as the real labels state a near miss.
 */
export function hardNegatives(
  world: World,
  planned: readonly PlannedQuestion[],
  [legA, legB]: readonly [a: ListedLeg, b: ListedLeg],
): HardNegative[] {
  const out: HardNegative[] = []
  const add = (p: Question, pKey: string, k: Question, kKey: string, reason: string) => {
    const a = legA(world, pKey)
    const b = legB(world, kKey)
    if (a === undefined || b === undefined) return
    out.push({ a: { ...a, questionId: p.id }, b: { ...b, questionId: k.id }, reason })
  }
  const groups = new Map<string, PlannedQuestion[]>()
  for (const p of planned) {
    if (p.groupOf !== undefined) groups.set(p.groupOf, [...(groups.get(p.groupOf) ?? []), p])
    const q = world.questionsById.get(p.id) as Question
    p.spec.contracts.forEach((c, i) => {
      if (c.lookalikeOf === undefined) return
      const reason = c.lookalikeReason ?? 'look-alike'
      const a = `${q.id}:${i}`
      const b = `${q.id}:${c.lookalikeOf}`
      add(q, a, q, b, reason)
      add(q, b, q, a, reason)
    })
    if (p.decoyOf === undefined) continue
    const original = world.questionsById.get(p.decoyOf) as Question
    const reason = p.decoyReason ?? 'another date'
    // Deadline ladders of one subject share no label across dates, yet every pair is the same thing by another date.
    const anyPair = original.kind === 'deadline' && q.kind === 'deadline'
    for (const a of original.contracts) {
      for (const b of q.contracts) {
        if (!anyPair && a.label !== b.label) continue
        add(original, a.key, q, b.key, reason)
        add(q, b.key, original, a.key, reason)
      }
    }
  }
  for (const members of groups.values())
    for (const x of members)
      for (const y of members) {
        if (x === y) continue
        const [qx, qy] = [world.questionsById.get(x.id) as Question, world.questionsById.get(y.id) as Question]
        const reason = `${x.spec.facet ?? x.spec.subject} vs ${y.spec.facet ?? y.spec.subject}`
        for (const a of qx.contracts)
          for (const b of qy.contracts) if (a.label === b.label) add(qx, a.key, qy, b.key, reason)
      }
  return out
}
