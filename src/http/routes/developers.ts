import { Type } from '@sinclair/typebox'
import type { Caller } from '../../accounts/authenticator.js'
import type { DeveloperService } from '../../accounts/developer-service.js'
import { AppError } from '../../core/errors.js'
import { isoNoZone } from '../../core/time.js'
import type { ApiKeyRecord } from '../../store/api-keys-repo.js'
import { json, type Reply } from '../reply.js'
import { defineRoute, type AnyRoute } from '../route.js'
import { ErrorBody } from '../schemas/common.js'
import {
  CreateKeyBody,
  CreateKeyResponse,
  KeyListBody,
  RevokedKeyBody,
  SignupBody,
  SignupCreatedBody,
  SignupUpdatedBody,
  UsageBody,
} from '../schemas/developers.js'
import { NOT_FOUND_RESPONSE, VALIDATION_RESPONSE } from './support.js'

/**
 * Developer accounts and API keys (spec 4.5, part 5).
 *
 * - `POST /api/v2/developers/signup` (public): 201 with the account and its first key (`api_key`,
 *   `key_returned_once: true`) for a new e-mail address; 200 with `api_key: null`, `key_returned_once: false`
 *   for a known one, whose company and use case are updated.
 * - `POST|GET /api/v2/developers/api-keys`, `DELETE /api/v2/developers/api-keys/{id}`: the caller's account's
 *   keys, always behind `X-API-Key` (even with AUTH_REQUIRED=false: the key says which account).
 * - `GET /api/v2/developers/usage`: request counts, also keyed, but not counted against the rate limit.
 */
export interface DeveloperRouteDeps {
  readonly developers: DeveloperService
}

const TAGS = ['developers']
const EXISTING_ACCOUNT =
  'An account with this e-mail address exists: company and use case were updated. ' +
  'No key is returned; create more keys with POST /api/v2/developers/api-keys.'

/** The public signup, throttled per client address instead of per key (http/signup-guard.ts, wired in app.ts). */
export const SIGNUP_OPERATION = 'signup'

/** Operations that always need a key, whatever `auth.required` says (they act on the key's account). */
export const ACCOUNT_OPERATIONS: ReadonlySet<string> = new Set([
  'createApiKey',
  'listApiKeys',
  'revokeApiKey',
  'getDeveloperUsage',
])
/** Keyed operations that do not take a rate-limit token. */
export const UNMETERED_OPERATIONS: ReadonlySet<string> = new Set(['getDeveloperUsage'])

