import { Type, type SchemaOptions, type StringOptions, type TSchema, type TUnsafe } from '@sinclair/typebox'
import { MAX_JSON_DEPTH } from '../json-depth.js'
import { CATEGORY_SCOPES, CATEGORY_SLUGS } from '../../model/categories.js'
import type { CsvString } from '../route.js'
import { ECHO_DEPTH_MAX, ECHO_ENTRIES_MAX, ECHO_STRING_MAX } from '../validation-echo.js'

/**
 * Schema helpers and the parameters and bodies every endpoint shares (spec part 8, docs/DESIGN.md "API conventions").
 * They are plain JSON Schema underneath, so the same objects validate requests (validation.ts), type handlers
 * (route.ts) and describe the API (openapi.ts).
 *
 * Defaulted parameters are declared *without* `Type.Optional`: Ajv fills the default before `required` is
 * checked, so the handler sees `number`, not `number | undefined`, and the OpenAPI builder marks a parameter
 * required only when it is required and has no default.
 *
 * @example
 * const query = Type.Object({
 *   market_ticker: Type.Optional(Csv({ description: 'Outcome-level market tickers.' })),
 *   status: StatusFilter,
 *   limit: Limit(25, 100),
 *   offset: Offset(),
 * })
 */

/** The extension keyword marking a comma-separated list parameter (validation.ts splits it, openapi.ts documents it). */
export const CSV_KEYWORD = 'x-csv'

/**
 * A comma-separated list parameter (spec: "CSV"). It is validated as one string (so `maxLength` bounds the raw
 * parameter), then split on commas, trimmed, with empty items dropped, and reaches the handler as `string[]`
 * (the `CsvString` brand is what `WithCsv` in route.ts keys on).
 */
export function Csv(options: StringOptions = {}): TUnsafe<CsvString> {
  return Type.Unsafe<CsvString>({ ...Type.String(options), [CSV_KEYWORD]: true })
}

/**
 * A string restricted to `values`, as plain `{type: 'string', enum: [...]}`. A union of literals would give
 * Ajv one error per branch and OpenAPI an `anyOf` of consts; this gives one `literal_error` and a clean enum,
 * while the static type stays the literal union.
 */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: SchemaOptions = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ ...options, type: 'string', enum: [...values] })
}

/** Page size: an integer from 1 to `max`, `def` when absent (spec part 8 gives the pairs per endpoint). */
export function Limit(def: number, max: number, description = 'Maximum number of items to return.') {
  return Type.Integer({ minimum: 1, maximum: max, default: def, description })
}

/**
 * The largest `offset`: 2^31 − 1, Postgres' `integer`. Far past any list the service holds, and well inside what
 * the store's LIMIT/OFFSET (bigint) and JavaScript's safe integers take; an unbounded offset let
 * 9223372036854775808 through to the store (integer-bounds.ts makes every integer parameter declare its bounds).
 */
export const OFFSET_MAX = 2_147_483_647

/** Items to skip before the page starts; 0 when absent. */
export function Offset(description = 'Number of items to skip.') {
  return Type.Integer({ minimum: 0, maximum: OFFSET_MAX, default: 0, description })
}

export const STATUS_FILTER_VALUES = ['active', 'closed', 'resolved', 'all'] as const

/** Service status filter of the list endpoints; `all` is a filter value, not a state (spec part 3). */
export const StatusFilter = StringEnum(STATUS_FILTER_VALUES, {
  default: 'active',
  description: 'Service status to include; `all` disables the filter.',
})

/** What the canonical category slugs are, for the `category` parameters and fields (src/model/categories.ts). */
export const CATEGORY_DESCRIPTION = `Category slug, the same on both venues: ${CATEGORY_SLUGS.map((c) => `\`${c}\` (${CATEGORY_SCOPES[c]})`).join(', ')}.`

/** The `category` filter of the list endpoints: a slug of CATEGORY_DESCRIPTION (another value matches nothing). */
export const CategoryFilter = Type.Optional(Type.String({ maxLength: 64, description: CATEGORY_DESCRIPTION }))

/** Sort direction. */
export const Order = StringEnum(['asc', 'desc'], { default: 'desc', description: 'Sort direction.' })

/**
 * The paging and ordering of the lists served from read models, in their documented order: `limit` (25, at most
 * 100), `offset`, `sort` (the route's keys) and `order` (routes/support.ts `ListParams` reads them).
 */
export function ListOrdering<S extends TSchema>(sort: S) {
  return { limit: Limit(25, 100), offset: Offset(), sort, order: Order }
}

/**
 * `{"detail","code"}`: the body of every error other than 422 (docs/DESIGN.md). Open to extra fields because some
 * errors carry context (`upstream_status`, `retry_after_seconds`).
 */
export const ErrorBody = Type.Object(
  {
    detail: Type.String({ description: 'Human-readable message.' }),
    code: Type.String({
      description: 'Stable machine-readable code, e.g. `not_found`, `rate_limited`, `upstream_error`.',
    }),
  },
  { additionalProperties: true, description: 'Error body of every non-validation error.' },
)

/** One problem in a 422 body, shaped like FastAPI/pydantic v2 so existing clients parse it unchanged. */
export const ValidationIssueSchema = Type.Object(
  {
    type: Type.String({
      description: 'Error type, e.g. `missing`, `int_parsing`, `less_than_equal`, `literal_error`.',
    }),
    loc: Type.Array(Type.Union([Type.String(), Type.Integer()]), {
      description: 'Where: `["query", name]`, `["path", name]`, `["header", name]` or `["body", ...path]`.',
    }),
    msg: Type.String({ description: 'Human-readable message.' }),
    input: Type.Unknown({
      description:
        `The value as sent (query values are the raw strings); null when missing. Shortened: a string past ${ECHO_STRING_MAX} characters ends in \`…\`, ` +
        `lists and objects keep their first ${ECHO_ENTRIES_MAX} entries and ${ECHO_DEPTH_MAX} levels.`,
    }),
    ctx: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: 'Constraint details, e.g. `{"ge": 1}`.' }),
    ),
  },
  { additionalProperties: false },
)

/** The 422 body: one entry per problem, in the order path, query, header, body. */
export const ValidationErrorBody = Type.Object(
  { detail: Type.Array(ValidationIssueSchema) },
  {
    additionalProperties: false,
    description:
      'Request validation failed (HTTP 422). Besides its schema, every request is refused with a `value_error` for NUL (U+0000) or an unpaired ' +
      `surrogate in any text (parameters, headers, body strings and keys), and with a \`json_invalid\` for a body nested deeper than ${MAX_JSON_DEPTH} levels.`,
  },
)
