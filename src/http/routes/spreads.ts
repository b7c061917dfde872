import { Type, type Static, type TSchema } from '@sinclair/typebox'
import type { Clock } from '../../core/clock.js'
import { AppError } from '../../core/errors.js'
import { money } from '../../core/money.js'
import type { SpreadEngine, SpreadRecord } from '../../spreads/engine/spread-engine.js'
import { isStale, spreadJson } from '../../spreads/engine/spread-json.js'
import {
  inOrder,
  passesEdge,
  selectSpreads,
  SPREAD_SORTS,
  type EdgeFilter,
  type SpreadIndexes,
} from '../../spreads/engine/spread-query.js'
import type { VenueModule } from '../../venues/module.js'
import type { PageCache } from '../../views/page-cache.js'
import { ExpiringReplies } from '../../views/expiring-replies.js'
import { defineRoute, type AnyRoute } from '../route.js'
import { Csv, Offset, StringEnum } from '../schemas/common.js'
import { CENTS, Nullable, platformSchema } from '../schemas/records.js'
import { notOneOf } from '../validation-errors.js'
import { NOT_READY_RESPONSE, VALIDATION_RESPONSE } from './support.js'

/**
 * Cross-venue spreads (spec 4.3): the scanner and the top list, served from the spread actor. Both answer 503
 * `not_ready` until the engine has computed the first installed pair plan (SpreadEngine.ready, also a condition of
 * /readyz), so an empty list always means "no gaps", never "not matched yet".
 */
export interface SpreadRouteDeps {
  readonly engine: SpreadEngine
  readonly clock: Clock
  readonly pages: PageCache
  /** The registered venues, in registry order: the `platform` values and each venue's `match` keys. */
  readonly venues: readonly SpreadVenue[]
}

/**
 * /spreads/top lists fresh spreads only: a spread whose feed is down or whose older quote is past the scanner's
 * default cutoff leaves the list (the next one moving up), as it leaves the stream's `spreads.top` views. A stale
 * quote's confidence says how good the match and the book were when last seen, not now: ranking it would put
 * gaps nobody can trade at the top of the list the moment a venue stalls.
 */
const TOP_STALE_CUTOFF_MS = 45 * 60_000

/** Fresh at `now` by /spreads/top's rule (TOP_STALE_CUTOFF_MS). */
const freshAt = (now: number) => (r: SpreadRecord) => !isStale(r, now, TOP_STALE_CUTOFF_MS)

/** Largest `limit` of /spreads/top (the spec leaves it open). */
export const TOP_MAX_LIMIT = 200

/**
 * Largest `limit` of /spreads. The spec's scanner returns every match, so `limit` is optional there and absent
 * means all (today's answer); a page asked for is at most this many rows (~0.8 kB each).
 */
export const SCAN_MAX_LIMIT = 1_000

const NNumber = (description: string) => Nullable(Type.Number({ description }))

/** What the spread routes need of a venue: its id (the `platform` values) and what its match keys hold. */
export type SpreadVenue = Pick<VenueModule, 'id' | 'matchTerms'>

/**
 * A spread's `match` keys of each venue: its contract and the texts read, each venue's `_outcome_id` in registry
 * order, then `evidence`, then each venue's `_text`. A record has its two legs' keys: with two venues every record
 * has them all, with more each is optional.
 */
function matchLegKeys(venues: readonly SpreadVenue[]) {
  const maybe = <T extends TSchema>(schema: T) => (venues.length > 2 ? Type.Optional(schema) : schema)
  const outcomeIds = venues.map(
    (v) =>
      [
        `${v.id}_outcome_id`,
        maybe(Type.String({ description: `The ${v.id} contract: ${v.matchTerms.outcomeId}.` })),
      ] as const,
  )
  const texts = venues.map(
    (v) =>
      [
        `${v.id}_text`,
        maybe(
          Type.Array(Type.String(), {
            description: `The ${v.id} texts read, most specific first (${v.matchTerms.text}).`,
          }),
        ),
      ] as const,
  )
  return { outcomeIds: Object.fromEntries(outcomeIds), texts: Object.fromEntries(texts) }
}

