import { Type } from '@sinclair/typebox'
import { StringEnum } from './common.js'
import { Nullable } from './records.js'

/**
 * Request and response bodies of the developer endpoints (spec 4.5; shapes the spec leaves open are ours and are
 * published in the OpenAPI document). Text limits are checked here, at the edge, and again by the database's
 * CHECK constraints.
 */
const Timestamp = (description: string) =>
  Type.String({ description: `${description} ISO 8601, UTC, without zone suffix.` })
/** At least one non-space character. */
const NOT_BLANK = '\\S'

export const EMAIL_MAX = 254
export const COMPANY_MAX = 200
export const USE_CASE_MAX = 2_000
export const KEY_NAME_MAX = 100

export const SignupBody = Type.Object(
  {
    email: Type.String({
      format: 'email',
      minLength: 3,
      maxLength: EMAIL_MAX,
      description: 'Required. Account e-mail address; one account per address, compared case-insensitively.',
    }),
    company: Type.String({
      minLength: 1,
      maxLength: COMPANY_MAX,
      pattern: NOT_BLANK,
      description: `Required, 1–${COMPANY_MAX} characters, not blank.`,
    }),
    use_case: Type.String({
      minLength: 1,
      maxLength: USE_CASE_MAX,
      pattern: NOT_BLANK,
      description: `Required, 1–${USE_CASE_MAX} characters.`,
    }),
  },
  { additionalProperties: false },
)

export const CreateKeyBody = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: KEY_NAME_MAX,
      pattern: NOT_BLANK,
      description: `Required label, 1–${KEY_NAME_MAX} characters.`,
    }),
  },
  { additionalProperties: false },
)

export const ApiKeySchema = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'Key id (for revocation).' }),
    name: Type.String(),
    key_prefix: Type.String({
      description: "The key's service prefix and first 4 secret characters, then an ellipsis: `pmk_live_a1b2…`.",
    }),
    status: StringEnum(['active', 'revoked']),
    created_at: Timestamp('Creation time.'),
    revoked_at: Nullable(Timestamp('Revocation time; null while active.')),
  },
  { additionalProperties: false },
)

const ApiKeyValue = Type.String({
  description: 'The full key. Returned only in this response: store it now; it cannot be shown again.',
})

export const SignupCreatedBody = Type.Object(
  {
    account_id: Type.String({ format: 'uuid' }),
    email: Type.String(),
    company: Type.String(),
    use_case: Type.String(),
    created_at: Timestamp('Account creation time.'),
    api_key: ApiKeyValue,
    key_returned_once: Type.Literal(true),
    key: ApiKeySchema,
  },
  { additionalProperties: false },
)

export const SignupUpdatedBody = Type.Object(
  {
    email: Type.String(),
    company: Type.String(),
    use_case: Type.String(),
    api_key: Type.Null({ description: 'No key for an existing account.' }),
    key_returned_once: Type.Literal(false),
    detail: Type.String(),
  },
  { additionalProperties: false },
)

export const CreateKeyResponse = Type.Object(
  { api_key: ApiKeyValue, key_returned_once: Type.Literal(true), key: ApiKeySchema },
  { additionalProperties: false },
)

export const KeyListBody = Type.Object(
  {
    keys: Type.Array(ApiKeySchema, { description: 'Every key of the account, oldest first, revoked ones included.' }),
    total: Type.Integer(),
    current_key_id: Type.String({ format: 'uuid', description: 'The key this request was made with.' }),
  },
  { additionalProperties: false },
)

export const RevokedKeyBody = Type.Object({ key: ApiKeySchema }, { additionalProperties: false })

const Windows = Type.Object(
  {
    current_minute: Type.Integer({ description: 'In the current clock minute (UTC).' }),
    last_hour: Type.Integer({ description: 'In the current minute and the 59 before it.' }),
    last_day: Type.Integer({ description: 'In the current minute and the 1,439 before it.' }),
  },
  { additionalProperties: false },
)

const Counts = Type.Object(
  { requests: Windows, rate_limited: { ...Windows, description: 'Requests refused with 429.' } },
  { additionalProperties: false },
)

export const UsageBody = Type.Object(
  {
    account_id: Type.String({ format: 'uuid' }),
    key: Type.Object(
      { id: Type.String({ format: 'uuid' }), name: Type.String(), key_prefix: Type.String() },
      { additionalProperties: false },
    ),
    rate_limit: Type.Object(
      {
        limit: Type.Integer({ description: 'Bucket size (`X-RateLimit-Limit`).' }),
        remaining: Type.Integer({ description: 'Requests left in the bucket now, on the replica that answered.' }),
        refill_per_second: Type.Number(),
        scope: Type.Literal('key_per_replica', { description: 'Each key has one bucket per service replica.' }),
      },
      { additionalProperties: false },
    ),
    usage: Type.Object(
      { key: Counts, account: { ...Counts, description: 'All keys of the account together.' } },
      {
        additionalProperties: false,
        description: 'Requests counted by every replica; the last seconds of other replicas may not be in yet.',
      },
    ),
    as_of: Timestamp('When the counts were taken.'),
  },
  { additionalProperties: false },
)
