/**
 * Content-coding negotiation (RFC 9110 §12.5.3): which of the codings the server produces, brotli and gzip, a
 * request's `Accept-Encoding` accepts, preferring the higher weight, then brotli (smaller output for JSON).
 *
 * - No header: identity. RFC 9110 would allow any coding, but clients that send none (curl without
 *   `--compressed`, wrk, many scripts) mostly cannot decode one.
 * - A coding the header does not name is acceptable only through `*`; `q=0` refuses it (`br;q=0`, `*;q=0`).
 *   `x-gzip` is gzip.
 * - Identity is the answer when no produced coding is acceptable, even if the header refuses identity too
 *   (`identity;q=0`): sending it beats a 406 that no client handles.
 *
 * Clients send a handful of distinct headers (`gzip, deflate, br`, `br`…), so answers are kept per header value.
 */
export type ContentCoding = 'br' | 'gzip' | 'identity'

const MEMO_LIMIT = 256
const memo = new Map<string, ContentCoding>()

export function negotiateCoding(acceptEncoding: string | undefined): ContentCoding {
  if (acceptEncoding === undefined) return 'identity'
  let coding = memo.get(acceptEncoding)
  if (coding === undefined) {
    coding = parse(acceptEncoding)
    // A client cycling through invented headers must not grow the memo: start over when it is full.
    if (memo.size >= MEMO_LIMIT) memo.clear()
    memo.set(acceptEncoding, coding)
  }
  return coding
}

function parse(header: string): ContentCoding {
  let br: number | undefined
  let gzip: number | undefined
  let any: number | undefined
  for (const entry of header.split(',')) {
    const [name = '', ...params] = entry.split(';')
    const q = weight(params)
    if (q === undefined) continue
    switch (name.trim().toLowerCase()) {
      case 'br':
        br = q
        break
      case 'gzip':
      case 'x-gzip':
        gzip = q
        break
      case '*':
        any = q
        break
    }
  }
  const qBr = br ?? any ?? 0
  const qGzip = gzip ?? any ?? 0
  if (qBr <= 0 && qGzip <= 0) return 'identity'
  return qBr >= qGzip ? 'br' : 'gzip'
}

/** The entry's `q` (1 when absent), or undefined when it is not a valid qvalue (the entry is then ignored). */
function weight(params: readonly string[]): number | undefined {
  for (const p of params) {
    const eq = p.indexOf('=')
    if (eq === -1 || p.slice(0, eq).trim().toLowerCase() !== 'q') continue
    const value = p.slice(eq + 1).trim()
    if (!/^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value)) return undefined
    return Number(value)
  }
  return 1
}
