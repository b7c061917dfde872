/**
 * The nesting bound of JSON request bodies, checked on the raw bytes before `JSON.parse` sees them. Deep nesting
 * is never needed (the deepest request body, an alert rule, is 3 levels) and everything recursive downstream of
 * the parser breaks on it: Ajv's validators, the walk for unstorable text, and `JSON.stringify` when a 422 echoes
 * the value (a 64 KiB body of `[` is 32,768 levels and overflowed the stack there). Refusing it up front is one
 * linear pass with no allocation; JSON.parse never runs on such a body.
 */
export const MAX_JSON_DEPTH = 32

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_ARRAY = 0x5b
const OPEN_OBJECT = 0x7b
const CLOSE_ARRAY = 0x5d
const CLOSE_OBJECT = 0x7d

/**
 * The byte offset of the first `[` or `{` that opens level `max + 1`, or -1 when the text never gets that deep.
 * Brackets inside strings do not count. The text need not be valid JSON: a bracket that closes nothing is left
 * for the parser to report.
 */
export function tooDeepAt(bytes: Uint8Array, max = MAX_JSON_DEPTH): number {
  let depth = 0
  let inString = false
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number
    if (inString) {
      if (b === BACKSLASH) i++
      else if (b === QUOTE) inString = false
    } else if (b === QUOTE) {
      inString = true
    } else if (b === OPEN_ARRAY || b === OPEN_OBJECT) {
      if (++depth > max) return i
    } else if ((b === CLOSE_ARRAY || b === CLOSE_OBJECT) && depth > 0) {
      depth--
    }
  }
  return -1
}

/** A byte offset in UTF-8 → the code point offset (Python's `JSONDecodeError.pos`): continuation bytes don't count. */
export function codePointOffset(bytes: Uint8Array, byteOffset: number): number {
  let n = 0
  for (let i = 0; i < byteOffset; i++) if (((bytes[i] as number) & 0xc0) !== 0x80) n++
  return n
}
