import type { PlannedQuestion, World } from './world.js'
import { hardNegatives } from './hard-negatives.js'
import type { GroundTruth, TruePair } from './types.js'
import { venuepOf } from '../venuep/state.js'
import { venuekOf } from '../venuek/state.js'

/**
 * The simulator's answer key: exactly the outcome pairs (venuep token ↔ venuek market) that are the same contract,
 * the event pairs they span, which questions are decoys of which, and outcome-level look-alikes that are not the
 * same contract. Matcher precision and recall are measured on it.
 *
 * A pair is decided per contract, from where each venue lists it (`venuepOf(world).listing`, `venuekOf(world).listing`), so a
 * question listed as one venuek event and several venuep events (a deadline ladder split into single-market events)
 * pairs each venuep event with the venuek event, and contracts one venue lists alone (other candidates, other
 * strikes, placeholders) pair with nothing.
 */
export function groundTruth(world: World, planned: PlannedQuestion[]): GroundTruth {
  const eventPairs: { questionId: string; venuepEventSlug: string; venuekEventTicker: string }[] = []
  const seenEventPairs = new Set<string>()
  const outcomePairs: TruePair[] = []
  const shared: string[] = []
  for (const q of world.questions) {
    if (q.venuep === undefined || q.venuek === undefined) continue
    let any = false
    for (const c of q.contracts) {
      const vk = venuekOf(world).listing.get(c.key)
      const vp = venuepOf(world).listing.get(c.key)
      if (vk === undefined || vp === undefined) continue
      any = true
      const slug = vp.market.event.slug
      const ticker = vk.event.eventTicker
      outcomePairs.push({
        questionId: q.id,
        contractKey: c.key,
        label: c.label,
        venuepEventSlug: slug,
        venuepConditionId: vp.market.conditionId,
        venuepTokenId: vp.market.tokenIds[vp.index],
        venuekEventTicker: ticker,
        venuekMarketTicker: vk.ticker,
      })
      const key = `${slug}|${ticker}`
      if (!seenEventPairs.has(key)) {
        seenEventPairs.add(key)
        eventPairs.push({ questionId: q.id, venuepEventSlug: slug, venuekEventTicker: ticker })
      }
    }
    if (any) shared.push(q.id)
  }
  const decoyPlans = planned.filter((p) => p.decoyOf !== undefined)
  return {
    sharedQuestions: shared,
    eventPairs,
    outcomePairs,
    decoys: decoyPlans.map((p) => ({ questionId: p.decoyOf as string, decoyId: p.id, reason: p.decoyReason ?? 'another date' })),
    hardNegatives: hardNegatives(world, planned),
  }
}
