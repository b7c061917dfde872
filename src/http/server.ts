import uWS, { type HttpRequest, type HttpResponse, type TemplatedApp, type us_listen_socket } from 'uWebSockets.js'
import type { Caller } from '../accounts/authenticator.js'
import type { Logger } from '../core/logger.js'
import { HttpStats } from './http-stats.js'
import { errorReply, JSON_CONTENT_TYPE, renderHeaderLines, replyForError, statusLine, type Reply } from './reply.js'

/**
 * A small adapter over uWebSockets.js that enforces its rules in one place (docs/DESIGN.md, uWS rules):
 * 1. everything a handler needs is copied from `req` before the handler runs (req dies with the callback);
 * 2. a handler that returns a promise gets `onAborted` attached before anything is awaited;
 * 3. every write happens inside `res.cork`;
 * 4. a response is written exactly once, and never after an abort;
 * 5. no exception crosses a uWS callback: unknown errors become a generic 500 and are logged.
 * Every response and abort is counted in `stats` (status codes, latency histogram) for /metrics.
 */
export type Method = 'get' | 'post' | 'put' | 'patch' | 'del'

export interface RequestContext {
  readonly method: string
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
}

export interface HttpServerOptions {
  readonly log: Logger
  readonly maxBodyBytes?: number
}

export class HttpServer {
  readonly app: TemplatedApp
  readonly stats = new HttpStats()
  readonly #log: Logger
  readonly #maxBodyBytes: number
  #listenSocket: us_listen_socket | undefined
  #port = 0

  constructor(options: HttpServerOptions) {
    this.app = uWS.App()
    this.#log = options.log
    this.#maxBodyBytes = options.maxBodyBytes ?? 64 * 1024
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
    const handle = (res: HttpResponse, req: HttpRequest): void => {
      const startedAt = performance.now()
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
      // Also now: once the body is awaited, `res` may have been aborted and its socket freed.
      const remoteAddress = wantsAddress ? ADDRESS_TEXT.decode(res.getRemoteAddressAsText()) : undefined
      // Literals with every field, not spreads: on this hot path an object spread costs ~1 µs (bench/auth.bench.ts)
      // and gives the context an unstable shape; `caller` is listed so setting it later keeps the shape.
      if (def.body === true) this.#readBody(res, { method, path, query, params, headers, remoteAddress }, def.handler, startedAt)
      else this.#run(res, { method, path, query, params, headers, body: undefined, remoteAddress, caller: undefined, responseHeaderLines: '' }, def.handler, startedAt)
    }
    this.app[def.method](def.path, handle)
    return this
  }