/** The record and bodies of both routes, for these venues (registry order). */
export function spreadSchemas(venues: readonly SpreadVenue[]) {
  const platform = platformSchema(venues.map((v) => v.id))
  const legs = matchLegKeys(venues)
  const record = Type.Object(
    {
      id: Type.String({
        pattern: '^[0-9a-f]{16}$',
        description:
          "Addition: the pair's stable id (16 hex digits of the SHA-256 of `event_slug|outcome_key`): the same across restarts, a key of the stream's `spread` channel and the id of `spreads.top` items.",
      }),
      event_slug: Type.String({ description: 'Service event slug.' }),
      event_title: Type.String(),
      category: Type.String({
        description:
          "Addition: the event's category slug, as `/api/v2/events` lists it (the `category` filter of the stream's `spreads.top` views).",
      }),
      outcome_title: Type.String({ description: 'Outcome compared across venues.' }),
      outcome_key: Type.String({
        description: 'Addition: key for /spreads/history, `text:<outcome name lowercased>`.',
      }),
      platform_a: platform,
      platform_b: platform,
      price_a: Type.Number({ description: 'Normalized probability on platform_a (the lower), 0 to 1.' }),
      price_b: Type.Number({ description: 'Normalized probability on platform_b (the higher), 0 to 1.' }),
      spread: Type.Number({ description: 'price_b − price_a.' }),
      spread_bps: Type.Number({ description: 'spread × 10,000.' }),
      confidence: Type.Number({ description: '0 to 1; formula in the API description.' }),
      is_stale: Type.Boolean({ description: 'One or both quotes are older than the stale cutoff, or a feed is down.' }),
      updated_at: Type.String({
        description: 'Time of the most recent platform quote (ISO 8601, UTC, no zone suffix).',
      }),
      platform_a_url: Type.String(),
      platform_b_url: Type.String(),
      matching_strategy: StringEnum(['auto_canonical', 'manual_override', 'normalized_title_fallback', 'event_key']),
      match_quality: StringEnum(['manual', 'auto_high', 'auto_medium']),
      volume_min: NNumber(
        `Addition: the thinner venue\'s volume ($) of the binary market its outcome trades in (min_volume filters on it). ${CENTS}`,
      ),
      match: Type.Object(
        {
          quality: StringEnum(['manual', 'auto_high', 'auto_medium'], { description: 'As `match_quality`.' }),
          weight: Type.Number({
            description:
              'The measured share of pairs of this quality that were the same contract (95% lower bound, from `npm run eval:matching` on labelled pairs; 1 for manual matches): the match factor of `confidence`.',
          }),
          manual: Type.Boolean({ description: 'A reviewer paired these outcomes (config/matches.json).' }),
          ...legs.outcomeIds,
          evidence: Nullable(
            Type.Object(
              {
                kind: Type.String({
                  description:
                    "The kind of proposition both contracts are: a head-to-head's `match-winner`, `map-winner`, `set-winner`, `half-winner`…, `draw`, `handicap`, `total`, `btts`, `exact-score`; else `threshold`, `bracket`, `top-n`, `mention`, `winner` or `statement`.",
                }),
                compared: Type.Array(Type.String(), {
                  description:
                    'Each field the matcher compared and the value both contracts agreed on, e.g. `part: map 2`, `side: FURIA`, `day: 2026-05-10`, `threshold: ≥ $79000`, `period: at 2026-05-10T14:00Z`.',
                }),
                shared_words: Type.Array(Type.String(), {
                  description: 'Normalized words both contracts state (subject, role, action).',
                }),
                implicit_words: Type.Array(Type.String(), {
                  description: 'Words one venue states and the other leaves implicit (e.g. `us`).',
                }),
                period: Type.String({
                  description:
                    "How the contracts' periods agree: the common deadline or year, or (weaker) close end times.",
                }),
                strike: Nullable(
                  Type.String({
                    description: 'The common threshold or range (e.g. `≥ $100`), null when neither has one.',
                  }),
                ),
              },
              {
                additionalProperties: false,
                description: 'What the automatic matcher found the same; null for manual matches.',
              },
            ),
          ),
          ...legs.texts,
        },
        { additionalProperties: false, description: 'Addition: why the two outcomes were paired.' },
      ),
      executable: Nullable(
        Type.Object(
          {
            buy_platform: platform,
            buy_price: Type.Number({ description: 'Best ask where the outcome is cheap.' }),
            sell_platform: platform,
            sell_price: Type.Number({ description: 'Best bid where it is dear (or buy the complement at 1 − bid).' }),
            edge: Type.Number({ description: 'sell_price − buy_price per contract.' }),
            net_edge: Type.Number({ description: "edge less both venues' taker fees per contract." }),
            size: Type.Number({ description: 'Contracts available at a positive net edge, walking both books.' }),
            cost_dollars: Type.Number({
              description: `Dollars paid for \`size\` contracts at the cheap venue. ${CENTS}`,
            }),
            profit_dollars: Type.Number({ description: `Net profit if all of \`size\` is taken. ${CENTS}` }),
          },
          {
            additionalProperties: false,
            description: 'Addition: what the books allow right now; null without both books.',
          },
        ),
      ),
    },
    { additionalProperties: false },
  )

  const list = Type.Object(
    { data: Type.Array(record), count: Type.Integer({ description: 'Elements in data.' }) },
    { additionalProperties: false },
  )

  const scan = Type.Object(
    {
      data: Type.Array(record),
      count: Type.Integer({ description: 'Elements in data.' }),
      total: Type.Integer({ description: 'Addition: matches before `limit` and `offset`.' }),
      limit: Nullable(
        Type.Integer({
          description: 'Addition: the `limit` asked for; null when absent (every match from `offset` on).',
        }),
      ),
      offset: Type.Integer({ description: 'Addition: the `offset` asked for.' }),
    },
    { additionalProperties: false },
  )
  return { record, list, scan }
}

