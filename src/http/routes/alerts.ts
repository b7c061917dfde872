import { Type } from '@sinclair/typebox'
import type { Clock } from '../../core/clock.js'
import { AppError, retryAfter } from '../../core/errors.js'
import { isoNoZone } from '../../core/time.js'
import type { WebhookTargets } from '../../alerts/webhook-target.js'
import type { ChannelReadiness } from '../../alerts/channel-readiness.js'
import type { AlertRule, AlertScope, Channel, RuleOwner } from '../../alerts/rule-types.js'
import type { AlertRuleRepository } from '../../store/alert-rules-repo.js'
import { json, type Reply } from '../reply.js'
import { defineRoute, type AnyRoute } from '../route.js'
import { ErrorBody, Limit, Offset, StringEnum } from '../schemas/common.js'
import { AlertIdParams, alertSchemas, DeletedAlertBody, UpdateAlertBody, UserIdHeaders } from '../schemas/alerts.js'
import type { RequestContext } from '../server.js'
import { invalid } from '../validation-errors.js'
import { NOT_FOUND_RESPONSE, pageReply, VALIDATION_RESPONSE } from './support.js'

/**
 * Alert rules of a user (spec 4.5 `POST /api/v2/alerts`, plus list, read, pause/resume and delete).
 *
 * The user is `X-User-Id`, as the spec says. With auth on (the default) the routes also need `X-API-Key`, and a
 * rule belongs to the key's account *and* the user id: `X-User-Id` is the developer's name for one of their
 * users, not a credential, so without the key anyone could read or delete anyone's rules, or make the service
 * send mail and webhooks on their behalf. With AUTH_REQUIRED=false the user id alone scopes the rules (local use).
 * Another owner's rule is a 404, never a 403: its existence is not disclosed.
 *
 * An e-mail rule created without `target` (the spec's body has none) mails the account that owns the key. The
 * address is resolved here, at creation, stored in the rule and echoed in the response, so the user sees where
 * alerts will go and the delivery path never has to look an account up (an account's address never changes:
 * signing up again with it updates only company and use case).
 *
 * An e-mail rule is accepted even when no SMTP server is configured (the operator may add one; the rule is evaluated
 * meanwhile), and the create answer says so in `delivery_status` (alerts/channel-readiness.ts).
 *
 * A webhook URL must lead to a public address (alerts/webhook-target.ts; the operator can allow others): its
 * host is resolved here and every address checked, so a URL into our own network is a 422 at creation rather
 * than a delivery that fails later. The check is repeated before every delivery, since DNS can change.
 *
 * Evaluation and delivery are src/alerts/ (they read rules through AlertRuleRepository); the delivery log, test
 * deliveries and signing-secret rotation are routes/alert-deliveries.ts.
 */
export interface AlertRouteDeps {
  /** The registered venues' ids, in registry order: the values of a scope's `platforms`. */
  readonly venues: readonly string[]
  readonly rules: AlertRuleRepository
  readonly clock: Clock
  readonly maxRulesPerUser: number
  readonly defaultCooldownSeconds: number
  /** The e-mail address of a developer account (the default `target` of its e-mail rules); undefined if it is gone. */
  readonly accountEmail: (accountId: string) => Promise<string | undefined>
  /** Where webhooks may go (policy and resolver), the same check the delivery worker makes. */
  readonly webhookTargets: WebhookTargets
  /** Whether this deployment can deliver on a channel now (e-mail needs an SMTP server), for `delivery_status`. */
  readonly channelReadiness: (channel: Channel) => ChannelReadiness
}

const TAGS = ['alerts']

