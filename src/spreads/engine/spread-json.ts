import { money } from '../../core/money.js'
import { isoNoZone } from '../../core/time.js'
import type { MatchExplanation } from '../matching/matcher.js'
import type { SpreadRecord } from './spread-engine.js'

/**
 * Spread records as JSON (spec 2.7 plus the pair's `id`, `outcome_key` and the executable edge). A record's JSON is built once per
 * version of the record (the engine rewrites records in place, bumping it); only `is_stale` depends on the request
 * (cutoff and current time) and is spliced in.
 */
const cache = new WeakMap<SpreadRecord, JsonParts>()

interface JsonParts {
  readonly version: number
  readonly head: string
  readonly tail: string
}

export function isStale(r: SpreadRecord, now: number, cutoffMs: number): boolean {
  return r.feedStale || now - r.olderQuoteAt > cutoffMs
}

function matchJson(m: MatchExplanation): object {
  const e = m.evidence
  // Keys named by the two venues, in this order (the bytes clients read).
  return {
    quality: m.quality,
    weight: m.weight,
    manual: m.manual,
    [`${m.a.venue}_outcome_id`]: m.a.outcomeId,
    [`${m.b.venue}_outcome_id`]: m.b.outcomeId,
    evidence:
      e === undefined
        ? null
        : {
            kind: e.kind,
            compared: e.compared,
            shared_words: e.shared,
            implicit_words: e.implicit,
            period: e.period,
            strike: e.strike ?? null,
          },
    [`${m.a.venue}_text`]: m.a.text,
    [`${m.b.venue}_text`]: m.b.text,
  }
}

export function spreadJson(r: SpreadRecord, stale: boolean): string {
  let parts = cache.get(r)
  if (parts === undefined || parts.version !== r.version) {
    const x = r.executable
    const head = JSON.stringify({
      id: r.id,
      event_slug: r.eventSlug,
      event_title: r.eventTitle,
      category: r.category,
      outcome_title: r.outcomeTitle,
      outcome_key: r.outcomeKey,
      platform_a: r.platformA,
      platform_b: r.platformB,
      price_a: r.priceA,
      price_b: r.priceB,
      spread: r.spread,
      spread_bps: r.spreadBps,
      confidence: r.confidence,
    })
    const tail = JSON.stringify({
      updated_at: isoNoZone(r.updatedAt),
      platform_a_url: r.platformAUrl,
      platform_b_url: r.platformBUrl,
      matching_strategy: r.strategy,
      match_quality: r.quality,
      volume_min: money(r.minVolume),
      match: matchJson(r.match),
      executable:
        x === undefined
          ? null
          : {
              buy_platform: r.platformA,
              buy_price: x.buyPrice,
              sell_platform: r.platformB,
              sell_price: x.sellPrice,
              edge: x.edge,
              net_edge: x.netEdge,
              size: x.size,
              cost_dollars: money(x.costDollars),
              profit_dollars: money(x.profitDollars),
            },
    })
    parts = { version: r.version, head: `${head.slice(0, -1)},"is_stale":`, tail: `,${tail.slice(1)}` }
    cache.set(r, parts)
  }
  return `${parts.head}${stale ? 'true' : 'false'}${parts.tail}`
}
