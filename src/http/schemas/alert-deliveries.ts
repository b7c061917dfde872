import { Type } from '@sinclair/typebox'
import { StringEnum } from './common.js'

/**
 * Delivery log entries and the webhook signing secret (alert delivery is ours to design: spec part 6 says
 * "delivery payload … not shown"). Timestamps are ISO 8601, UTC, without zone suffix.
 */
export const DELIVERY_STATUSES = ['pending', 'sending', 'delivered', 'failed'] as const

const Timestamp = (description: string) =>
  Type.String({ description: `${description} ISO 8601, UTC, without zone suffix.` })
const NullableTimestamp = (description: string) => Type.Union([Timestamp(description), Type.Null()])

export const SpreadSummarySchema = Type.Object(
  {
    event_slug: Type.String(),
    outcome_key: Type.String(),
    outcome_title: Type.String(),
    platform_a: Type.String({ description: 'The cheaper venue.' }),
    platform_b: Type.String(),
    price_a: Type.Number(),
    price_b: Type.Number(),
    spread: Type.Number(),
    spread_bps: Type.Number(),
    confidence: Type.Number(),
  },
  {
    additionalProperties: false,
    description: 'The spread the delivery reports (the full record is in the delivered payload).',
  },
)

export const DeliverySchema = Type.Object(
  {
    id: Type.String({
      format: 'uuid',
      description: 'Delivery id; webhooks carry it as `X-Alert-Delivery-Id`, the same on every retry.',
    }),
    rule_id: Type.String({ format: 'uuid' }),
    event: StringEnum(['alert.fired', 'alert.test'], {
      description: '`alert.fired` for a firing, `alert.test` for a test delivery.',
    }),
    test: Type.Boolean(),
    status: StringEnum(DELIVERY_STATUSES, {
      description:
        '`pending` (queued, or waiting for a retry at `next_attempt_at`), `sending` (a worker holds it), `delivered`, `failed` (attempts used up, or a failure no retry can fix).',
    }),
    channel: StringEnum(['email', 'webhook']),
    target: Type.String({ description: "Where it goes: the rule's address or URL at the time of the firing." }),
    attempts: Type.Integer({ minimum: 0, description: 'Attempts made so far.' }),
    dedupe_key: Type.String({
      description:
        '`<rule id>:<event_slug>|<outcome_key>:<episode>` for firings: one delivery per crossing, whichever replica records it.',
    }),
    created_at: Timestamp('When it fired (or the test was requested).'),
    next_attempt_at: NullableTimestamp('When a pending delivery is tried next; null otherwise.'),
    delivered_at: NullableTimestamp('When the receiver accepted it; null until then.'),
    last_error: Type.Union([Type.String(), Type.Null()], {
      description:
        'What went wrong on the last failed attempt, e.g. `HTTP 500: …`, `timeout: …`, `smtp_not_configured: …`.',
    }),
    response_status: Type.Union([Type.Integer(), Type.Null()], {
      description: 'HTTP status of the last webhook attempt that got a response.',
    }),
    spread: Type.Union([SpreadSummarySchema, Type.Null()], {
      description: 'Null only for a test delivery sent before any spread existed.',
    }),
  },
  { additionalProperties: false },
)

export const DeliveryListBody = Type.Object(
  { deliveries: Type.Array(DeliverySchema), total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() },
  { additionalProperties: false },
)

export const SigningSecretBody = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'Rule id.' }),
    signing_secret: Type.String({
      description: 'The new secret (shown only now): the HMAC-SHA256 key of `X-Alert-Signature`.',
    }),
  },
  { additionalProperties: false },
)
