/**
 * Where the values of a JSON document are, by byte offsets, without parsing them: a catalog page's events can then
 * be told unchanged by their bytes alone (mapped-records.ts `mapBytes`) and only the changed ones parsed. Parsing a
 * whole page to find that most of its events are what they were allocated every event's objects each refresh: at the
 * venues' real size, most of a refresh's garbage.
 *
 * The scan finds boundaries; it does not validate. A value it delimits is either byte for byte one that parsed before
 * or is parsed on its own (and a malformed one fails there). A document whose structure it cannot follow (truncated,
 * not an array or object where one is expected) gives undefined, and the caller parses the whole document as before,
 * which reports the error.
 */

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const COLON = 0x3a
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d

/** A value's bytes: `bytes.subarray(start, end)`. */
export interface ByteRange {
  readonly start: number
  readonly end: number
}

/** The ranges of a top-level array's elements, in order; undefined when the document is not an array. */
export function arrayElements(bytes: Buffer): ByteRange[] | undefined {
  const start = skipSpace(bytes, skipByteOrderMark(bytes))
  const elements = elementsAt(bytes, start)
  if (elements === undefined || skipSpace(bytes, elements.end) !== bytes.length) return undefined
  return elements.ranges
}

/**
 * The ranges of a top-level object's member values by key (a key given twice: its last value, as JSON.parse keeps),
 * and, when the member `arrayKey` is an array, its elements' ranges (found in the same pass); undefined when the
 * document is not an object. Keys are compared as written: an escaped key is its escaped text.
 */
export function objectMembers(
  bytes: Buffer,
  arrayKey?: string,
): { members: Map<string, ByteRange>; elements?: ByteRange[] } | undefined {
  let i = skipSpace(bytes, skipByteOrderMark(bytes))
  if (bytes[i] !== OPEN_BRACE) return undefined
  const members = new Map<string, ByteRange>()
  let elements: ByteRange[] | undefined
  i = skipSpace(bytes, i + 1)
  if (bytes[i] === CLOSE_BRACE) return skipSpace(bytes, i + 1) === bytes.length ? { members } : undefined
  for (;;) {
    if (bytes[i] !== QUOTE) return undefined
    const keyEnd = skipString(bytes, i)
    if (keyEnd < 0) return undefined
    const key = bytes.toString('utf8', i + 1, keyEnd - 1)
    i = skipSpace(bytes, keyEnd)
    if (bytes[i] !== COLON) return undefined
    const start = skipSpace(bytes, i + 1)
    let end: number
    if (key === arrayKey && bytes[start] === OPEN_BRACKET) {
      const array = elementsAt(bytes, start)
      if (array === undefined) return undefined
      ;({ ranges: elements, end } = array)
    } else {
      end = skipValue(bytes, start)
      if (end < 0) return undefined
      if (key === arrayKey) elements = undefined
    }
    members.set(key, { start, end })
    i = skipSpace(bytes, end)
    if (bytes[i] === COMMA) {
      i = skipSpace(bytes, i + 1)
      continue
    }
    if (bytes[i] !== CLOSE_BRACE) return undefined
    if (skipSpace(bytes, i + 1) !== bytes.length) return undefined
    return elements === undefined ? { members } : { members, elements }
  }
}

/** The ranges of the elements of the array that starts at `start` (a `[`), and where the array ends. */
export function elementsAt(bytes: Buffer, start: number): { ranges: ByteRange[]; end: number } | undefined {
  if (bytes[start] !== OPEN_BRACKET) return undefined
  const ranges: ByteRange[] = []
  let i = skipSpace(bytes, start + 1)
  if (bytes[i] === CLOSE_BRACKET) return { ranges, end: i + 1 }
  for (;;) {
    const end = skipValue(bytes, i)
    if (end < 0) return undefined
    ranges.push({ start: i, end })
    i = skipSpace(bytes, end)
    if (bytes[i] === COMMA) {
      i = skipSpace(bytes, i + 1)
      continue
    }
    if (bytes[i] !== CLOSE_BRACKET) return undefined
    return { ranges, end: i + 1 }
  }
}

/** The offset just past the value starting at `i`, or -1 when the bytes end first. */
function skipValue(bytes: Buffer, i: number): number {
  const first = bytes[i]
  if (first === QUOTE) return skipString(bytes, i)
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0
    for (let j = i; j < bytes.length; j++) {
      const c = bytes[j]
      if (c === QUOTE) {
        j = skipString(bytes, j) - 1
        if (j < 0) return -1
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        if (--depth === 0) return j + 1
      }
    }
    return -1
  }
  // A number, true, false or null: up to the next delimiter.
  let j = i
  while (j < bytes.length && !isDelimiter(bytes[j] as number)) j++
  return j === i ? -1 : j
}

/**
 * The offset just past the string whose opening quote is at `i`, or -1 when the bytes end first. Strings are most of
 * a catalog page's bytes: their closing quote is searched natively (Buffer.indexOf), and a quote preceded by an odd
 * run of backslashes is escaped.
 */
function skipString(bytes: Buffer, i: number): number {
  let from = i + 1
  for (;;) {
    const q = bytes.indexOf(QUOTE, from)
    if (q < 0) return -1
    let backslashes = 0
    while (bytes[q - 1 - backslashes] === BACKSLASH) backslashes++
    if (backslashes % 2 === 0) return q + 1
    from = q + 1
  }
}

function isDelimiter(c: number): boolean {
  return c === COMMA || c === CLOSE_BRACKET || c === CLOSE_BRACE || isSpace(c)
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09
}

function skipSpace(bytes: Buffer, i: number): number {
  while (i < bytes.length && isSpace(bytes[i] as number)) i++
  return i
}

/** Past a leading UTF-8 byte-order mark (which the body's text decoding drops too: http-client.ts). */
function skipByteOrderMark(bytes: Buffer): number {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0
}
