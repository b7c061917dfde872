import uWS, { type HttpRequest, type HttpResponse, type TemplatedApp, type us_listen_socket } from 'uWebSockets.js'
import type { Caller } from '../accounts/authenticator.js'
import { AppError, describeError } from '../core/errors.js'
import type { Logger } from '../core/logger.js'
import type { Caching } from './caching.js'
import { AllowedMethods } from './allowed-methods.js'
import { CorsPolicy } from './cors.js'
import { HttpStats } from './http-stats.js'
import { InFlightRequests, type AbortState } from './in-flight.js'
import { errorReply, JSON_CONTENT_TYPE, renderHeaderLines, replyForError, statusLine, type Reply } from './reply.js'
import { shapeReply } from './shape-reply.js'
import { isStoreUnavailable } from '../store/db.js'

/**
 * A small adapter over uWebSockets.js that enforces its rules in one place (docs/DESIGN.md, uWS rules):
 * 1. everything a handler needs is copied from `req` before the handler runs (req dies with the callback);
 * 2. a handler that returns a promise gets `onAborted` attached before anything is awaited;
 * 3. every write happens inside `res.cork`;
 * 4. a response is written exactly once, and never after an abort;
 * 5. no exception crosses a uWS callback: unknown errors become a generic 500 and are logged.
 * Every response and abort is counted in `stats` (status codes, latency histogram) for /metrics.
 *
 * Between a handler and the writer, shape-reply.ts turns each reply into what goes on the wire (Cache-Control,
 * ETag and 304, content coding); the writer adds the CORS headers (cors.ts). A GET route answers HEAD too (the
 * same headers, no body), and every route's path answers OPTIONS (a CORS preflight) without running any guard.
 */
export type Method = 'get' | 'post' | 'put' | 'patch' | 'del'

export interface RequestContext {
  readonly path: string
  /** Raw query string without the leading "?". */
  readonly query: string
  readonly params: Readonly<Record<string, string>>
  /** Lowercase header names → values, only those the route declared. */
  readonly headers: Readonly<Record<string, string>>
  /** Raw body (routes with `body: true`), undefined when empty. */
  readonly body: Buffer | undefined
  /**
   * The peer's IP address as uWS prints it (`127.0.0.1`, or full-form IPv6 such as
   * `0000:0000:0000:0000:0000:ffff:7f00:0001` on a dual-stack socket), on routes that ask for it (`remoteAddress`);
   * undefined elsewhere. It is read while the request callback runs: afterwards the response may be gone.
   */
  readonly remoteAddress?: string | undefined
  /**
   * Owner of the request's API key on routes behind the key guard, which sets it (once, before the route runs;
   * register.ts). Mutable so the guard need not copy the context per request.
   */
  caller?: Caller | undefined
  /** Lowercase, as uWS reports it: `get`, `head`, `post`… */
  readonly method: string
  /** `Accept-Encoding` (GET and HEAD routes), for the content coding of a 200 (shape-reply.ts). */
  readonly acceptEncoding?: string | undefined
  /** `If-None-Match` (GET and HEAD routes), for a 304. */
  readonly ifNoneMatch?: string | undefined
  /** `Origin`, read only when the CORS answer depends on it (a list of allowed origins). */
  readonly origin?: string | undefined
  /**
   * Headers, in wire form (reply.ts `renderHeaderLines`), that go on whatever this request is answered with, errors
   * included: a guard's rate-limit headers. Set by the guard; '' for none. Kept on the request rather than merged
   * into each reply, so a cached reply is written as it is, with no copy per request.
   */
  responseHeaderLines: string
}

export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>

export interface RouteDef {
  readonly method: Method
  /** uWS pattern, e.g. `/api/v2/events/:slug`. */
  readonly path: string
  readonly handler: Handler
  /** Request headers the handler reads (lowercase). */
  readonly headers?: readonly string[]
  /** Read the request body (up to `maxBodyBytes`). */
  readonly body?: boolean
  /** Copy the peer's address into the context (a per-client rate limit needs it; most routes do not). */
  readonly remoteAddress?: boolean
  /** GET routes: how their 200s may be cached (caching.ts); undefined for writes. */
  readonly caching?: Caching
}

export interface HttpServerOptions {
  readonly log: Logger
  readonly maxBodyBytes?: number
  /** Which browser origins may read responses (cors.ts); none when absent. */
  readonly cors?: CorsPolicy
}

