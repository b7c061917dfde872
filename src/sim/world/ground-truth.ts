import type { PlannedQuestion, World } from './world.js'
import { hardNegatives, type ListedLeg } from './hard-negatives.js'
import type { EventPair, GroundTruth, TruePair, TruthLeg } from './types.js'

/**
 * The simulator's answer key: exactly the outcome pairs (A's outcome ↔ B's outcome) that are the same contract, the
 * event pairs they span, which questions are decoys of which, and outcome-level look-alikes that are not the same
 * contract. Matcher precision and recall are measured on it. A and B are the venues the world pairs (the first two of
 * the sim list), `legs` how each lists a contract.
 *
 * A pair is decided per contract, from where each venue lists it, so a question listed as one event on one venue and
 * several on the other (a deadline ladder split into single-market events) pairs each of those events with the
 * one, and contracts one venue lists alone (other candidates, other strikes, placeholders) pair with nothing.
 */
export function groundTruth(
  world: World,
  planned: PlannedQuestion[],
  legs: readonly [a: ListedLeg, b: ListedLeg],
): GroundTruth {
  const [legA, legB] = legs
  const eventPairs: EventPair[] = []
  const seenEventPairs = new Set<string>()
  const outcomePairs: TruePair[] = []
  const shared: string[] = []
  for (const q of world.questions) {
    let any = false
    for (const c of q.contracts) {
      const b = legB(world, c.key)
      const a = legA(world, c.key)
      if (b === undefined || a === undefined) continue
      any = true
      outcomePairs.push({ questionId: q.id, contractKey: c.key, label: c.label, a, b })
      // Per question: questions sharing events (a tournament's players) each have their entry for the pair.
      const key = `${q.id}|${a.event}|${b.event}`
      if (!seenEventPairs.has(key)) {
        seenEventPairs.add(key)
        eventPairs.push({
          questionId: q.id,
          a: { venue: a.venue, event: a.event },
          b: { venue: b.venue, event: b.event },
        })
      }
    }
    if (any) shared.push(q.id)
  }
  const decoyPlans = planned.filter((p) => p.decoyOf !== undefined)
  return {
    sharedQuestions: shared,
    eventPairs,
    outcomePairs,
    decoys: decoyPlans.map((p) => ({
      questionId: p.decoyOf as string,
      decoyId: p.id,
      reason: p.decoyReason ?? 'another date',
    })),
    hardNegatives: hardNegatives(world, planned, legs),
  }
}