/** The sort parameter of both routes (the default differs: each keeps its spec order). */
const Sort = (def: 'spread' | 'confidence') =>
  StringEnum(SPREAD_SORTS, {
    default: def,
    description:
      "Addition: the order, highest first: `net_edge` (`executable.net_edge`; rows without an executable edge last), `spread` or `confidence`. Ties by the pair's id (the order pairs were first matched), so pages never split a tie arbitrarily.",
  })

/** The executable-edge filters of both routes (Additions). */
const edgeParameters = {
  executable_only: Type.Boolean({
    default: false,
    description:
      'Addition: only rows that can be traded at a profit now: `executable.net_edge` > 0 and `executable.size` > 0.',
  }),
  min_net_edge: Type.Optional(
    Type.Number({
      minimum: -1,
      maximum: 1,
      description:
        'Addition: only rows with `executable.net_edge` at least this (per contract, 0.01 = 1 cent; negative to see gaps that fees or the book still close). Rows whose `executable` is null never pass.',
    }),
  ),
}

function edgeFilter(q: { readonly executable_only: boolean; readonly min_net_edge?: number | undefined }): EdgeFilter {
  return { executableOnly: q.executable_only, minNetEdge: q.min_net_edge }
}

function recordsJson(list: readonly SpreadRecord[], stale: readonly boolean[]): string {
  return list.map((r, i) => spreadJson(r, stale[i] as boolean)).join(',')
}

function body(list: readonly SpreadRecord[], stale: readonly boolean[]): string {
  return `{"data":[${recordsJson(list, stale)}],"count":${list.length}}`
}

/** The scanner's spread and volume filters (also filters of a stream's `spreads.top` view). */
export const MIN_SPREAD = Type.Number({
  minimum: 0,
  maximum: 1,
  default: 0.02,
  description: 'Minimum spread in probability points (0.02 = 2%).',
})
export const MIN_VOLUME = Type.Number({
  minimum: 0,
  default: 1000,
  description:
    'Minimum platform volume in dollars (on both venues). 0 keeps every pair, those whose venue reports no volume (`volume_min` null) included.',
})

/**
 * The query of /spreads/top; also the view of the stream's `spreads.top` channel (src/stream/sources/spreads/),
 * which validates its keys with this schema so both accept the same values within the same bounds.
 */
export const TOP_QUERY = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: TOP_MAX_LIMIT, default: 20, description: 'Number of opportunities.' }),
  window: Type.Integer({
    minimum: 1,
    maximum: 720,
    default: 24,
    description: 'Freshness window in hours used for the ranking.',
  }),
  sort: Sort('confidence'),
  ...edgeParameters,
})

export type TopQuery = Static<typeof TOP_QUERY>

/**
 * The records of /spreads/top for `q` at `now`, in its order; `also` narrows it further (the stream's top lists
 * leave stale spreads out, and may add the scanner's filters), the list still filled to `limit` from below.
 */
export function topSpreads(
  engine: SpreadIndexes,
  q: TopQuery,
  now: number,
  also?: (r: SpreadRecord) => boolean,
): SpreadRecord[] {
  const windowMs = q.window * 3_600_000
  const inWindow = (r: SpreadRecord) => now - r.olderQuoteAt <= windowMs
  const keep = also === undefined ? inWindow : (r: SpreadRecord) => inWindow(r) && also(r)
  return selectSpreads(engine, { sort: q.sort, edge: edgeFilter(q), keep, minSpread: 0, limit: q.limit })
}

