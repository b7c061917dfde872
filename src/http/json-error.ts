/**
 * Locates the first syntax error of a JSON text that `JSON.parse` rejected, with Python's `json` messages,
 * because FastAPI's `json_invalid` entry carries that position in `loc` (`["body", 13]`) and that message in
 * `ctx.error` ("Expecting value", "Expecting ',' delimiter"...). V8's own messages are neither stable nor always
 * positioned ("Unexpected token '}', ... is not valid JSON"), so we rescan.
 *
 * Only called after `JSON.parse` failed, so it is off the hot path. It is iterative (an explicit stack) because a
 * hostile body of 64 KiB of `[` would overflow a recursive scanner.
 */
export interface JsonSyntaxError {
  /** Offset of the problem in code points (Python's `JSONDecodeError.pos`). */
  readonly position: number
  readonly message: string
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/y
const LITERALS = ['true', 'false', 'null'] as const
const SIMPLE_ESCAPES = '"\\/bfnrt'

class Fail {
  constructor(
    readonly index: number,
    readonly message: string,
  ) {}
}

export function findJsonError(text: string): JsonSyntaxError {
  try {
    scan(text)
  } catch (err) {
    if (err instanceof Fail) return { position: codePointIndex(text, err.index), message: err.message }
    throw err
  }
  // JSON.parse rejected what this scanner accepts: should not happen; report the start rather than nothing.
  return { position: 0, message: 'Expecting value' }
}

function scan(text: string): void {
  const stack: ('array' | 'object')[] = []
  let i = skipWs(text, 0)
  for (;;) {
    // A value starts at i.
    const ch = text[i]
    if (ch === '{') {
      i = skipWs(text, i + 1)
      if (text[i] === '}') {
        i++
      } else {
        i = member(text, i)
        stack.push('object')
        continue
      }
    } else if (ch === '[') {
      i = skipWs(text, i + 1)
      if (text[i] === ']') {
        i++
      } else {
        stack.push('array')
        continue
      }
    } else if (ch === '"') {
      i = scanString(text, i)
    } else {
      i = scanScalar(text, i)
    }
    // After a complete value: close containers or move to the next element.
    for (;;) {
      i = skipWs(text, i)
      const top = stack[stack.length - 1]
      if (top === undefined) {
        if (i < text.length) throw new Fail(i, 'Extra data')
        return
      }
      const c = text[i]
      if (c === ',') {
        i = skipWs(text, i + 1)
        if (top === 'object') i = member(text, i)
        break
      }
      if ((top === 'array' && c === ']') || (top === 'object' && c === '}')) {
        stack.pop()
        i++
        continue
      }
      throw new Fail(i, "Expecting ',' delimiter")
    }
  }
}

/** `"key" :` starting at i; returns the index where the member's value starts. */
function member(text: string, i: number): number {
  if (text[i] !== '"') throw new Fail(i, 'Expecting property name enclosed in double quotes')
  i = skipWs(text, scanString(text, i))
  if (text[i] !== ':') throw new Fail(i, "Expecting ':' delimiter")
  return skipWs(text, i + 1)
}

function scanString(text: string, start: number): number {
  let i = start + 1
  for (;;) {
    if (i >= text.length) throw new Fail(start, 'Unterminated string starting at')
    const c = text.charCodeAt(i)
    if (c === 0x22) return i + 1
    if (c < 0x20) throw new Fail(i, 'Invalid control character at')
    if (c !== 0x5c) {
      i++
      continue
    }
    const esc = text[i + 1]
    if (esc === undefined) throw new Fail(start, 'Unterminated string starting at')
    if (esc === 'u') {
      if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) throw new Fail(i, 'Invalid \\uXXXX escape')
      i += 6
    } else if (SIMPLE_ESCAPES.includes(esc)) {
      i += 2
    } else {
      throw new Fail(i, 'Invalid \\escape')
    }
  }
}

function scanScalar(text: string, i: number): number {
  NUMBER.lastIndex = i
  if (NUMBER.test(text)) return NUMBER.lastIndex
  for (const lit of LITERALS) if (text.startsWith(lit, i)) return i + lit.length
  throw new Fail(i, 'Expecting value')
}

function skipWs(text: string, i: number): number {
  while (i < text.length) {
    const c = text.charCodeAt(i)
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break
    i++
  }
  return i
}

/** UTF-16 index → code point index (they differ only after astral characters). */
function codePointIndex(text: string, index: number): number {
  let n = 0
  for (let i = 0; i < index; i++) {
    const c = text.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < index) i++
    n++
  }
  return n
}
