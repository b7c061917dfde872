import { Type } from '@sinclair/typebox'
import { spreadSummary } from '../../alerts/delivery-payload.js'
import { AppError } from '../../core/errors.js'
import { isoNoZone } from '../../core/time.js'
import type { Delivery, DeliveryStatus } from '../../store/alert-deliveries-repo.js'
import type { AlertRule, RuleOwner } from '../../alerts/rule-types.js'
import type { AlertRuleRepository } from '../../store/alert-rules-repo.js'
import { json, type Reply } from '../reply.js'
import { defineRoute, type AnyRoute } from '../route.js'
import { DELIVERY_STATUSES, DeliveryListBody, DeliverySchema, SigningSecretBody } from '../schemas/alert-deliveries.js'
import { AlertIdParams, UserIdHeaders } from '../schemas/alerts.js'
import { ErrorBody, Limit, Offset, StringEnum } from '../schemas/common.js'
import type { RequestContext } from '../server.js'
import { NOT_FOUND_RESPONSE, pageReply, VALIDATION_RESPONSE } from './support.js'

/**
 * What happened to a rule's alerts: its delivery log, a test delivery on demand, and rotation of the webhook
 * signing secret. Same owner rules as routes/alerts.ts: the key's account and `X-User-Id`; another owner's rule
 * (or a deleted one) is a 404.
 */
export interface AlertDeliveryRouteDeps {
  readonly rules: AlertRuleRepository
  readonly deliveries: {
    listForRule(
      ruleId: string,
      page: { status?: DeliveryStatus; limit: number; offset: number },
    ): Promise<{ deliveries: Delivery[]; total: number }>
  }
  /** Queues a test delivery through the outbox (AlertService.sendTest). */
  readonly sendTest: (rule: AlertRule) => Promise<Delivery>
}

const TAGS = ['alerts']

export function alertDeliveryRoutes(deps: AlertDeliveryRouteDeps): AnyRoute[] {
  const ownedRule = async (headers: { 'x-user-id': string }, ctx: RequestContext, id: string): Promise<AlertRule> => {
    const owner: RuleOwner = { accountId: ctx.caller?.accountId ?? null, userId: headers['x-user-id'] }
    const rule = await deps.rules.get(owner, id)
    if (rule === undefined) throw new AppError(404, 'not_found', 'No such alert rule for this user.')
    return rule
  }
  return [
    defineRoute({
      method: 'get',
      path: '/api/v2/alerts/:id/deliveries',
      operationId: 'listAlertDeliveries',
      summary: 'Delivery log of an alert rule',
      description:
        'Every firing and test delivery of the rule, newest first, with its status and attempts. Webhook deliveries are retried with exponential ' +
        'backoff (by default 8 attempts over about an hour) and then marked `failed`; e-mail deliveries fail at once with `smtp_not_configured` when ' +
        'the service has no SMTP server. Delivery is at least once: deduplicate on the delivery `id`.',
      tags: TAGS,
      headers: UserIdHeaders,
      params: AlertIdParams,
      query: Type.Object({
        status: StringEnum([...DELIVERY_STATUSES, 'all'], {
          default: 'all',
          description: 'Delivery status to include.',
        }),
        limit: Limit(25, 100),
        offset: Offset(),
      }),
      responses: {
        200: { description: 'A page of deliveries.', schema: DeliveryListBody },
        404: NOT_FOUND_RESPONSE,
        422: VALIDATION_RESPONSE,
      },
      handler: async ({ headers, params, query }, ctx): Promise<Reply> => {
        const rule = await ownedRule(headers, ctx, params.id)
        const status = query.status === 'all' ? undefined : query.status
        const page = await deps.deliveries.listForRule(rule.id, {
          ...(status === undefined ? {} : { status }),
          limit: query.limit,
          offset: query.offset,
        })
        return pageReply('deliveries', query, { items: page.deliveries.map(deliveryJson), total: page.total })
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v2/alerts/:id/test',
      operationId: 'testAlert',
      summary: 'Send a test delivery',
      description:
        'Queues a delivery with `event: "alert.test"` and `test: true` through the same outbox, worker, signature and retries as a firing, ' +
        "with a current spread in the rule's scope when there is one. Paused rules can be tested too. Answers at once (202); follow it in the delivery log.",
      tags: TAGS,
      headers: UserIdHeaders,
      params: AlertIdParams,
      responses: {
        202: { description: 'Queued.', schema: DeliverySchema },
        404: NOT_FOUND_RESPONSE,
        422: VALIDATION_RESPONSE,
      },
      handler: async ({ headers, params }, ctx): Promise<Reply> =>
        json(202, deliveryJson(await deps.sendTest(await ownedRule(headers, ctx, params.id)))),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v2/alerts/:id/signing-secret',
      operationId: 'rotateAlertSigningSecret',
      summary: 'Rotate the webhook signing secret',
      description:
        "Replaces a webhook rule's signing secret and returns the new one (shown only here). The old secret stops at once: deliveries still queued " +
        'are signed when they are sent. 409 for an e-mail rule, which has none.',
      tags: TAGS,
      headers: UserIdHeaders,
      params: AlertIdParams,
      responses: {
        200: { description: 'The new secret.', schema: SigningSecretBody },
        404: NOT_FOUND_RESPONSE,
        409: { description: 'Not a webhook rule (`conflict`).', schema: ErrorBody },
        422: VALIDATION_RESPONSE,
      },
      handler: async ({ headers, params }, ctx): Promise<Reply> => {
        const owner: RuleOwner = { accountId: ctx.caller?.accountId ?? null, userId: headers['x-user-id'] }
        const out = await deps.rules.rotateSigningSecret(owner, params.id)
        if (out.kind === 'not_found') throw new AppError(404, 'not_found', 'No such alert rule for this user.')
        if (out.kind === 'not_webhook') throw new AppError(409, 'conflict', 'Only webhook rules have a signing secret.')
        return json(200, { id: params.id, signing_secret: out.signingSecret })
      },
    }),
  ]
}

export function deliveryJson(d: Delivery): Record<string, unknown> {
  return {
    id: d.id,
    rule_id: d.ruleId,
    event: d.test ? 'alert.test' : 'alert.fired',
    test: d.test,
    status: d.status,
    channel: d.channel,
    target: d.target,
    attempts: d.attempts,
    dedupe_key: d.dedupeKey,
    created_at: isoNoZone(d.createdAt),
    next_attempt_at: d.status === 'pending' ? isoNoZone(d.nextAttemptAt) : null,
    delivered_at: d.deliveredAt === null ? null : isoNoZone(d.deliveredAt),
    last_error: d.lastError,
    response_status: d.responseStatus,
    spread: spreadSummary(d.payload),
  }
}