/** The scanner's own filters (a stream view may leave any of them out: absent, not filtered). */
export interface ScanFilterQuery {
  readonly min_spread?: number | undefined
  readonly min_volume?: number | undefined
  readonly platforms?: readonly string[] | undefined
}

/** The first of `platforms` that is not a registered venue's id. */
export function unknownPlatform(
  platforms: readonly string[] | undefined,
  venueIds: readonly string[],
): string | undefined {
  return platforms?.find((p) => !venueIds.includes(p))
}

/** The scanner's condition on a record for `q`. */
export function scanFilter(q: ScanFilterQuery): (r: SpreadRecord) => boolean {
  const platforms = q.platforms === undefined ? undefined : new Set(q.platforms)
  const minSpread = q.min_spread ?? Number.NEGATIVE_INFINITY
  const minVolume = q.min_volume
  // min_volume is compared with volume_min as printed (cents), so a listed record always satisfies it visibly. A
  // minimum of 0 filters nothing: a venue that reports no volume (a replayed capture without one) is still listed.
  return (r) =>
    r.spread >= minSpread &&
    (minVolume === undefined || minVolume <= 0 || (money(r.minVolume) ?? -1) >= minVolume) &&
    (platforms === undefined || (platforms.has(r.platformA) && platforms.has(r.platformB)))
}

function notReady(engine: SpreadEngine): void {
  if (!engine.ready) throw new AppError(503, 'not_ready', 'cross-venue pairs are still being matched')
}

