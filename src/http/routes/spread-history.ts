import { Type } from '@sinclair/typebox'
import type { SpreadHistoryConfig } from '../../config/schema.js'
import type { Clock } from '../../core/clock.js'
import { AppError, retryAfter } from '../../core/errors.js'
import type { Logger } from '../../core/logger.js'
import { isoNoZone } from '../../core/time.js'
import { bucketQuery, HISTORY_RANGES, RANGE_PLANS } from '../../spreads/history/history-ranges.js'
import type { BucketQuery, HistoryBucket } from '../../store/spread-history-repo.js'
import { CACHING } from '../caching.js'
import { json, type Reply } from '../reply.js'
import { defineRoute, type AnyRoute } from '../route.js'
import { ErrorBody, StringEnum } from '../schemas/common.js'
import { NOT_FOUND_RESPONSE, notFound, VALIDATION_RESPONSE } from './support.js'

/**
 * GET /api/v2/spreads/history (spec 4.3, point 2.8): the sampled spread of one matched outcome over a range, one
 * point per bucket (the bucket's last sample), oldest first. Read from the store (the one spread read that is not
 * served from memory), so a store that cannot answer is a 503, never a 500 with its message.
 *
 * Unknown pairs: 404 `not_found` when the service neither matches the pair now nor ever sampled it (a mistyped
 * slug or key gets an error, not a chart that is silently empty); a pair it knows with no point in the range is 200
 * with empty `data` (a new pair, or one without a price lately) — the same answer a client charting a row from
 * /spreads expects.
 */
export interface HistoryReader {
  buckets(eventSlug: string, outcomeKey: string, q: BucketQuery): Promise<HistoryBucket[]>
  hasHistory(eventSlug: string, outcomeKey: string): Promise<boolean>
}

export interface SpreadHistoryRouteDeps {
  readonly history: HistoryReader
  /** Whether the spread engine matches this pair now. */
  readonly isMatched: (eventSlug: string, outcomeKey: string) => boolean
  readonly clock: Clock
  readonly log: Logger
  /** The sampling settings, so the published description states this deployment's values. */
  readonly sampling: Pick<
    SpreadHistoryConfig,
    'minChangeBps' | 'minIntervalMs' | 'heartbeatMs' | 'flushMs' | 'retentionDays'
  >
}

export const SpreadHistoryPointSchema = Type.Object(
  {
    timestamp: Type.String({
      description: "Start of the bucket (ISO 8601, UTC, no zone suffix); the values are the bucket's last sample.",
    }),
    spread_bps: Type.Number({ description: '(price_b − price_a) × 10,000.' }),
    price_a: Type.Number({ description: 'The lower price (on platform_a at that time), 0 to 1.' }),
    price_b: Type.Number({ description: 'The higher price, 0 to 1.' }),
  },
  { additionalProperties: false },
)

export const SpreadHistoryBody = Type.Object(
  {
    event_slug: Type.String(),
    outcome_key: Type.String(),
    range: StringEnum(HISTORY_RANGES),
    bucket_seconds: Type.Integer({ description: 'Addition: width of each bucket in seconds.' }),
    data: Type.Array(SpreadHistoryPointSchema, {
      description: 'One point per bucket that has a sample, oldest first.',
    }),
  },
  { additionalProperties: false },
)

export function spreadHistoryRoutes(deps: SpreadHistoryRouteDeps): AnyRoute[] {
  const history = defineRoute({
    method: 'get',
    path: '/api/v2/spreads/history',
    operationId: 'getSpreadHistory',
    summary: 'Spread history of one outcome',
    description: describe(deps.sampling),
    tags: ['spreads'],
    caching: CACHING.history,
    query: Type.Object({
      event_slug: Type.String({ minLength: 1, maxLength: 300, description: 'Event slug (required).' }),
      outcome_key: Type.String({
        minLength: 1,
        maxLength: 300,
        description: 'Outcome key taken from a spread response (required), e.g. `text:<outcome name lowercased>`.',
      }),
      range: StringEnum(HISTORY_RANGES, { default: '1w', description: 'How far back.' }),
    }),
    responses: {
      200: { description: 'The series, oldest first.', schema: SpreadHistoryBody },
      404: NOT_FOUND_RESPONSE,
      422: VALIDATION_RESPONSE,
      503: {
        description:
          'The history store cannot be read right now (`history_unavailable`), or API keys cannot be checked (`auth_unavailable`).',
        schema: ErrorBody,
        headers: { 'Retry-After': 'Seconds.' },
      },
    },
    handler: async ({ query: q }): Promise<Reply> => {
      let rows: HistoryBucket[]
      try {
        if (
          !deps.isMatched(q.event_slug, q.outcome_key) &&
          !(await deps.history.hasHistory(q.event_slug, q.outcome_key))
        ) {
          throw notFound(`no spread history for event_slug ${q.event_slug} and outcome_key ${q.outcome_key}`)
        }
        rows = await deps.history.buckets(q.event_slug, q.outcome_key, bucketQuery(q.range, deps.clock.now()))
      } catch (err) {
        if (err instanceof AppError) throw err
        deps.log.warn({ err }, 'spread history read failed')
        throw new AppError(503, 'history_unavailable', 'Spread history cannot be read right now; retry shortly.', {
          cause: err,
          headers: retryAfter(1),
        })
      }
      return json(200, {
        event_slug: q.event_slug,
        outcome_key: q.outcome_key,
        range: q.range,
        bucket_seconds: RANGE_PLANS[q.range].bucketMs / 1000,
        data: rows.map((r) => ({
          timestamp: isoNoZone(r.bucketStart),
          spread_bps: r.spreadBps,
          price_a: r.priceA,
          price_b: r.priceB,
        })),
      })
    },
  })
  return [history]
}

/** The route description, with this deployment's sampling values. */
function describe(c: SpreadHistoryRouteDeps['sampling']): string {
  const buckets = HISTORY_RANGES.map((r) => `\`${r}\` ${duration(RANGE_PLANS[r].bucketMs)}`).join(', ')
  return [
    `The spread of one matched outcome over \`range\`, as sampled by the service: a sample when spread_bps moves by at least ${c.minChangeBps}, when the cheaper venue changes, or after ${duration(c.heartbeatMs)} on any smaller move; at most one sample per ${duration(c.minIntervalMs)} per outcome, and a change held back by that limit is recorded when it ends (its newest value), so the limit never hides where the spread went.`,
    `Buckets (${buckets}) are aligned on UTC. Each point is its bucket's last sample, stamped with the bucket's start (like candles); buckets without a sample are absent.`,
    `The window starts at the bucket holding now minus the range (\`1d\` 24 hours, \`1w\` 7 days, \`1m\` 30 days); \`all\` is every day since the first sample, from daily closes kept forever (finer samples are kept ${c.retentionDays} days).`,
    `A sample is readable here about ${duration(c.flushMs)} after it is taken.`,
    '404 when the outcome is neither matched now nor was ever sampled; a known outcome without samples in the range gets empty `data`.',
  ].join(' ')
}

function duration(ms: number): string {
  const units: readonly [number, string][] = [
    [86_400_000, 'day'],
    [3_600_000, 'hour'],
    [60_000, 'minute'],
    [1_000, 'second'],
  ]
  for (const [size, name] of units) if (ms % size === 0) return ms === size ? `1 ${name}` : `${ms / size} ${name}s`
  return `${ms} ms`
}