export class HttpServer {
  readonly app: TemplatedApp
  readonly stats = new HttpStats()
  readonly #log: Logger
  readonly #maxBodyBytes: number
  readonly #tooLarge: Reply
  readonly #cors: CorsPolicy
  /** Path pattern → its methods, for the `Allow` of OPTIONS. */
  readonly #allowed = new AllowedMethods()
  #listenSocket: us_listen_socket | undefined
  #port = 0
  /** Set by close(): responses close their connections, new requests get a 503 (see close). */
  #closing = false
  readonly #inFlight = new InFlightRequests(() => this.stats.aborted())

  constructor(options: HttpServerOptions) {
    this.app = uWS.App()
    this.#log = options.log
    this.#maxBodyBytes = options.maxBodyBytes ?? 64 * 1024
    this.#cors = options.cors ?? CorsPolicy.none()
    this.#tooLarge = errorReply(
      new AppError(413, 'payload_too_large', `request body exceeds ${this.#maxBodyBytes} bytes`),
    )
  }

  get port(): number {
    return this.#port
  }

  route(def: RouteDef): this {
    const paramNames = def.path
      .split('/')
      .filter((s) => s.startsWith(':'))
      .map((s) => s.slice(1))
    const headerNames = def.headers ?? []
    // Names as bytes, encoded once: uWS reads a Buffer argument in place but copies a JS string on every call.
    const headerNameBytes = headerNames.map((h) => Buffer.from(h, 'latin1'))
    const wantsAddress = def.remoteAddress === true
    const reads = def.method === 'get'
    const readsOrigin = this.#cors.variesByOrigin
    const caching = def.caching
    const handle = (res: HttpResponse, req: HttpRequest): void => {
      const startedAt = performance.now()
      if (this.#closing) return this.#write(res, SHUTTING_DOWN, SHUTDOWN_TARGET, startedAt)
      // Rule 1: copy what the handler needs now; `req` is invalid once this callback returns.
      // Routes without path parameters (every list read) share one empty, frozen object: nothing to allocate.
      let params: Record<string, string> = NO_PARAMS
      if (paramNames.length > 0) {
        params = {}
        for (let i = 0; i < paramNames.length; i++) params[paramNames[i] as string] = decodeParam(req.getParameter(i))
      }
      const headers: Record<string, string> = {}
      for (let i = 0; i < headerNames.length; i++) {
        const v = req.getHeader(headerNameBytes[i] as Buffer)
        if (v !== '') headers[headerNames[i] as string] = v
      }
      const method = req.getMethod()
      const path = req.getUrl()
      const query = req.getQuery() ?? ''
      // What the writer negotiates on: read for reads only, and Origin only when the CORS answer depends on it.
      const acceptEncoding = reads ? headerOrUndefined(req, ACCEPT_ENCODING) : undefined
      const ifNoneMatch = reads ? headerOrUndefined(req, IF_NONE_MATCH) : undefined
      const origin = readsOrigin ? headerOrUndefined(req, ORIGIN) : undefined
      // Also now: once the body is awaited, `res` may have been aborted and its socket freed.
      const remoteAddress = wantsAddress ? ADDRESS_TEXT.decode(res.getRemoteAddressAsText()) : undefined
      // Literals with every field, not spreads: on this hot path an object spread costs ~1 µs (bench/auth.bench.ts)
      // and gives the context an unstable shape; `caller` is listed so setting it later keeps the shape.
      const ctx: RequestContext = {
        path,
        query,
        params,
        headers,
        body: undefined,
        remoteAddress,
        method,
        acceptEncoding,
        ifNoneMatch,
        origin,
        caller: undefined,
        responseHeaderLines: '',
      }
      if (def.body !== true) this.#run(res, ctx, def.handler, caching, startedAt)
      // A body announced over the limit is refused at once: waiting for 64 KiB of it (or for a client that sends
      // nothing after the headers, until uWS's 10 s idle timeout) would leave the client without an answer.
      else if (Number(req.getHeader(CONTENT_LENGTH)) > this.#maxBodyBytes)
        this.#deliver(res, ctx, this.#tooLarge, undefined, startedAt, undefined)
      else this.#readBody(res, ctx, def.handler, caching, startedAt)
    }
    this.app[def.method](def.path, handle)
    // HEAD: the GET's status and headers without the body (the writer leaves it out); guarded and metered alike.
    if (def.method === 'get') this.app.head(def.path, handle)
    this.#allowPreflight(def.path, def.method)
    return this
  }

  /** Registers the catch-all 404 (call after every route). */
  notFound(): this {
    const notFound = errorReply(new AppError(404, 'not_found', 'Not Found'))
    const readsOrigin = this.#cors.variesByOrigin
    this.app.any('/*', (res, req) => {
      const startedAt = performance.now()
      const origin = readsOrigin ? headerOrUndefined(req, ORIGIN) : undefined
      this.#deliver(
        res,
        { method: req.getMethod(), origin, responseHeaderLines: '' },
        notFound,
        undefined,
        startedAt,
        undefined,
      )
    })
    return this
  }

  listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.app.listen(host, port, (socket) => {
        if (socket === false) {
          reject(new Error(`cannot listen on ${host}:${port}`))
          return
        }
        this.#listenSocket = socket
        this.#port = uWS.us_socket_local_port(socket as unknown as uWS.us_socket)
        resolve(this.#port)
      })
    })
  }

  /**
   * Stops accepting connections and starts draining (idempotent). uWS has no way to close the connections a
   * client keeps alive, and the process exits soon after: a request on one of them would be reset, or (once the
   * store has closed) fail with a 500. So from here on every response says `Connection: close` and closes its
   * connection, and a request that arrives now is answered 503 `shutting_down` without running its route.
   */
  close(): void {
    this.#closing = true
    if (this.#listenSocket !== undefined) {
      uWS.us_listen_socket_close(this.#listenSocket)
      this.#listenSocket = undefined
    }
  }

  /** Requests whose answer is still being worked out (a handler awaiting the store, a body being read). */
  get inFlight(): number {
    return this.#inFlight.count
  }

  /**
   * Waits until every request in flight has been answered (or its client went away), at most `timeoutMs`; call
   * after `close()`, before closing what handlers use (the store). Resolves with the number still in flight.
   */
  drain(timeoutMs: number): Promise<number> {
    return this.#inFlight.drain(timeoutMs)
  }

  #run(
    res: HttpResponse,
    ctx: RequestContext,
    handler: Handler,
    caching: Caching | undefined,
    startedAt: number,
  ): void {
    let result: Reply | Promise<Reply>
    try {
      result = handler(ctx)
    } catch (err) {
      this.#logUnexpected(err, ctx)
      this.#deliver(res, ctx, replyForError(err), caching, startedAt, undefined)
      return
    }
    // The synchronous fast path: we are still inside the uWS callback, so no abort handler is needed (unless the
    // reply's compression has to be waited for: #deliver attaches one then).
    if (!(result instanceof Promise)) this.#deliver(res, ctx, result, caching, startedAt, undefined)
    // Rule 2: attach the abort handler before the first await.
    else this.#settle(res, this.#inFlight.attach(res), ctx, result, caching, startedAt)
  }

  #readBody(
    res: HttpResponse,
    ctx: RequestContext,
    handler: Handler,
    caching: Caching | undefined,
    startedAt: number,
  ): void {
    const state = this.#inFlight.attach(res)
    const chunks: Buffer[] = []
    let size = 0
    let rejected = false
    res.onData((chunk, isLast) => {
      if (rejected || state.aborted) return
      size += chunk.byteLength
      if (size > this.#maxBodyBytes) {
        rejected = true
        this.#deliver(res, ctx, this.#tooLarge, undefined, startedAt, state)
        return
      }
      // uWS neuters the chunk after this callback: copy it.
      chunks.push(Buffer.from(new Uint8Array(chunk).slice()))
      if (!isLast) return
      const body = size === 0 ? undefined : Buffer.concat(chunks, size)
      const withBody: RequestContext = {
        path: ctx.path,
        query: ctx.query,
        params: ctx.params,
        headers: ctx.headers,
        body,
        remoteAddress: ctx.remoteAddress,
        method: ctx.method,
        acceptEncoding: ctx.acceptEncoding,
        ifNoneMatch: ctx.ifNoneMatch,
        origin: ctx.origin,
        caller: undefined,
        responseHeaderLines: '',
      }
      let result: Reply | Promise<Reply>
      try {
        result = handler(withBody)
      } catch (err) {
        this.#logUnexpected(err, withBody)
        this.#deliver(res, withBody, replyForError(err), caching, startedAt, state)
        return
      }
      this.#settle(res, state, withBody, Promise.resolve(result), caching, startedAt)
    })
  }

  /** Delivers a handler's promised reply (or its error) unless the client went away first. */
  #settle(
    res: HttpResponse,
    state: AbortState,
    ctx: RequestContext,
    result: Promise<Reply>,
    caching: Caching | undefined,
    startedAt: number,
  ): void {
    result.then(
      (reply) => this.#deliver(res, ctx, reply, caching, startedAt, state),
      (err: unknown) => {
        this.#logUnexpected(err, ctx)
        this.#deliver(res, ctx, replyForError(err), caching, startedAt, state)
      },
    )
  }

  /**
   * Shapes a reply for the wire (shape-reply.ts) and writes it. `state` is undefined inside the uWS callback (write
   * at once) and set after an await (write corked, and not at all once aborted). A reply whose compression runs on
   * the thread pool is written when it is done, like any async reply.
   */
  #deliver(
    res: HttpResponse,
    target: WriteTarget,
    reply: Reply,
    caching: Caching | undefined,
    startedAt: number,
    state: AbortState | undefined,
  ): void {
    if (state?.aborted === true) return
    let shaped: Reply | Promise<Reply>
    try {
      shaped = shapeReply(target, reply, caching, this.#cors.variesByOrigin)
    } catch (err) {
      this.#logUnexpected(err, { method: target.method, path: '(shaping a reply)' })
      shaped = shapeReply(target, replyForError(err), undefined, this.#cors.variesByOrigin)
    }
    if (!(shaped instanceof Promise)) {
      if (state === undefined) this.#write(res, shaped, target, startedAt)
      else this.#corked(res, shaped, target, startedAt, state)
      return
    }
    const waiting = state ?? this.#inFlight.attach(res)
    shaped.then(
      (r) => {
        if (!waiting.aborted) this.#corked(res, r, target, startedAt, waiting)
      },
      (err: unknown) => {
        this.#logUnexpected(err, { method: target.method, path: '(shaping a reply)' })
        if (!waiting.aborted)
          this.#corked(
            res,
            shapeReply(target, replyForError(err), undefined, this.#cors.variesByOrigin) as Reply,
            target,
            startedAt,
            waiting,
          )
      },
    )
  }

  /** Rule 3 and 4 for writes after the synchronous part of the handler. */
  #corked(res: HttpResponse, reply: Reply, target: WriteTarget, startedAt: number, state: AbortState): void {
    res.cork(() => this.#write(res, reply, target, startedAt))
    this.#inFlight.settled(state)
  }

  /** Registers OPTIONS on a route's path (once per path) and notes the route's method for its `Allow`. */
  #allowPreflight(path: string, method: Method): void {
    if (!this.#allowed.add(path, method)) return
    const readsOrigin = this.#cors.variesByOrigin
    this.app.options(path, (res, req) => {
      const startedAt = performance.now()
      const origin = readsOrigin ? headerOrUndefined(req, ORIGIN) : undefined
      const reply: Reply = {
        status: 204,
        body: EMPTY_BODY,
        headerLines: this.#cors.preflightLines(origin, this.#allowed.allowOf(path)),
      }
      this.#write(res, reply, PREFLIGHT_TARGET, startedAt)
    })
  }

  /**
   * The one place a response is written. Every response says `nosniff`, so a browser never reinterprets a JSON body
   * (which may echo client input) as HTML or script; an HTML reply that brings no Content-Security-Policy of its own
   * gets one that allows nothing (a page that needs a resource must say so: see DOCS_CSP). 204 and 304 have no body
   * and no content type; the answer to HEAD has the headers of the GET's, its Content-Length included, and no body.
   */
  #write(res: HttpResponse, reply: Reply, target: WriteTarget, startedAt: number): void {
    res.writeStatus(statusLine(reply.status))
    // One native call for the content type, nosniff, the reply's rendered headers, the request's (a guard's) and
    // CORS: uWS writes `name: value\r\n` as given, so a value may carry more rendered header lines, and each call
    // into uWS costs more than the bytes it writes (bench/auth.bench.ts).
    const requestLines = target === PREFLIGHT_TARGET ? '' : target.responseHeaderLines + this.#cors.lines(target.origin)
    const lines = reply.headerLines === undefined ? requestLines : reply.headerLines + requestLines
    const bodyless = reply.status === 204 || reply.status === 304
    const contentType = reply.contentType ?? JSON_CONTENT_TYPE
    if (bodyless) res.writeHeader('x-content-type-options', lines === '' ? 'nosniff' : `nosniff${lines}`)
    else {
      const head = contentType === JSON_CONTENT_TYPE ? JSON_HEAD : contentType + NOSNIFF_LINE
      res.writeHeader('content-type', lines === '' ? head : head + lines)
    }
    if (reply.headers !== undefined) for (const [k, v] of reply.headers) res.writeHeader(k, v)
    if (!bodyless && contentType.startsWith('text/html') && !hasHeader(reply, 'content-security-policy'))
      res.writeHeader('content-security-policy', STRICT_CSP)
    // While shutting down, each response says `Connection: close` (see close()). end() closes the connection after
    // the body; endWithoutBody() can only close with a Content-Length it then waits to write (a 204 or a HEAD would
    // never finish), so there the header alone tells the client not to reuse the connection.
    const closing = this.#closing
    if (closing && (bodyless || target.method === 'head')) res.writeHeader('connection', 'close')
    if (bodyless) res.endWithoutBody()
    else if (target.method === 'head') {
      // uWS would send a body given to end(); it sends no Content-Length with endWithoutBody(), so it is written here.
      res.writeHeader(
        'content-length',
        String(typeof reply.body === 'string' ? Buffer.byteLength(reply.body) : reply.body.byteLength),
      )
      res.endWithoutBody()
    } else res.end(reply.body, closing)
    this.stats.observe(reply.status, (performance.now() - startedAt) / 1000)
  }

  #logUnexpected(err: unknown, ctx: Pick<RequestContext, 'method' | 'path'>): void {
    if (err instanceof AppError) return
    // Answered 503 store_unavailable (reply.ts): the store's own log says why; one line per request is enough.
    if (isStoreUnavailable(err)) {
      this.#log.warn({ err: describeError(err), method: ctx.method, path: ctx.path }, 'store unavailable')
      return
    }
    this.#log.error({ err, method: ctx.method, path: ctx.path }, 'unhandled error in route handler')
  }
}

