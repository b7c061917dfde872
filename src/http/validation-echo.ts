/**
 * What a 422 entry echoes as `input` (and the keys it names in `loc`), shortened so that the echo of a hostile
 * value can never be big or deep: pydantic echoes the value whole, but a 64 KiB string repeated once per problem,
 * or a deeply nested value stringified recursively, turns a small bad request into a large (or failing) response.
 * Values are kept as they are otherwise, so a client still recognises what it sent:
 * - strings longer than ECHO_STRING_MAX characters: their start, then `…`; all the strings and keys of one echo
 *   share ECHO_TEXT_BUDGET characters, and those past it are cut the same way;
 * - arrays and objects: their first ECHO_ENTRIES_MAX entries, then `"… N more items"` (an array's last item) or
 *   `"…": "N more keys"` (an object's last key);
 * - an array or object nested ECHO_DEPTH_MAX levels inside the echo: `"[…]"` or `"{…}"`.
 * So one echo is at most about 2 KB of JSON and 2 levels deep, whatever was sent.
 */
export const ECHO_STRING_MAX = 200
export const ECHO_TEXT_BUDGET = 1_000
export const ECHO_ENTRIES_MAX = 10
export const ECHO_DEPTH_MAX = 2

export function echo(value: unknown): unknown {
  let budget = ECHO_TEXT_BUDGET
  const text = (s: string): string => {
    const out = shorten(s, Math.min(ECHO_STRING_MAX, budget))
    budget = Math.max(0, budget - s.length)
    return out
  }
  const bounded = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return text(v)
    if (typeof v !== 'object' || v === null) return v
    if (Array.isArray(v)) {
      if (depth >= ECHO_DEPTH_MAX) return '[…]'
      const out = v.slice(0, ECHO_ENTRIES_MAX).map((item) => bounded(item, depth + 1))
      if (v.length > ECHO_ENTRIES_MAX) out.push(`… ${v.length - ECHO_ENTRIES_MAX} more items`)
      return out
    }
    if (depth >= ECHO_DEPTH_MAX) return '{…}'
    const keys = Object.keys(v)
    const entries: [string, unknown][] = keys
      .slice(0, ECHO_ENTRIES_MAX)
      .map((k) => [text(k), bounded((v as Record<string, unknown>)[k], depth + 1)])
    if (keys.length > ECHO_ENTRIES_MAX) entries.push(['…', `${keys.length - ECHO_ENTRIES_MAX} more keys`])
    // fromEntries defines own properties: a `__proto__` key stays a key instead of setting the prototype.
    return Object.fromEntries(entries)
  }
  return bounded(value, 0)
}

/** `s` cut to `max` characters plus `…` when longer, never between the two halves of a surrogate pair. */
export function shorten(s: string, max = ECHO_STRING_MAX): string {
  if (s.length <= max) return s
  const last = s.charCodeAt(max - 1)
  const end = last >= 0xd800 && last <= 0xdbff ? max - 1 : max
  return `${s.slice(0, end)}…`
}
