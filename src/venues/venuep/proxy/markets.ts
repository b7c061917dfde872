import type { CatalogSnapshot } from '../../../actors/catalog-snapshot.js'
import type { Outcome, ServiceStatus } from '../../../model/types.js'

/**
 * The catalog as the proxies need it: venuep's *binary* markets (one condition id, two CLOB tokens) reachable
 * by token id, condition id and slug. The catalog's records are shaped for listing (a multi-market event is
 * one grouped record whose outcomes are the child markets' YES tokens), so the second token of a child market
 * and the slug → children relation are rebuilt here, once per catalog snapshot (cached by snapshot identity).
 */
export interface BinaryMarket {
  readonly conditionId: string
  /** The binary market's own slug (a child market's slug inside a group). */
  readonly slug: string
  /** Our market record's slug (`market_slug` of /markets): the group slug for a child market. */
  readonly marketSlug: string
  /** venuep event slug, which is also the service event slug of venuep events. */
  readonly eventSlug: string
  /** Outcome title for a child market ("25 bps decrease"), the event title for a single market. */
  readonly title: string
  /** [token of outcome 0 (YES / first), token of outcome 1]. */
  readonly tokens: readonly [string, string]
  readonly status: ServiceStatus
  /** The catalog outcome of token 0 (its price and volume rank the market when an event slug is resolved). */
  readonly yes: Outcome
}

export interface TokenRef {
  readonly market: BinaryMarket
  readonly index: 0 | 1
}

const directories = new WeakMap<CatalogSnapshot, MarketDirectory>()

export class MarketDirectory {
  readonly #byToken = new Map<string, TokenRef>()
  readonly #byCondition = new Map<string, BinaryMarket>()
  readonly #bySlug = new Map<string, readonly BinaryMarket[]>()

  /** The directory of a snapshot, built on first use. */
  static of(snapshot: CatalogSnapshot): MarketDirectory {
    let d = directories.get(snapshot)
    if (d === undefined) {
      d = new MarketDirectory(snapshot)
      directories.set(snapshot, d)
    }
    return d
  }

  private constructor(snapshot: CatalogSnapshot) {
    const groups = new Map<string, BinaryMarket[]>()
    const addTo = (key: string, m: BinaryMarket): void => {
      const list = groups.get(key)
      if (list === undefined) groups.set(key, [m])
      else if (!list.includes(m)) list.push(m)
    }
    for (const event of snapshot.events) {
      for (const pm of event.markets) {
        const seen = new Map<string, BinaryMarket>()
        for (const o of pm.outcomes) {
          if (o.conditionId === undefined || o.childMarketSlug === undefined) continue
          if (seen.has(o.conditionId)) continue
          // A single market lists both tokens as outcomes (index 0 and 1); a group lists each child's YES token
          // with the NO token as its complement. Either way the pair is (instrument, complement) ordered by index.
          const index = o.outcomeIndex === 1 ? 1 : 0
          const other = o.complementInstrumentId
          if (other === undefined) continue
          const tokens: [string, string] = index === 0 ? [o.instrumentId, other] : [other, o.instrumentId]
          const grouped = pm.outcomes.length > 2 || pm.marketId !== o.childMarketSlug
          const m: BinaryMarket = {
            conditionId: o.conditionId,
            slug: o.childMarketSlug,
            marketSlug: pm.marketId,
            eventSlug: event.eventId,
            title: grouped ? o.title : pm.title,
            tokens,
            status: o.status,
            yes: o.instrumentId === tokens[0] ? o : (pm.outcomes.find((x) => x.instrumentId === tokens[0]) ?? o),
          }
          seen.set(o.conditionId, m)
          this.#byCondition.set(o.conditionId.toLowerCase(), m)
          this.#byToken.set(tokens[0], { market: m, index: 0 })
          this.#byToken.set(tokens[1], { market: m, index: 1 })
          this.#bySlug.set(m.slug, [m])
          addTo(pm.marketId, m)
          addTo(event.eventId, m)
        }
      }
    }
    // A binary market's own slug wins over a group or event slug that happens to be equal to it.
    for (const [slug, list] of groups) if (!this.#bySlug.has(slug)) this.#bySlug.set(slug, list)
  }

  token(tokenId: string): TokenRef | undefined {
    return this.#byToken.get(tokenId)
  }

  /** A condition id (any case) or, for convenience, one of the market's token ids. */
  condition(id: string): BinaryMarket | undefined {
    return this.#byCondition.get(id.toLowerCase()) ?? this.#byToken.get(id)?.market
  }

  /** Binary market slug → that market; group, market-record or event slug → its binary markets. */
  slug(slug: string): readonly BinaryMarket[] | undefined {
    return this.#bySlug.get(slug)
  }
}