  /** Registers the catch-all 404 (call after every route). */
  notFound(): this {
    const notFound = errorReply(404, 'not_found', 'Not Found')
    this.app.any('/*', (res) => this.#write(res, notFound, '', performance.now()))
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

  /** Stops accepting connections. Idempotent. */
  close(): void {
    if (this.#listenSocket !== undefined) {
      uWS.us_listen_socket_close(this.#listenSocket)
      this.#listenSocket = undefined
    }
  }

  #run(res: HttpResponse, ctx: RequestContext, handler: Handler, startedAt: number): void {
    let result: Reply | Promise<Reply>
    try {
      result = handler(ctx)
    } catch (err) {
      this.#logUnexpected(err, ctx)
      this.#write(res, replyForError(err), ctx.responseHeaderLines, startedAt)
      return
    }
    if (!(result instanceof Promise)) {
      // The synchronous fast path: we are still inside the uWS callback, so no abort handler is needed.
      this.#write(res, result, ctx.responseHeaderLines, startedAt)
      return
    }
    // Rule 2: attach the abort handler before the first await.
    this.#settle(res, this.#attachAbort(res), ctx, result, startedAt)
  }

  #readBody(res: HttpResponse, base: Omit<RequestContext, 'body' | 'caller' | 'responseHeaderLines'>, handler: Handler, startedAt: number): void {
    const state = this.#attachAbort(res)
    const chunks: Buffer[] = []
    let size = 0
    let rejected = false
    res.onData((chunk, isLast) => {
      if (rejected || state.aborted) return
      size += chunk.byteLength
      if (size > this.#maxBodyBytes) {
        rejected = true
        this.#corked(res, errorReply(413, 'payload_too_large', `request body exceeds ${this.#maxBodyBytes} bytes`), '', startedAt)
        return
      }
      // uWS neuters the chunk after this callback: copy it.
      chunks.push(Buffer.from(new Uint8Array(chunk).slice()))
      if (!isLast) return
      const body = size === 0 ? undefined : Buffer.concat(chunks, size)
      const ctx: RequestContext = { method: base.method, path: base.path, query: base.query, params: base.params, headers: base.headers, body, remoteAddress: base.remoteAddress, caller: undefined, responseHeaderLines: '' }
      let result: Reply | Promise<Reply>
      try {
        result = handler(ctx)
      } catch (err) {
        this.#logUnexpected(err, ctx)
        this.#corked(res, replyForError(err), ctx.responseHeaderLines, startedAt)
        return
      }
      this.#settle(res, state, ctx, Promise.resolve(result), startedAt)
    })
  }

  /** Writes a handler's promised reply (or its error) unless the client went away first. */
  #settle(res: HttpResponse, state: AbortState, ctx: RequestContext, result: Promise<Reply>, startedAt: number): void {
    result.then(
      (reply) => {
        if (!state.aborted) this.#corked(res, reply, ctx.responseHeaderLines, startedAt)
      },
      (err: unknown) => {
        this.#logUnexpected(err, ctx)
        if (!state.aborted) this.#corked(res, replyForError(err), ctx.responseHeaderLines, startedAt)
      },
    )
  }

  #attachAbort(res: HttpResponse): AbortState {
    const state: AbortState = { aborted: false }
    res.onAborted(() => {
      state.aborted = true
      this.stats.aborted()
    })
    return state
  }

  /** Rule 3 and 4 for writes after the synchronous part of the handler. */
  #corked(res: HttpResponse, reply: Reply, lines: string, startedAt: number): void {
    res.cork(() => this.#write(res, reply, lines, startedAt))
  }

  /**
   * The one place a response is written. Every response says `nosniff`, so a browser never reinterprets a JSON body
   * (which may echo client input) as HTML or script; an HTML reply that brings no Content-Security-Policy of its own
   * gets one that allows nothing (a page that needs a resource must say so: see DOCS_CSP).
   */
  #write(res: HttpResponse, reply: Reply, requestLines: string, startedAt: number): void {
    res.writeStatus(statusLine(reply.status))
    const contentType = reply.contentType ?? JSON_CONTENT_TYPE
    // One native call for the content type, nosniff, the reply's rendered headers and the request's (a guard's): uWS
    // writes `name: value\r\n` as given, so a value may carry more rendered header lines, and each call into uWS
    // costs more than the bytes it writes (bench/auth.bench.ts).
    const lines = reply.headerLines === undefined ? requestLines : reply.headerLines + requestLines
    const head = contentType === JSON_CONTENT_TYPE ? JSON_HEAD : contentType + NOSNIFF_LINE
    res.writeHeader('content-type', lines === '' ? head : head + lines)
    if (reply.headers !== undefined) for (const [k, v] of reply.headers) res.writeHeader(k, v)
    if (contentType.startsWith('text/html') && !hasHeader(reply, 'content-security-policy')) res.writeHeader('content-security-policy', STRICT_CSP)
    res.end(reply.body)
    this.stats.observe(reply.status, (performance.now() - startedAt) / 1000)
  }

  #logUnexpected(err: unknown, ctx: Pick<RequestContext, 'method' | 'path'>): void {
    if (err instanceof Error && err.name === 'AppError') return
    this.#log.error({ err, method: ctx.method, path: ctx.path }, 'unhandled error in route handler')
  }
}

const NO_PARAMS: Record<string, string> = Object.freeze({})
const ADDRESS_TEXT = new TextDecoder()

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

interface AbortState {
  aborted: boolean
}