/** What the writer needs of a request: a route's RequestContext, or the catch-all's and a preflight's few fields. */
type WriteTarget = Pick<RequestContext, 'method' | 'origin' | 'responseHeaderLines' | 'acceptEncoding' | 'ifNoneMatch'>

const NO_PARAMS: Record<string, string> = Object.freeze({})
const ADDRESS_TEXT = new TextDecoder()
const ACCEPT_ENCODING = Buffer.from('accept-encoding', 'latin1')
const IF_NONE_MATCH = Buffer.from('if-none-match', 'latin1')
const ORIGIN = Buffer.from('origin', 'latin1')
const CONTENT_LENGTH = Buffer.from('content-length', 'latin1')
const EMPTY_BODY = new Uint8Array(0)
/** What a request that arrives after close() is answered: retry elsewhere (another replica, or this one restarted). */
const SHUTTING_DOWN: Reply = errorReply(
  new AppError(503, 'shutting_down', 'The service is shutting down; retry shortly.', {
    headers: [['retry-after', '1']],
  }),
)
const SHUTDOWN_TARGET: WriteTarget = { method: 'get', origin: undefined, responseHeaderLines: '' }
/** A preflight's lines come whole from CorsPolicy.preflightLines, so the writer adds no CORS lines of its own. */
const PREFLIGHT_TARGET: WriteTarget = { method: 'options', origin: undefined, responseHeaderLines: '' }

function headerOrUndefined(req: HttpRequest, name: Buffer): string | undefined {
  const v = req.getHeader(name)
  return v === '' ? undefined : v
}

/** For HTML replies that set no policy of their own: no resource of any kind, no framing, no forms. */
const NOSNIFF_LINE = renderHeaderLines([['x-content-type-options', 'nosniff']])
const JSON_HEAD = JSON_CONTENT_TYPE + NOSNIFF_LINE
const STRICT_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

function hasHeader(reply: Reply, name: string): boolean {
  return reply.headers !== undefined && reply.headers.some(([k]) => k.toLowerCase() === name)
}

function decodeParam(raw: string): string {
  try {
    return decodeURIComponent(raw)
  } catch {
    return raw
  }
}
