/**
 * Regular-expression pieces for the feeds' parse fast paths (the venues' frame scanners, `*-scan.ts`), which
 * check a frame's whole layout before reading values at fixed offsets. Each matches only text that JSON.parse reads as it is, so a value sliced out of a matched frame is the value
 * JSON.parse would give.
 */

/** A string's contents without escapes or control characters (between the quotes). */
export const JSON_PLAIN_STRING = '[^"\\\\\\x00-\\x1f]*'
/** The same without `}`, for members whose end is found by the next `}`. */
export const JSON_PLAIN_STRING_NO_BRACE = '[^"\\\\\\x00-\\x1f}]*'
/** A JSON integer (no fraction, no exponent). */
export const JSON_INT = '-?(?:0|[1-9][0-9]*)'
/** Any JSON number. */
export const JSON_NUMBER = `${JSON_INT}(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?`
/** JSON whitespace, allowed around a frame. */
export const JSON_WS = '[ \\t\\n\\r]*'