export function developerRoutes(deps: DeveloperRouteDeps): AnyRoute[] {
  const { developers } = deps
  return [
    defineRoute({
      method: 'post',
      path: '/api/v2/developers/signup',
      operationId: SIGNUP_OPERATION,
      summary: 'Create (or update) a developer account',
      description:
        'A new e-mail address (compared case-insensitively) creates the account and its first key, returned once as `api_key` (201). ' +
        'A known address updates company and use case and returns no key (200, `api_key: null`); ' +
        'more keys come from `POST /api/v2/developers/api-keys`. ' +
        'Limited per client address (IPv4 address or IPv6 /64): bursts of 10, then 5 per minute by default (`auth.signupRateLimit`); ' +
        'every attempt counts, invalid ones included.',
      tags: TAGS,
      public: true,
      body: SignupBody,
      responses: {
        200: { description: 'Existing account updated; no key returned.', schema: SignupUpdatedBody },
        201: { description: 'Account created; `api_key` is shown this once.', schema: SignupCreatedBody },
        422: VALIDATION_RESPONSE,
        429: {
          description:
            'Too many signups from this client address (`rate_limited`, with `retry_after_seconds`); `Retry-After` says when to retry.',
          schema: ErrorBody,
          headers: { 'Retry-After': 'Seconds until a signup from this address will be accepted.' },
        },
        503: {
          description:
            'The data store cannot be reached right now (`store_unavailable`); `Retry-After` says when to retry.',
          schema: ErrorBody,
          headers: { 'Retry-After': 'Seconds.' },
        },
      },
      handler: async ({ body }): Promise<Reply> => {
        const out = await developers.signup({ email: body.email, company: body.company, useCase: body.use_case })
        if (!out.created) {
          const a = out.account
          return json(200, {
            email: a.email,
            company: a.company,
            use_case: a.useCase,
            api_key: null,
            key_returned_once: false,
            detail: EXISTING_ACCOUNT,
          })
        }
        const a = out.account
        return json(201, {
          account_id: a.id,
          email: a.email,
          company: a.company,
          use_case: a.useCase,
          created_at: isoNoZone(a.createdAt),
          api_key: out.apiKey,
          key_returned_once: true,
          key: keyJson(out.key),
        })
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v2/developers/api-keys',
      operationId: 'createApiKey',
      summary: 'Create another API key for your account',
      description:
        'Authenticated with an existing key of the account. The new key is returned once as `api_key`; listings show only `key_prefix`.',
      tags: TAGS,
      body: CreateKeyBody,
      responses: {
        201: { description: 'Key created; `api_key` is shown this once.', schema: CreateKeyResponse },
        409: {
          description: 'The account already has the maximum number of active keys (`conflict`).',
          schema: ErrorBody,
        },
        422: VALIDATION_RESPONSE,
      },
      handler: async ({ body }, ctx): Promise<Reply> => {
        const out = await developers.createKey(callerOf(ctx), body.name)
        if (out.kind === 'limit')
          throw new AppError(409, 'conflict', `This account already has ${out.max} active keys; revoke one first.`)
        if (out.kind === 'no_account')
          throw new AppError(401, 'unauthorized', 'The account of this key no longer exists.')
        return json(201, { api_key: out.apiKey, key_returned_once: true, key: keyJson(out.key) })
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v2/developers/api-keys',
      operationId: 'listApiKeys',
      summary: "List your account's API keys",
      description:
        'Every key of the account, oldest first, shown by `key_prefix` only; revoked keys have `status: "revoked"`.',
      tags: TAGS,
      responses: { 200: { description: 'The keys.', schema: KeyListBody } },
      handler: async (_input, ctx): Promise<Reply> => {
        const caller = callerOf(ctx)
        const keys = await developers.listKeys(caller)
        return json(200, { keys: keys.map(keyJson), total: keys.length, current_key_id: caller.keyId })
      },
    }),
    defineRoute({
      method: 'del',
      path: '/api/v2/developers/api-keys/:id',
      operationId: 'revokeApiKey',
      summary: "Revoke one of your account's API keys",
      description:
        'Immediate on the replica that answers (the next request with the key is 401), ' +
        'within `auth.revocationPollMs` (1 s) on every other replica. ' +
        "Revoking a revoked key returns it unchanged. The account's last active key cannot be revoked (409): create another first.",
      tags: TAGS,
      params: Type.Object({ id: Type.String({ format: 'uuid', description: 'Key id (from the key listing).' }) }),
      responses: {
        200: { description: 'The key, now revoked.', schema: RevokedKeyBody },
        404: NOT_FOUND_RESPONSE,
        409: { description: "The account's last active key (`conflict`).", schema: ErrorBody },
        422: VALIDATION_RESPONSE,
      },
      handler: async ({ params }, ctx): Promise<Reply> => {
        const out = await developers.revokeKey(callerOf(ctx), params.id)
        if (out.kind === 'not_found') throw new AppError(404, 'not_found', 'No such key in this account.')
        if (out.kind === 'last_active_key') {
          throw new AppError(
            409,
            'conflict',
            "This is the account's last active key; create another key before revoking it.",
          )
        }
        return json(200, { key: keyJson(out.key) })
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v2/developers/usage',
      operationId: 'getDeveloperUsage',
      summary: 'Request counts and rate limit of your key',
      description:
        'Free: does not take a rate-limit token. Counts are per clock minute, from every replica; ' +
        'replicas write theirs every `auth.usage.flushMs` (10 s), ' +
        'so the most recent seconds of other replicas may be missing.',
      tags: TAGS,
      responses: { 200: { description: 'Usage of the key and its account.', schema: UsageBody } },
      handler: async (_input, ctx): Promise<Reply> => {
        const caller = callerOf(ctx)
        const r = await developers.usage(caller)
        if (r.key === undefined) throw new AppError(401, 'unauthorized', 'This API key no longer exists.')
        const limit = developers.rateLimit
        const counts = (c: typeof r.keyUsage) => ({
          requests: windows(c.requests),
          rate_limited: windows(c.rateLimited),
        })
        return json(200, {
          account_id: caller.accountId,
          key: { id: r.key.id, name: r.key.name, key_prefix: r.key.displayPrefix },
          rate_limit: {
            limit: limit.burst,
            remaining: r.remaining ?? limit.burst,
            refill_per_second: limit.perSecond,
            scope: 'key_per_replica',
          },
          usage: { key: counts(r.keyUsage), account: counts(r.accountUsage) },
          as_of: isoNoZone(r.asOf),
        })
      },
    }),
  ]
}

/** The guard sets the caller on every keyed route; its absence is a wiring bug, not a client error. */
function callerOf(ctx: { readonly caller?: Caller }): Caller {
  if (ctx.caller === undefined) throw new Error('developer route registered without the API key guard')
  return ctx.caller
}

function windows(w: { currentMinute: number; lastHour: number; lastDay: number }) {
  return { current_minute: w.currentMinute, last_hour: w.lastHour, last_day: w.lastDay }
}

export function keyJson(k: ApiKeyRecord): Record<string, unknown> {
  return {
    id: k.id,
    name: k.name,
    key_prefix: k.displayPrefix,
    status: k.revokedAt === null ? 'active' : 'revoked',
    created_at: isoNoZone(k.createdAt),
    revoked_at: k.revokedAt === null ? null : isoNoZone(k.revokedAt),
  }
}
