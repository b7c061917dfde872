import { createHash } from 'node:crypto'
import { brotliCompress, constants, gzip, type BrotliOptions, type ZlibOptions } from 'node:zlib'
import type { ContentCoding } from './content-coding.js'

/**
 * A 200 body's representations: its bytes, their strong ETag, and its brotli and gzip encodings, each computed at
 * most once per body and only when a request asks for it.
 *
 * Bodies given as bytes are kept per bytes object (a WeakMap, so an entry lives exactly as long as its body):
 * a hot read answered from cached bytes (the page cache, the top list, the sitemap pages, the OpenAPI document)
 * returns the same object every time, so its ETag and its compressed bytes are computed once per cached page,
 * beside it, and a hot compressed read is a lookup. Cached bytes are never changed in place (a change builds new
 * bytes), which is what makes the object a safe key. A body given as a string is built per request: its
 * representation is made for that response and not kept. So a route returns bytes for bodies it keeps and a string
 * for bodies it builds per request (fresh bytes would be compressed at the kept settings on every response; the one
 * route that does so today is a candlestick answer picked by price, which is not kept: see proxy/live.ts).
 *
 * Compression runs on libuv's thread pool (zlib's asynchronous API), never on the event loop: a 60 kB body takes
 * 0.15-1 ms to compress and a 4 MB sitemap page tens of ms, and the loop also runs ingest and every other request.
 * Concurrent requests for an encoding being computed wait for the same result.
 *
 * Settings, measured on the service's bodies (13-256 kB JSON, 2-vCPU VM): bytes that are kept are compressed once
 * per page, so they get the smaller output: brotli quality 4 (10-25 % smaller than quality 1 at 3-4× its time;
 * 5 and 6 gain 0-10 % more at twice the time again) and gzip level 6 (zlib's default; 5-10 % smaller than level 1
 * at 1.5-2× its time). A body built per request pays its compression on every response, so it gets the fast
 * settings, brotli 1 and gzip 1: brotli 4 on every response cut a 13 kB route from 16k to 2.5k responses/s and a
 * 60 kB one from 4.8k to 0.9k in a trial run; brotli 1 is still about 4× smaller than identity (as small as gzip 6).
 */
export const MIN_COMPRESSED_BYTES = 1_024
export const KEPT = { brotliQuality: 4, gzipLevel: 6 } as const
export const PER_RESPONSE = { brotliQuality: 1, gzipLevel: 1 } as const
type Settings = typeof KEPT | typeof PER_RESPONSE

/** A produced coding (not identity). */
export type Encoding = Exclude<ContentCoding, 'identity'>

export class Representation {
  readonly identity: Uint8Array
  /** The quoted strong ETag of the identity bytes: `"<120 bits of SHA-1, base64url>"`. */
  readonly etag: string
  /** Worth compressing (at least MIN_COMPRESSED_BYTES): its responses say `Vary: Accept-Encoding`. */
  readonly compressible: boolean
  readonly #settings: Settings
  #br: Slot = undefined
  #gzip: Slot = undefined
  readonly #etags: Partial<Record<ContentCoding, string>> = {}
  readonly #etagLines: Partial<Record<ContentCoding, string>> = {}
  /** The last header lines built per coding (see `headerLines`), with the head they were built on. */
  readonly #lines: Partial<Record<ContentCoding, { readonly head: string; readonly lines: string }>> = {}

  constructor(identity: Uint8Array, settings: Settings) {
    this.identity = identity
    this.#settings = settings
    // SHA-1 as a fingerprint, not for security: ~1.5 GB/s with the CPU's SHA extensions (3× MD5 here), and a
    // collision between two versions of one URL's body is out of reach. 20 base64url characters keep 120 bits.
    this.etag = `"${createHash('sha1').update(identity).digest('base64url').slice(0, 20)}"`
    this.compressible = identity.byteLength >= MIN_COMPRESSED_BYTES
  }

  /**
   * The strong ETag of an encoding: each coding is its own representation with its own bytes (RFC 9110 §8.8.3),
   * so it gets its own tag, the identity tag with a suffix (`"…-br"`, `"…-gz"`).
   */
  etagOf(coding: ContentCoding): string {
    return coding === 'identity'
      ? this.etag
      : (this.#etags[coding] ??= `${this.etag.slice(0, -1)}${coding === 'br' ? '-br' : '-gz'}"`)
  }

  /** `\r\netag: "…"` for `coding`, rendered once. */
  etagLine(coding: ContentCoding): string {
    return (this.#etagLines[coding] ??= `\r\netag: ${this.etagOf(coding)}`)
  }

  /**
   * `head` (Cache-Control and Vary, rendered), then the ETag of `coding` when `etag`, then its Content-Encoding.
   * Kept per coding for the last head asked with (one route serves a cached page, so the head repeats): a hot read
   * then builds no string.
   */
  headerLines(coding: ContentCoding, head: string, etag: boolean): string {
    const last = this.#lines[coding]
    if (last !== undefined && last.head === head) return last.lines
    const lines =
      head + (etag ? this.etagLine(coding) : '') + (coding === 'identity' ? '' : `\r\ncontent-encoding: ${coding}`)
    this.#lines[coding] = { head, lines }
    return lines
  }

  /** The encoded bytes: at once when computed before, else once the thread pool has them; undefined if zlib failed. */
  encoded(coding: Encoding): Uint8Array | Promise<Uint8Array | undefined> | undefined {
    const slot = coding === 'br' ? this.#br : this.#gzip
    if (slot !== undefined) return slot === FAILED ? undefined : slot
    const pending = compress(coding, this.identity, this.#settings).then((bytes) => {
      this.#set(coding, bytes ?? FAILED)
      return bytes
    })
    this.#set(coding, pending)
    return pending
  }

  #set(coding: Encoding, slot: Slot): void {
    if (coding === 'br') this.#br = slot
    else this.#gzip = slot
  }
}

const FAILED = Symbol('compression failed')
type Slot = Uint8Array | Promise<Uint8Array | undefined> | typeof FAILED | undefined

const byBytes = new WeakMap<Uint8Array, Representation>()

/** The representation of a 200 body: kept per bytes object (cached bodies), made afresh for a string. */
export function representationOf(body: string | Uint8Array): Representation {
  if (typeof body === 'string') return new Representation(Buffer.from(body, 'utf8'), PER_RESPONSE)
  let r = byBytes.get(body)
  if (r === undefined) {
    r = new Representation(body, KEPT)
    byBytes.set(body, r)
  }
  return r
}

function brotliOptions(size: number, quality: number): BrotliOptions {
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: size,
    },
  }
}

/** Resolves to undefined if zlib fails (it does not on valid input): the response is then sent as identity. */
function compress(coding: Encoding, bytes: Uint8Array, settings: Settings): Promise<Uint8Array | undefined> {
  return new Promise((resolve) => {
    const done = (err: Error | null, out: Buffer): void => resolve(err === null ? out : undefined)
    if (coding === 'br') brotliCompress(bytes, brotliOptions(bytes.byteLength, settings.brotliQuality), done)
    else gzip(bytes, { level: settings.gzipLevel } satisfies ZlibOptions, done)
  })
}
