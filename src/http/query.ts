/**
 * Query-string parsing with the semantics of the original service (Starlette/FastAPI):
 * - `+` is a space and `%XX` sequences are decoded as UTF-8; a malformed sequence is kept literally and invalid
 *   UTF-8 becomes U+FFFD (Python's `unquote`), so a bad byte never turns into a 500;
 * - `a` and `a=` both give the empty string (`keep_blank_values=True`), so `?limit=` is an `int_parsing` error
 *   rather than a silent default;
 * - when a key repeats, the last value wins (FastAPI scalars); CSV parameters are one value with commas.
 *
 * The values are kept exactly as decoded: validation coerces a copy, and 422 entries echo these strings as
 * `input`, as pydantic does.
 *
 * @example
 * parseQuery('status=all&limit=5&limit=7&q=a+b%21') // { status: 'all', limit: '7', q: 'a b!' }
 */
export type QueryValues = ReadonlyMap<string, string>

/** Parses a raw query string (uWS `getQuery()`, without the `?`). */
export function parseQuery(raw: string): QueryValues {
  const out = new Map<string, string>()
  if (raw === '') return out
  for (const part of raw.split('&')) {
    if (part === '') continue
    const eq = part.indexOf('=')
    const key = decodeComponent(eq === -1 ? part : part.slice(0, eq))
    const value = eq === -1 ? '' : decodeComponent(part.slice(eq + 1))
    // Map.set on an existing key keeps its first insertion position but takes the last value.
    out.set(key, value)
  }
  return out
}

/** Decodes one form-encoded component; never throws. */
export function decodeComponent(s: string): string {
  if (s.indexOf('%') === -1 && s.indexOf('+') === -1) return s
  const spaced = s.replace(/\+/g, ' ')
  try {
    return decodeURIComponent(spaced)
  } catch {
    return decodeBytewise(spaced)
  }
}

/** Slow path for malformed input: valid `%XX` become bytes, anything else stays literal, then lenient UTF-8. */
function decodeBytewise(s: string): string {
  const bytes: number[] = []
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c === 0x25 && i + 2 < s.length && isHex(s.charCodeAt(i + 1)) && isHex(s.charCodeAt(i + 2))) {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16))
      i += 2
    } else if (c < 0x80) {
      bytes.push(c)
    } else {
      // A non-ASCII character sent unencoded: keep it as its UTF-8 bytes (it may be a surrogate pair).
      const cp = s.codePointAt(i) as number
      const ch = String.fromCodePoint(cp)
      for (const b of Buffer.from(ch, 'utf8')) bytes.push(b)
      i += ch.length - 1
    }
  }
  return Buffer.from(bytes).toString('utf8')
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
}
