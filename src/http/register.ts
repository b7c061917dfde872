import type { Caller } from '../accounts/authenticator.js'
import { AppError } from '../core/errors.js'
import { errorReply, json, replyForError, type Reply } from './reply.js'
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
  check(ctx: RequestContext): GuardOutcome | Promise<GuardOutcome>
}

export interface GuardPass {
  /** The key's owner; undefined for guards that do not identify one (the signup throttle). */
  readonly caller: Caller | undefined
  readonly headers: readonly (readonly [string, string])[]
}

export type GuardOutcome = GuardPass | Reply

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
  const headers = [...new Set([...validator.headerNames, ...(hasBody ? ['content-type'] : []), ...(guard?.headers ?? [])])]
  const run = (ctx: RequestContext): Reply | Promise<Reply> => {
    if (hasBody && ctx.body !== undefined && !isJson(ctx.headers['content-type'])) {
      return errorReply(415, 'unsupported_media_type', 'Content-Type must be application/json')
    }
    const result = validator.validate(ctx)
    if (!result.ok) return json(422, { detail: result.issues })
    // `input.headers` holds the declared headers only, not the content-type captured for the check above.
    return route.handler(result.input, ctx)
  }
  const handler = guard === undefined ? run : guarded(guard, run)
  const def: RouteDef = { method: route.method, path: route.path, headers, handler, remoteAddress: guard?.remoteAddress === true }
  return hasBody ? { ...def, body: true } : def
}

/**
 * The guard first; on a pass the route runs with the caller, and the guard's headers join its reply, including
 * the replies of AppErrors the handler throws (404…). Other errors go on to HttpServer, which logs them.
 */
function guarded(guard: RouteGuard, run: (ctx: RequestContext) => Reply | Promise<Reply>): (ctx: RequestContext) => Reply | Promise<Reply> {
  const admitted = (outcome: GuardOutcome, ctx: RequestContext): Reply | Promise<Reply> => {
    if (!('caller' in outcome)) return outcome
    const headers = outcome.headers
    let reply: Reply | Promise<Reply>
    // The context is this request's own (HttpServer builds one per request): set the caller in place.
    ctx.caller = outcome.caller
    try {
      reply = run(ctx)
    } catch (err) {
      return appErrorWithHeaders(err, headers)
    }
    if (reply instanceof Promise) return reply.then((r) => withHeaders(r, headers), (err: unknown) => appErrorWithHeaders(err, headers))
    return withHeaders(reply, headers)
  }
  return (ctx) => {
    const outcome = guard.check(ctx)
    return outcome instanceof Promise ? outcome.then((o) => admitted(o, ctx)) : admitted(outcome, ctx)
  }
}

/** An AppError's reply with the guard's headers; anything else goes on to HttpServer (logged 500). */
function appErrorWithHeaders(err: unknown, headers: readonly (readonly [string, string])[]): Reply {
  if (err instanceof AppError) return withHeaders(replyForError(err), headers)
  throw err
}

/** Spelled out, not spread: an object spread costs ~1 µs per request here (see HttpServer.route). */
function withHeaders(reply: Reply, headers: readonly (readonly [string, string])[]): Reply {
  const all = reply.headers === undefined ? headers : reply.headers.concat(headers)
  return reply.contentType === undefined ? { status: reply.status, body: reply.body, headers: all } : { status: reply.status, body: reply.body, headers: all, contentType: reply.contentType }
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
