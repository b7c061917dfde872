import { uniqueKey } from '../world/unique-key.js'
import type { World } from '../world/world.js'
import type { Rng } from '../world/random.js'
import { slugsTags } from '../world/shapes/labels.js'
import type { QuestionSpec } from '../world/templates/index.js'
import type { Contract, Question } from '../world/types.js'
import type { VpEvent, VpMarket } from './types.js'
import { venuepOf } from './state.js'

/**
 * How a generated question is listed on venuep: Gamma events and markets (slugs, condition and token ids, tags),
 * added to the world's indexes. Three layouts, as real Gamma lists them:
 *
 * - one single market (Yes/No, or a head-to-head's two sides);
 * - one grouped event, a binary child per contract, whose `groupItemTitle` is the label, `""`, or absent (the
 *   name is then only in the question: most real grouped children in the captures);
 * - one single-market event per contract ("Will X happen by June 30, 2026?" beside "… by December 31, 2026?").
 *
 * Dates are the venue's: `endDate` is the expected resolution (shapes/venue-dates.ts), each child of a deadline
 * group ends at its own deadline. Placeholder children list inactive. Questions of one occasion may share an event
 * (`eventKey`: a match's maps, each a two-outcome market of its own).
 */
/** The first generated event and market ids: every listed event and market takes the next. */
const FIRST_EVENT_ID = 20_000
const FIRST_MARKET_ID = 500_000