export function spreadRoutes(deps: SpreadRouteDeps): AnyRoute[] {
  const schemas = spreadSchemas(deps.venues)
  const venueIds = deps.venues.map((v) => v.id)
  const scan = defineRoute({
    method: 'get',
    path: '/api/v2/spreads',
    operationId: 'listSpreads',
    summary: 'Scanner of cross-venue gaps',
    description:
      'Every matched outcome whose gap is at least `min_spread` and whose thinner venue has at least `min_volume`, largest gap first. `is_stale` is computed per request from `stale_cutoff_minutes`. ' +
      `Addition: \`sort\`, the executable-edge filters \`executable_only\` and \`min_net_edge\`, and paging: without \`limit\` every match is returned (as the spec's scanner does); with it, at most ${SCAN_MAX_LIMIT.toLocaleString('en-US')} rows from \`offset\`, \`total\` counting every match. ` +
      '503 `not_ready` until the first matched pairs are priced.',
    tags: ['spreads'],
    query: Type.Object({
      event_slug: Type.Optional(Type.String({ minLength: 1, maxLength: 300, description: 'Restrict to one event.' })),
      min_spread: MIN_SPREAD,
      min_volume: MIN_VOLUME,
      platforms: Type.Optional(
        Csv({
          description: `Platform slugs to include (${venueIds.map((id) => `\`${id}\``).join(', ')}); a pair needs both of its platforms listed.`,
        }),
      ),
      stale_cutoff_minutes: Type.Integer({
        minimum: 1,
        maximum: 10_080,
        default: 45,
        description: 'Minutes after which a quote is stale.',
      }),
      sort: Sort('spread'),
      ...edgeParameters,
      limit: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: SCAN_MAX_LIMIT,
          description: `Addition: at most this many rows (1 to ${SCAN_MAX_LIMIT.toLocaleString('en-US')}); absent: every match.`,
        }),
      ),
      offset: Offset('Addition: matches to skip before the first row.'),
    }),
    responses: {
      200: { description: 'Qualifying gaps.', schema: schemas.scan },
      422: VALIDATION_RESPONSE,
      503: NOT_READY_RESPONSE,
    },
    handler: ({ query: q }) => {
      const bad = unknownPlatform(q.platforms, venueIds)
      if (bad !== undefined) throw notOneOf(['query', 'platforms'], venueIds, bad)
      notReady(deps.engine)
      const now = deps.clock.now()
      const cutoff = q.stale_cutoff_minutes * 60_000
      const edge = edgeFilter(q)
      const keep = scanFilter(q)
      // Every match is found (for `total`), in order; only the page is serialized.
      const matches =
        q.event_slug === undefined
          ? selectSpreads(deps.engine, {
              sort: q.sort,
              edge,
              keep,
              minSpread: q.min_spread,
              limit: Number.POSITIVE_INFINITY,
            })
          : inOrder(
              deps.engine.eventRecords(q.event_slug).filter((r) => keep(r) && passesEdge(r, edge)),
              q.sort,
            )
      const page = q.limit === undefined ? matches.slice(q.offset) : matches.slice(q.offset, q.offset + q.limit)
      const stale = page.map((r) => isStale(r, now, cutoff))
      return {
        status: 200,
        body: `{"data":[${recordsJson(page, stale)}],"count":${page.length},"total":${matches.length},"limit":${q.limit ?? null},"offset":${q.offset}}`,
      }
    },
  })

  /**
   * Top lists' bytes by (limit, window), versioned by the engine's top-list epoch they were built at, each until
   * time moves a listed record out of the window or across the stale cutoff. Keyed by a number (limit × 1,000 +
   * window; window ≤ 720), so a hit builds no string. Bounded: limit × window alone allows 144,000 keys of up to
   * ~170 kB. Only the spec's list (by confidence, no edge filter) is kept: the epoch follows the confidence ranking.
   */
  const topLists = new ExpiringReplies<number>()
  const top = defineRoute({
    method: 'get',
    path: '/api/v2/spreads/top',
    operationId: 'topSpreads',
    summary: 'Top cross-venue gaps by confidence',
    description:
      `Ordered by confidence, highest first. Only pairs whose older quote is within \`window\` hours are ranked. \`limit\` is at most ${TOP_MAX_LIMIT}. ` +
      "Only fresh spreads are ranked: a spread whose venue feed is down, or whose older quote is past the scanner's default stale cutoff (45 minutes), leaves the list and the next one moves up (a stale quote's confidence is not a tradable gap now), so `is_stale` is always false here; `/api/v2/spreads` still lists stale spreads, marked. " +
      'Addition: `sort=net_edge` or `sort=spread` rank by those instead, and `executable_only` / `min_net_edge` keep only rows whose executable edge qualifies (e.g. `?sort=net_edge&executable_only=true`: the best trades now). 503 `not_ready` until the first matched pairs are priced.',
    tags: ['spreads'],
    query: TOP_QUERY,
    responses: {
      200: { description: 'Gaps ordered by confidence (or by `sort`).', schema: schemas.list },
      422: VALIDATION_RESPONSE,
      503: NOT_READY_RESPONSE,
    },
    handler: ({ query: q }) => {
      notReady(deps.engine)
      const now = deps.clock.now()
      const windowMs = q.window * 3_600_000
      const edge = edgeFilter(q)
      if (q.sort !== 'confidence' || edge.executableOnly || edge.minNetEdge !== undefined) {
        // Built per request: O(limit) plus skipped records on an index walk (spread-query.ts); each record's JSON
        // is cached per version (spread-json.ts).
        const list = topSpreads(deps.engine, q, now, freshAt(now))
        return {
          status: 200,
          body: body(
            list,
            list.map(() => false),
          ),
        }
      }
      // The bytes of this list stay valid until a change reaches its floor (engine.topEpoch) or time moves a
      // listed record out of the window or across the stale cutoff (validUntil): most requests end here.
      const slot = q.limit * 1_000 + q.window
      const epoch = deps.engine.topEpoch
      const cached = topLists.get(slot, now, epoch)
      if (cached !== undefined) {
        deps.pages.countHit()
        return { status: 200, body: cached }
      }
      // Every listed record is fresh: the list changes when one turns stale by age (or leaves the window first).
      const list = topSpreads(deps.engine, q, now, freshAt(now))
      const stale = list.map(() => false)
      let validUntil = Number.POSITIVE_INFINITY
      for (const r of list)
        validUntil = Math.min(validUntil, r.olderQuoteAt + Math.min(windowMs, TOP_STALE_CUTOFF_MS) + 1)
      deps.engine.noteTopFloor(list.length < q.limit ? 0 : (list[list.length - 1] as SpreadRecord).confidence)
      // Records are rewritten in place: the page is valid for the same records at the same versions and staleness.
      const versions = list.map((r, i) => r.version * 2 + (stale[i] ? 1 : 0))
      const bytes = deps.pages.page(`spreads/top?${q.limit}:${q.window}`, deps.engine, list, versions, () =>
        body(list, stale),
      )
      topLists.set(slot, bytes, validUntil, now, epoch)
      return { status: 200, body: bytes }
    },
  })

  return [scan, top]
}
