import type { PlannedQuestion, World } from './generate.js'
import type { GroundTruth, TruePair, VpMarket } from './types.js'

/**
 * The simulator's answer key: which events and outcomes are the same on both venues, and which questions are
 * decoys of which (same wording, another date or threshold). Matcher precision and recall are measured on it.
 */
export function groundTruth(world: World, planned: PlannedQuestion[]): GroundTruth {
  const eventPairs: { questionId: string; venuepEventSlug: string; venuekEventTicker: string }[] = []
  const outcomePairs: TruePair[] = []
  for (const q of world.questions) {
    if (q.venuep === undefined || q.venuek === undefined) continue
    eventPairs.push({ questionId: q.id, venuepEventSlug: q.venuep.slug, venuekEventTicker: q.venuek.eventTicker })
    for (const c of q.contracts) {
      const vk = q.venuek.markets.find((m) => m.contract.index === c.index)
      let vpMarket: VpMarket | undefined
      let tokenIndex: 0 | 1 = 0
      for (const m of q.venuep.markets) {
        if (m.contract.index === c.index) vpMarket = m
        else if (m.outcomes[0] !== 'Yes' && q.contracts.length === 2 && c.index === 1) {
          vpMarket = m
          tokenIndex = 1
        }
      }
      if (vk === undefined || vpMarket === undefined) continue
      outcomePairs.push({
        questionId: q.id,
        contractKey: c.key,
        label: c.label,
        venuepEventSlug: q.venuep.slug,
        venuepConditionId: vpMarket.conditionId,
        venuepTokenId: vpMarket.tokenIds[tokenIndex],
        venuekEventTicker: q.venuek.eventTicker,
        venuekMarketTicker: vk.ticker,
      })
    }
  }
  return {
    sharedQuestions: eventPairs.map((p) => p.questionId),
    eventPairs,
    outcomePairs,
    decoys: planned.filter((p) => p.decoyOf !== undefined).map((p) => ({ questionId: p.decoyOf as string, decoyId: p.id })),
  }
}
