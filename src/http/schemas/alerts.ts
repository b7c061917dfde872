import { Type } from '@sinclair/typebox'
import { CHANNELS, RULE_STATES, TRIGGER_TYPES } from '../../alerts/rule-types.js'
import { StringEnum } from './common.js'

/**
 * Alert-rule bodies (spec 4.5 `POST /api/v2/alerts`; what the spec leaves open is ours and published in OpenAPI).
 * Unknown fields, unknown scope keys, unknown trigger types and channels are 422, and so is a `target` that does
 * not fit its channel (an e-mail address for `email`, an http(s) URL for `webhook`). The spec's body has no
 * `target`, so it is optional for `email` (the route fills in the account's address) and required for `webhook`
 * (there is no URL to default to). Where a webhook URL may lead is checked by the route (it needs DNS).
 */
export const USER_ID_MAX = 128
export const TARGET_MAX = 2_048
export const COOLDOWN_MIN_SECONDS = 60
export const COOLDOWN_MAX_SECONDS = 7 * 86_400

const Timestamp = (description: string) =>
  Type.String({ description: `${description} ISO 8601, UTC, without zone suffix.` })

export const UserIdHeaders = Type.Object({
  'x-user-id': Type.String({
    minLength: 1,
    maxLength: USER_ID_MAX,
    pattern: '^[A-Za-z0-9][A-Za-z0-9._:@+-]*$',
    description:
      `Required. Your identifier of the end user owning the rules: 1–${USER_ID_MAX} characters, ` +
      'letters, digits and `. _ : @ + -`, starting with a letter or digit.',
  }),
})

export const TriggerTypeSchema = StringEnum(TRIGGER_TYPES, {
  description:
    'When a rule fires for a matched pair in its scope (T = threshold, h = hysteresis band: 0.005 by default, at most T/2). ' +
    '`spread_threshold`: the spread reaches ≥ T; it fires again only after the spread has been below T − h (so a gap flickering around T fires once). ' +
    '`spread_expansion`: the spread grew by ≥ T from its baseline, the lowest spread since the last firing (or since evaluation started); ' +
    'the spread that fired becomes the new baseline. ' +
    '`spread_collapse`: the spread fell below T − h after being ≥ T. ' +
    '`new_pair`: a pair first matched after the rule was created (and within 24 hours of that) reaches ≥ T; once per pair. ' +
    'Only live records count: a pair whose venue feed is stale, or that has no price on one venue, neither fires nor re-arms a rule.',
})

/** `if channel is <channel> then target must match <target>` (and be present when `required`), for the body's allOf. */
function targetFor(channel: string, target: object, required: boolean): object {
  const then = required
    ? { type: 'object', properties: { target }, required: ['target'] }
    : { type: 'object', properties: { target } }
  return { if: { type: 'object', properties: { channel: { const: channel } }, required: ['channel'] }, then }
}

