import type { SimResponse } from '../http-router.js'

/**
 * venuek's REST error bodies (venuek.md §5). The venue mixes shapes and clients must parse all of them, so
 * the simulator reproduces each where the venue uses it: nested `{"error":{…}}` for not-found, auth and
 * exchange errors, a bare `{"msg":…}` for query-parameter validation, and a plain string for 429.
 */
export interface NestedError {
  readonly error: {
    readonly code: string
    readonly message: string
    readonly details?: string
    readonly service?: string
  }
}

export const MARKET_NOT_FOUND: NestedError = {
  error: { code: 'market_not_found', message: 'market not found', service: 'exchange' },
}
export const NOT_FOUND: NestedError = { error: { code: 'not_found', message: 'not found', service: 'exchange' } }
export const TOO_MANY_REQUESTS = { error: 'too many requests' } as const

/** Body for a status the router produces itself: unknown routes and injected failures. */
export function errorBodyFor(status: number): unknown {
  if (status === 429) return TOO_MANY_REQUESTS
  if (status === 404) return NOT_FOUND
  if (status === 401) return { error: { code: 'authentication_error', message: 'authentication_error' } }
  if (status === 400) return { error: { code: 'bad_request', message: 'bad request', service: 'exchange' } }
  if (status === 503)
    return { error: { code: 'service_unavailable', message: 'service unavailable', service: 'exchange' } }
  return { error: { code: 'internal_server_error', message: 'internal server error', service: 'exchange' } }
}

/**
 * A request the venue refuses before running the operation. Thrown by the query parser, turned into its
 * response by the route wrapper in rest.ts.
 */
export class BadRequest extends Error {
  readonly response: SimResponse

  constructor(body: unknown, message: string) {
    super(message)
    this.name = 'BadRequest'
    this.response = { status: 400, body }
  }
}

/** `min_close_ts` → `MinCloseTs`: the venue's Go parameter struct field name. */
function goField(name: string): string {
  return name
    .split('_')
    .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
    .join('')
}

/**
 * The bare body of a parameter-validation failure, in the venue's wording (the `lte` case is a verbatim
 * capture: `limit=1001` on GetMarkets). Other tags (`gte`, `oneof`, `required`) follow the same validator.
 */
export function validationFailed(operation: string, param: string, tag: string): BadRequest {
  const field = goField(param)
  const msg =
    `Parameter validation failed for ${operation}: Key: '${operation}Params.${field}' ` +
    `Error:Field validation for '${field}' failed on the '${tag}' tag`
  return new BadRequest({ msg }, msg)
}

/** A value that cannot be parsed as its type at all (e.g. `limit=abc`): bound before validation runs. */
export function invalidFormat(param: string, value: string): BadRequest {
  const msg = `Invalid format for parameter ${param}: ${JSON.stringify(value)} is not a valid value`
  return new BadRequest({ msg }, msg)
}

/** Filter combinations the operation rejects (e.g. a close-time range with `status=open`). */
export function invalidParameters(details: string): BadRequest {
  return new BadRequest(
    { error: { code: 'invalid_parameters', message: 'invalid parameters', details, service: 'exchange' } },
    details,
  )
}
