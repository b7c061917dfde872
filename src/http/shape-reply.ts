import { NO_STORE_LINE, type Caching } from './caching.js'
import { negotiateCoding, type ContentCoding } from './content-coding.js'
import { renderHeaderLines, type Reply } from './reply.js'
import { representationOf, type Representation } from './representation.js'

/**
 * What a route's reply becomes on the wire, decided per request between the handler and the writer (server.ts):
 *
 * - a GET's (or HEAD's) 200: the route's Cache-Control (caching.ts); its ETag and, when the request's
 *   `If-None-Match` names it (or is `*`), a 304 with no body instead, keeping ETag, Cache-Control and Vary; the
 *   body in the coding `Accept-Encoding` asks for (content-coding.ts) when it is at least 1 kB, with
 *   `Vary: Accept-Encoding` (representation.ts keeps the ETag and encodings of cached bytes);
 * - anything else (errors, answers to writes): `Cache-Control: no-store`.
 *
 * Every reply still reaches the route's guard first, so a 304 is rate limited and metered like the 200 it stands
 * for (it is a request, and the handler did the same work to know the page is unchanged).
 */
export interface ShapedRequest {
  /** Lowercase, as uWS reports it. */
  readonly method: string
  readonly acceptEncoding?: string | undefined
  readonly ifNoneMatch?: string | undefined
}

export function shapeReply(
  req: ShapedRequest,
  reply: Reply,
  caching: Caching | undefined,
  varyOrigin: boolean,
): Reply | Promise<Reply> {
  if (caching === undefined || reply.status !== 200 || (req.method !== 'get' && req.method !== 'head')) {
    return {
      status: reply.status,
      body: reply.body,
      headerLines: (varyOrigin ? NO_STORE_VARY_ORIGIN : NO_STORE_LINE) + (reply.headerLines ?? ''),
      contentType: reply.contentType,
      headers: reply.headers,
    }
  }
  const rep = representationOf(reply.body)
  const coding = rep.compressible ? negotiateCoding(req.acceptEncoding) : 'identity'
  const head = headOf(caching, varyOrigin, rep.compressible)
  if (caching.revalidate && req.ifNoneMatch !== undefined && matches(req.ifNoneMatch, rep.etagOf(coding))) {
    // RFC 9110 §15.4.5: the validator and caching fields the 200 would have had, no representation metadata.
    return { status: 304, body: EMPTY, headerLines: head + rep.etagLine(coding) + (reply.headerLines ?? '') }
  }
  if (coding === 'identity') return ok(reply, rep, 'identity', rep.identity, head, caching)
  const encoded = rep.encoded(coding)
  if (encoded instanceof Promise)
    return encoded.then((bytes) =>
      bytes === undefined
        ? ok(reply, rep, 'identity', rep.identity, head, caching)
        : ok(reply, rep, coding, bytes, head, caching),
    )
  return encoded === undefined
    ? ok(reply, rep, 'identity', rep.identity, head, caching)
    : ok(reply, rep, coding, encoded, head, caching)
}

function ok(
  reply: Reply,
  rep: Representation,
  coding: ContentCoding,
  body: Uint8Array,
  head: string,
  caching: Caching,
): Reply {
  const lines = rep.headerLines(coding, head, caching.revalidate)
  return {
    status: 200,
    body,
    headerLines: reply.headerLines === undefined ? lines : lines + reply.headerLines,
    contentType: reply.contentType,
    headers: reply.headers,
  }
}

/**
 * `If-None-Match` (RFC 9110 §13.1.2): `*`, or a list of entity tags compared weakly (a `W/` prefix does not
 * matter). Our tags are quoted and hold no quote or comma, so the quoted tag appearing in the list is a match.
 */
function matches(ifNoneMatch: string, etag: string): boolean {
  return ifNoneMatch.trim() === '*' || ifNoneMatch.includes(etag)
}

/**
 * Cache-Control and Vary, rendered once per policy and case: the same string object every time, so a
 * representation's kept lines (Representation.headerLines) are found by identity.
 */
function headOf(caching: Caching, varyOrigin: boolean, compressible: boolean): string {
  let heads = HEADS.get(caching)
  if (heads === undefined) {
    heads = VARY.map((vary) => caching.line + vary)
    HEADS.set(caching, heads)
  }
  return heads[(varyOrigin ? 2 : 0) + (compressible ? 1 : 0)] as string
}

const EMPTY = new Uint8Array(0)
const NO_STORE_VARY_ORIGIN = NO_STORE_LINE + renderHeaderLines([['vary', 'Origin']])
/** By (varies by origin, compressible): none, Accept-Encoding, Origin, both. */
const VARY: readonly string[] = [
  '',
  renderHeaderLines([['vary', 'Accept-Encoding']]),
  renderHeaderLines([['vary', 'Origin']]),
  renderHeaderLines([['vary', 'Origin, Accept-Encoding']]),
]
const HEADS = new WeakMap<Caching, readonly string[]>()