export function listVenuep(world: World, q: Question, spec: QuestionSpec, rng: Rng): void {
  const vp = venuepOf(world)
  const v = spec.slugs
  let eventId = FIRST_EVENT_ID + vp.events.length
  let marketId = FIRST_MARKET_ID + vp.markets.length
  const nextMarketId = () => String(marketId++)
  const tags = v.tags ?? slugsTags(rng, spec.category)
  const active = q.lifecycle === 'active'
  // Once a question ended, the venue's dates are its end (an early close shows when it closed).
  const endOf = (planned: number | undefined) => (active ? (planned ?? q.endTime) : q.endTime)
  const tick = rng.chance(0.15) ? 0.001 : 0.01
  const fee = spec.category === 'crypto' && spec.kind === 'ladder' ? 1000 : 0
  const events: VpEvent[] = []
  const newEvent = (slug: string, title: string, negRisk: boolean, endDate: number): VpEvent => {
    const e: VpEvent = {
      id: String(eventId++),
      slug: uniqueKey(vp.eventsBySlug, slug),
      title,
      description: v.description,
      tags,
      negRisk,
      negRiskMarketId: negRisk ? `0x${rng.hex(64)}` : undefined,
      createdAt: q.createdAt,
      startDate: q.createdAt + 5 * 60_000,
      endDate,
      question: q,
      markets: [],
      image: '',
      capture: undefined,
    }
    // Registered at once: a split listing's next event must see this slug taken.
    vp.eventsBySlug.set(e.slug, e)
    events.push(e)
    return e
  }
  // The event of the question's occasion when another question of it made one (`eventKey`), which then takes this
  // question's dates and lifecycle if it ends later; else a new one.
  let joined: VpEvent | undefined
  const eventOf = (endDate: number): VpEvent => {
    joined = v.eventKey === undefined ? undefined : vp.sharedEvents.get(v.eventKey)
    if (joined === undefined) {
      const e = newEvent(v.slug, v.title, v.negRisk, endDate)
      if (v.eventKey !== undefined) vp.sharedEvents.set(v.eventKey, e)
      return e
    }
    if (q.endTime > (joined.question as Question).endTime) {
      joined.question = q
      joined.endDate = endDate
    }
    return joined
  }
  const created: VpMarket[] = []
  const marketOf = (
    event: VpEvent,
    contract: Contract,
    question: string,
    outcomes: readonly [string, string],
    group: string | undefined,
    threshold: string | undefined,
    marketSlug: string,
    extra: { endDate?: number; active?: boolean },
  ): VpMarket => {
    // A placeholder has never traded: no volume, no resting liquidity.
    const trades = extra.active !== false
    const volume = Math.round(rng.logNormal(60_000, 1.6) * 100) / 100
    const liquidity = Math.round(rng.logNormal(8_000, 1.1) * 100) / 100
    const m: VpMarket = {
      id: nextMarketId(),
      slug: uniqueKey(vp.marketsBySlug, marketSlug),
      question,
      description: v.description,
      conditionId: `0x${rng.hex(64)}`,
      questionHash: `0x${rng.hex(64)}`,
      outcomes,
      tokenIds: [rng.digits(rng.chance(0.5) ? 77 : 78), rng.digits(rng.chance(0.5) ? 77 : 78)],
      groupItemTitle: group,
      groupItemThreshold: threshold,
      ...extra,
      contract,
      canonical: q,
      tickSize: tick,
      minOrderSize: 5,
      takerBaseFeeBps: fee,
      event,
      baseVolume: trades ? volume : 0,
      liquidity: trades ? liquidity : 0,
      capture: undefined,
    }
    vp.marketsBySlug.set(m.slug, m)
    event.markets.push(m)
    created.push(m)
    return m
  }
  // Real single-market events carry `groupItemTitle: ""` more often than not (86 of 102 in the captures).
  const singleTitle = () => (rng.chance(0.8) ? '' : undefined)
  const listed = (c: Contract, m: VpMarket, index: 0 | 1) => vp.listing.set(c.key, { market: m, index })

  if (v.outcomes !== undefined) {
    // A single binary market: Yes/No, or the two sides of a head-to-head (token 1 prices contract 1).
    const e = eventOf(endOf(v.endDate))
    const ownEnd = spec.contracts[0]?.slugsEndDate
    const m = marketOf(
      e,
      q.contracts[0] as Contract,
      v.marketQuestion(0),
      v.outcomes,
      v.outcomes[0] === 'Yes' ? singleTitle() : undefined,
      undefined,
      v.marketSlug?.(0) ?? e.slug,
      // Its own end, open or ended (a match's map ends before the match's event does).
      ownEnd !== undefined ? { endDate: endOf(ownEnd) } : {},
    )
    listed(q.contracts[0] as Contract, m, 0)
    if (spec.complementary && q.contracts[1] !== undefined) listed(q.contracts[1], m, 1)
  } else if ((v.layout ?? 'grouped') === 'split') {
    spec.contracts.forEach((c, i) => {
      if (!c.onSlugs) return
      const question = v.marketQuestion(i)
      const e = newEvent(slugFromQuestion(question), question, false, endOf(c.slugsEndDate ?? v.endDate))
      listed(
        q.contracts[i] as Contract,
        marketOf(e, q.contracts[i] as Contract, question, ['Yes', 'No'], singleTitle(), undefined, e.slug, {}),
        0,
      )
    })
  } else {
    const e = eventOf(endOf(v.endDate))
    const mode = v.groupTitles ?? 'title'
    spec.contracts.forEach((c, i) => {
      if (!c.onSlugs) return
      const label = v.groupItemTitle?.(i) ?? c.slugsLabel
      const group = mode === 'title' ? label : mode === 'empty' ? '' : undefined
      const question = v.marketQuestion(i)
      const extra = {
        ...(active && c.slugsEndDate !== undefined ? { endDate: c.slugsEndDate } : {}),
        ...(c.placeholder === true ? { active: false } : {}),
      }
      listed(
        q.contracts[i] as Contract,
        marketOf(
          e,
          q.contracts[i] as Contract,
          question,
          ['Yes', 'No'],
          group,
          String(i),
          v.marketSlug?.(i) ?? slugFromQuestion(question),
          extra,
        ),
        0,
      )
    })
  }
  const first = events[0] ?? joined
  if (first !== undefined) vp.questionEvents.set(q.id, first)
  for (const e of events) {
    vp.events.push(e)
    vp.eventsById.set(e.id, e)
  }
  for (const m of created) {
    vp.markets.push(m)
    vp.marketsById.set(m.id, m)
    vp.marketsByCondition.set(m.conditionId, m)
    vp.tokens.set(m.tokenIds[0], { market: m, index: 0 })
    vp.tokens.set(m.tokenIds[1], { market: m, index: 1 })
  }
}

function slugFromQuestion(question: string): string {
  // Diacritics fold to their letters ("Erdő" → "erdo"); most questions are ASCII and skip the normalization.
  const folded = /[^\x00-\x7f]/.test(question) ? question.normalize('NFD').replace(/[\u0300-\u036f]/g, '') : question
  return folded
    .toLowerCase()
    .replace(/[$%°"?]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}