export function alertRoutes(deps: AlertRouteDeps): AnyRoute[] {
  const { AlertListBody, AlertRuleSchema, CreateAlertBody, CreatedAlertRuleSchema } = alertSchemas(deps.venues)
  const RULE_RESPONSE = { description: 'The rule.', schema: AlertRuleSchema }
  const { rules, clock } = deps
  const owner = (headers: { 'x-user-id': string }, ctx: RequestContext): RuleOwner => ({
    accountId: ctx.caller?.accountId ?? null,
    userId: headers['x-user-id'],
  })
  /** The address of the key's account; undefined without a key (AUTH_REQUIRED=false). */
  const accountAddress = async (ctx: RequestContext): Promise<string | undefined> => {
    if (ctx.caller === undefined) return undefined
    const email = await deps.accountEmail(ctx.caller.accountId)
    if (email === undefined) throw new AppError(401, 'unauthorized', 'The account of this key no longer exists.')
    return email
  }
  const found = (rule: AlertRule | undefined): AlertRule => {
    if (rule === undefined) throw new AppError(404, 'not_found', 'No such alert rule for this user.')
    return rule
  }
  return [
    defineRoute({
      method: 'post',
      path: '/api/v2/alerts',
      operationId: 'createAlert',
      summary: 'Create an alert rule',
      description:
        'Stores an active rule that turns spread signals into deliveries (`channel` with its `target`; an e-mail rule without `target` ' +
        'mails the address of the account that owns the API key). `scope` narrows which spreads it watches ' +
        "(`{}` or absent: all). Anything invalid is 422 and nothing is stored. A webhook rule's response carries its `signing_secret`, shown only " +
        'here: every webhook POST is signed with it (`X-Alert-Timestamp`, `X-Alert-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>">`).',
      tags: TAGS,
      headers: UserIdHeaders,
      body: CreateAlertBody,
      responses: {
        201: {
          description:
            'Rule created (`status: "active"`), with `delivery_status` (whether this deployment can deliver it now: an e-mail rule without a ' +
            'configured SMTP server is stored but not delivered) and `signing_secret` for a webhook rule.',
          schema: CreatedAlertRuleSchema,
        },
        409: { description: 'The user already has the maximum number of rules (`conflict`).', schema: ErrorBody },
        422: {
          ...VALIDATION_RESPONSE,
          description:
            'Invalid parameters (one entry per problem), including a webhook `target` whose host is, or resolves to, a non-public address, ' +
            'or does not resolve at all (`value_error` at `["body","target"]`).',
        },
        503: {
          description:
            'The webhook host could not be looked up right now (`dns_unavailable`, with `Retry-After`), or API keys cannot be checked (`auth_unavailable`).',
          schema: ErrorBody,
          headers: { 'Retry-After': 'Seconds.' },
        },
      },
      handler: async ({ headers, body }, ctx): Promise<Reply> => {
        // The schema requires `target` for webhooks; only an e-mail rule arrives without one.
        const target = body.target ?? (await accountAddress(ctx))
        if (target === undefined) throw noAccountAddress()
        if (body.channel === 'webhook') await checkWebhookTarget(deps.webhookTargets, target)
        const input = {
          triggerType: body.trigger_type,
          threshold: body.threshold,
          channel: body.channel,
          target,
          scope: (body.scope ?? {}) as AlertScope,
          cooldownSeconds: body.cooldown_seconds ?? deps.defaultCooldownSeconds,
        }
        const out = await rules.create(owner(headers, ctx), input, clock.now(), deps.maxRulesPerUser)
        if (out.kind === 'limit')
          throw new AppError(409, 'conflict', `This user already has ${out.max} alert rules; delete one first.`)
        const created = { ...ruleJson(out.rule), delivery_status: deps.channelReadiness(out.rule.channel) }
        return json(201, out.signingSecret === null ? created : { ...created, signing_secret: out.signingSecret })
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v2/alerts',
      operationId: 'listAlerts',
      summary: "List a user's alert rules",
      description: 'Newest first.',
      tags: TAGS,
      headers: UserIdHeaders,
      query: Type.Object({
        status: StringEnum(['active', 'paused', 'all'], { default: 'all', description: 'Rule status to include.' }),
        limit: Limit(25, 100),
        offset: Offset(),
      }),
      responses: { 200: { description: 'A page of rules.', schema: AlertListBody }, 422: VALIDATION_RESPONSE },
      handler: async ({ headers, query }, ctx): Promise<Reply> => {
        const status = query.status === 'all' ? undefined : query.status
        const page = await rules.list(owner(headers, ctx), {
          ...(status === undefined ? {} : { status }),
          limit: query.limit,
          offset: query.offset,
        })
        return pageReply('alerts', query, { items: page.rules.map(ruleJson), total: page.total })
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v2/alerts/:id',
      operationId: 'getAlert',
      summary: 'Read one alert rule',
      tags: TAGS,
      headers: UserIdHeaders,
      params: AlertIdParams,
      responses: { 200: RULE_RESPONSE, 404: NOT_FOUND_RESPONSE, 422: VALIDATION_RESPONSE },
      handler: async ({ headers, params }, ctx): Promise<Reply> =>
        json(200, ruleJson(found(await rules.get(owner(headers, ctx), params.id)))),
    }),
    defineRoute({
      method: 'patch',
      path: '/api/v2/alerts/:id',
      operationId: 'updateAlert',
      summary: 'Pause or resume an alert rule',
      description:
        '`{"status":"paused"}` stops evaluation, `{"status":"active"}` resumes it. Setting the current status again changes nothing.',
      tags: TAGS,
      headers: UserIdHeaders,
      params: AlertIdParams,
      body: UpdateAlertBody,
      responses: { 200: RULE_RESPONSE, 404: NOT_FOUND_RESPONSE, 422: VALIDATION_RESPONSE },
      handler: async ({ headers, params, body }, ctx): Promise<Reply> => {
        const rule = await rules.setStatus(owner(headers, ctx), params.id, body.status, clock.now())
        return json(200, ruleJson(found(rule)))
      },
    }),
    defineRoute({
      method: 'del',
      path: '/api/v2/alerts/:id',
      operationId: 'deleteAlert',
      summary: 'Delete an alert rule',
      tags: TAGS,
      headers: UserIdHeaders,
      params: AlertIdParams,
      responses: {
        200: { description: 'Deleted.', schema: DeletedAlertBody },
        404: NOT_FOUND_RESPONSE,
        422: VALIDATION_RESPONSE,
      },
      handler: async ({ headers, params }, ctx): Promise<Reply> => {
        const rule = found(await rules.delete(owner(headers, ctx), params.id, clock.now()))
        return json(200, { id: rule.id, deleted: true })
      },
    }),
  ]
}

/** Throws the error refusing a webhook target (422 not public, 503 lookup failed); returns when it may be used. */
async function checkWebhookTarget(targets: WebhookTargets, target: string): Promise<void> {
  const check = await targets.check(target)
  if (check.ok) return
  if (check.kind === 'dns_failed') {
    throw new AppError(
      503,
      'dns_unavailable',
      `The webhook host could not be checked: ${check.reason}; retry shortly.`,
      { headers: retryAfter(5) },
    )
  }
  throw invalid('value_error', ['body', 'target'], `Value error, ${check.reason}`, target, { error: check.reason })
}

/** With AUTH_REQUIRED=false a request has no account, so an e-mail rule has no address to default to. */
function noAccountAddress(): AppError {
  const msg =
    'Field required: without API keys (AUTH_REQUIRED=false) there is no account address to send e-mail alerts to; give `target`'
  return invalid('missing', ['body', 'target'], msg, null)
}

export function ruleJson(r: AlertRule): Record<string, unknown> {
  return {
    id: r.id,
    user_id: r.userId,
    trigger_type: r.triggerType,
    threshold: r.threshold,
    channel: r.channel,
    target: r.target,
    scope: r.scope,
    cooldown_seconds: r.cooldownSeconds,
    status: r.status,
    created_at: isoNoZone(r.createdAt),
    updated_at: isoNoZone(r.updatedAt),
  }
}