const EmailTarget = { type: 'string', format: 'email', maxLength: 254 }
const WebhookTarget = { type: 'string', format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^/?#\\s]+' }

export const UpdateAlertBody = Type.Object(
  { status: StringEnum(RULE_STATES, { description: '`paused` stops evaluation; `active` resumes it.' }) },
  { additionalProperties: false },
)

export const AlertIdParams = Type.Object({ id: Type.String({ format: 'uuid', description: 'Rule id.' }) })

/** Whether the deployment can deliver on the rule's channel now (alerts/channel-readiness.ts). */
export const DeliveryStatusSchema = Type.Object(
  {
    ready: Type.Boolean({
      description:
        "`false` when this deployment cannot deliver on the rule's channel yet; the rule is stored and evaluated all the same.",
    }),
    reason: Type.Optional(
      StringEnum(['smtp_not_configured'], {
        description:
          'Only when not ready. `smtp_not_configured`: an e-mail rule on a deployment without an SMTP server; its deliveries fail until the operator configures one.',
      }),
    ),
    message: Type.Optional(Type.String({ description: 'Only when not ready: the reason in words.' })),
  },
  {
    additionalProperties: false,
    description:
      'Addition: whether deliveries of this rule can succeed on this deployment now. `{"ready":true}`, or `{"ready":false,"reason","message"}` ' +
      'for an e-mail rule while no SMTP server is configured (201 all the same: the rule waits for the operator). A webhook rule is ready: ' +
      'its target passed the address check (a refused one is 422), and whether the receiver answers shows in the delivery log.',
  },
)

export const DeletedAlertBody = Type.Object(
  { id: Type.String({ format: 'uuid' }), deleted: Type.Literal(true) },
  { additionalProperties: false },
)

/**
 * The bodies that carry a rule's scope, whose `platforms` are venue ids: built for the registered venues (registry
 * order) where the alert routes are created.
 */
export function alertSchemas(venueIds: readonly string[]) {
  const ScopeSchema = Type.Object(
    {
      event_slug: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only this service event.' })),
      outcome_key: Type.Optional(
        Type.String({ minLength: 1, maxLength: 200, description: 'Only this outcome (as in spread records).' }),
      ),
      platforms: Type.Optional(
        Type.Array(StringEnum(venueIds), {
          minItems: 1,
          maxItems: venueIds.length,
          uniqueItems: true,
          description: 'Only pairs whose two platforms are both listed (as the `platforms` filter of /spreads).',
        }),
      ),
      min_volume: Type.Optional(
        Type.Number({
          minimum: 0,
          description: 'Only pairs whose thinner venue has at least this volume in dollars (`volume_min`).',
        }),
      ),
      min_confidence: Type.Optional(
        Type.Number({ minimum: 0, maximum: 1, description: 'Only spreads whose `confidence` is at least this.' }),
      ),
    },
    {
      additionalProperties: false,
      description: 'Which spreads the rule watches; every key is optional, `{}` watches all. No other keys.',
    },
  )

  const CreateAlertBody = Type.Object(
    {
      trigger_type: TriggerTypeSchema,
      threshold: Type.Number({
        exclusiveMinimum: 0,
        maximum: 1,
        description: 'Probability-point difference, in (0, 1]: 0.05 is 5 points.',
      }),
      channel: StringEnum(CHANNELS, { description: 'Delivery channel.' }),
      target: Type.Optional(
        Type.String({
          minLength: 3,
          maxLength: TARGET_MAX,
          description:
            'Where to deliver. `email`: an e-mail address; optional: without it the rule mails the address of the developer account that owns ' +
            'the API key (resolved when the rule is created, stored in the rule and echoed as `target`; with AUTH_REQUIRED=false there is no ' +
            'account, so it is required: 422). `webhook`: required, an http(s) URL whose host is a public address: a host that is, or ' +
            'resolves to, a loopback, private, link-local, shared (100.64/10), unique-local, unspecified, multicast, broadcast, reserved or ' +
            'cloud-metadata address is 422 (unless the operator allows it), and the host is checked again before every delivery.',
        }),
      ),
      scope: Type.Optional(ScopeSchema),
      cooldown_seconds: Type.Optional(
        Type.Integer({
          minimum: COOLDOWN_MIN_SECONDS,
          maximum: COOLDOWN_MAX_SECONDS,
          description:
            `Least time between two firings of this rule (any pairs), ${COOLDOWN_MIN_SECONDS} s to 7 days; default 300. ` +
            'A crossing inside the cooldown is held back, not dropped: it fires at the first change after the cooldown if it still holds.',
        }),
      ),
    },
    {
      additionalProperties: false,
      // The target must fit the channel (reported at ["body","target"]).
      allOf: [targetFor('email', EmailTarget, false), targetFor('webhook', WebhookTarget, true)],
    },
  )

  const AlertRuleSchema = Type.Object(
    {
      id: Type.String({ format: 'uuid' }),
      user_id: Type.String(),
      trigger_type: TriggerTypeSchema,
      threshold: Type.Number(),
      channel: StringEnum(CHANNELS),
      target: Type.String({
        description: "The e-mail address (for a rule created without `target`: the account's address) or webhook URL.",
      }),
      scope: ScopeSchema,
      cooldown_seconds: Type.Integer(),
      status: StringEnum(RULE_STATES, { description: '`active` on creation.' }),
      created_at: Timestamp('Creation time.'),
      updated_at: Timestamp('Last change.'),
    },
    { additionalProperties: false },
  )

  /**
   * The create response: the rule, whether it can be delivered now, plus the webhook signing secret of a webhook rule
   * (shown only here).
   */
  const CreatedAlertRuleSchema = Type.Object(
    {
      ...AlertRuleSchema.properties,
      delivery_status: DeliveryStatusSchema,
      signing_secret: Type.Optional(
        Type.String({
          description:
            'Webhook rules only, returned only by this response (rotate with POST /api/v2/alerts/{id}/signing-secret): the key of the ' +
            '`X-Alert-Signature: sha256=<hex>` header, an HMAC-SHA256 of `<X-Alert-Timestamp>.<raw body>`.',
        }),
      ),
    },
    { additionalProperties: false },
  )

  const AlertListBody = Type.Object(
    { alerts: Type.Array(AlertRuleSchema), total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() },
    { additionalProperties: false },
  )

  return { ScopeSchema, CreateAlertBody, AlertRuleSchema, CreatedAlertRuleSchema, AlertListBody }
}
