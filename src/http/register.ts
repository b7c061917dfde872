import { cachingOf } from './caching.js'
import { AppError, validationError } from '../core/errors.js'
import { errorReply, type Reply } from './reply.js'
import type { AnyRoute } from './route.js'
import type { HttpServer, RequestContext, RouteDef } from './server.js'
import { compileRequestValidator, type RequestValidator } from './validation.js'

/**
 * Runs before validation on the routes it is given to (API keys and rate limits, http/auth.ts): either a reply
 * that ends the request (401, 429…) or the caller plus headers to add to whatever the route answers.
 */
export interface RouteGuard {
  /** Request headers the guard reads (lowercase); HttpServer captures them with the route's own. */
  readonly headers: readonly string[]
  /** The guard reads `ctx.remoteAddress` (a per-client limit), so HttpServer copies it. */
  readonly remoteAddress?: boolean
  /**
   * `undefined` lets the request through, after setting on the context what the route and the response need
   * (`caller`, `responseHeaderLines`); a Reply ends the request with it (401, 429…). Nothing is allocated per pass.
   */
  check(ctx: RequestContext): GuardOutcome | Promise<GuardOutcome>
}

export type GuardOutcome = Reply | undefined

export interface RegisterOptions {
  /** The guard of each route, or undefined for none (public routes). */
  readonly guard?: (route: AnyRoute) => RouteGuard | undefined
}

/**
 * Turns declared routes (route.ts) into HttpServer routes: every schema is compiled here, once, at boot; per
 * request the adapter only checks the media type, validates and calls the handler. HttpServer keeps the uWS
 * rules (req copied up front, abort handling, cork, one response, no exception across a uWS callback), so a
 * throwing handler becomes a logged 500 and an AppError its own status.
 *
 * Order per request: 413 (body over the limit, HttpServer) → guard (401, 429: the key is checked before
 * anything about the request is) → 415 (non-empty body that is not `application/json`) → 422 (everything else
 * wrong, all at once) → handler. A guard's headers (rate limits) go on every reply after it, errors included.
 *
 * @example
 * registerRoutes(http, [...marketRoutes(deps), ...metaRoutes(() => openapi)])
 * http.notFound()
 */
export function registerRoutes(server: HttpServer, routes: readonly AnyRoute[], options: RegisterOptions = {}): void {
  const seen = new Set<string>()
  for (const route of routes) {
    const key = `${route.method} ${route.path}`
    if (seen.has(key)) throw new Error(`route registered twice: ${key}`)
    seen.add(key)
    checkPathParams(route)
    server.route(toRouteDef(route, compileRequestValidator(route), options.guard?.(route)))
  }
}

function toRouteDef(route: AnyRoute, validator: RequestValidator, guard: RouteGuard | undefined): RouteDef {
  const hasBody = route.body !== undefined
  const headers = [
    ...new Set([...validator.headerNames, ...(hasBody ? ['content-type'] : []), ...(guard?.headers ?? [])]),
  ]
  const run = (ctx: RequestContext): Reply | Promise<Reply> => {
    if (hasBody && ctx.body !== undefined && !isJson(ctx.headers['content-type'])) return NOT_JSON
    const result = validator.validate(ctx)
    if (!result.ok) return errorReply(validationError(result.issues))
    // `input.headers` holds the declared headers only, not the content-type captured for the check above.
    return route.handler(result.input, ctx)
  }
  const handler = guard === undefined ? run : guarded(guard, run)
  const def: RouteDef = {
    method: route.method,
    path: route.path,
    headers,
    handler,
    remoteAddress: guard?.remoteAddress === true,
    caching: cachingOf(route),
  }
  return hasBody ? { ...def, body: true } : def
}

const NOT_JSON = errorReply(new AppError(415, 'unsupported_media_type', 'Content-Type must be application/json'))

/**
 * The guard first; on a pass the route runs with what the guard set on the context (the caller, and headers that
 * HttpServer adds to whatever the request is answered with, AppErrors and 500s included).
 */
function guarded(
  guard: RouteGuard,
  run: (ctx: RequestContext) => Reply | Promise<Reply>,
): (ctx: RequestContext) => Reply | Promise<Reply> {
  return (ctx) => {
    const outcome = guard.check(ctx)
    if (outcome instanceof Promise) return outcome.then((o) => (o === undefined ? run(ctx) : o))
    return outcome === undefined ? run(ctx) : outcome
  }
}

/** `application/json`, with or without parameters (`; charset=utf-8`), case-insensitive. */
function isJson(contentType: string | undefined): boolean {
  if (contentType === undefined) return false
  const semi = contentType.indexOf(';')
  const type = (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase()
  return type === 'application/json'
}

/** Every `:name` in the path must be declared in `params` and vice versa: a mismatch is a boot error. */
function checkPathParams(route: AnyRoute): void {
  const inPath = route.path
    .split('/')
    .filter((s: string) => s.startsWith(':'))
    .map((s: string) => s.slice(1))
  const declared = Object.keys((route.params as { properties?: object } | undefined)?.properties ?? {})
  const missing = inPath.filter((p: string) => !declared.includes(p))
  const extra = declared.filter((p) => !inPath.includes(p))
  if (missing.length > 0 || extra.length > 0) {
    const detail = `undeclared: [${missing.join(', ')}], not in path: [${extra.join(', ')}]`
    throw new Error(`${route.operationId}: path ${route.path} and params schema disagree (${detail})`)
  }
}
