/**
 * Every integer a request may carry must have both bounds in its schema, within JavaScript's safe integers, so
 * that what passes validation is what the handler and the store can hold: an unbounded `offset` of
 * 9223372036854775808 passed (JSON numbers are doubles: it is an integer) and reached Postgres as an out-of-range
 * bigint, a 500. Checked at boot for every request schema (validation.ts), so a new route cannot forget it, and
 * the bounds are in the OpenAPI document because they are in the schema.
 */
const SCHEMA_KEYS = ['properties', 'patternProperties', '$defs', 'definitions'] as const
const SUBSCHEMA_KEYS = [
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
] as const
const LIST_KEYS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const

/** One message per integer subschema without safe bounds, naming its JSON pointer; empty when all are bounded. */
export function integerBoundProblems(schema: unknown): string[] {
  const out: string[] = []
  visit(schema, '', out)
  return out
}

function visit(node: unknown, pointer: string, out: string[]): void {
  if (Array.isArray(node)) {
    // `items` as a list of schemas (a tuple).
    node.forEach((sub, i) => visit(sub, `${pointer}/${i}`, out))
    return
  }
  if (typeof node !== 'object' || node === null) return
  const s = node as Record<string, unknown>
  const types = Array.isArray(s.type) ? s.type : [s.type]
  // An enum or const lists its values: nothing unbounded can pass.
  if (types.includes('integer') && !('enum' in s) && !('const' in s)) {
    const low = bound(s.minimum, s.exclusiveMinimum)
    const high = bound(s.maximum, s.exclusiveMaximum)
    if (low === undefined || high === undefined)
      out.push(`integer at "${pointer || '/'}" needs a minimum and a maximum`)
    else if (!Number.isSafeInteger(Math.trunc(low)) || !Number.isSafeInteger(Math.trunc(high)))
      out.push(`integer at "${pointer || '/'}" has bounds beyond ±2^53`)
  }
  for (const key of SCHEMA_KEYS) {
    const map = s[key]
    if (typeof map === 'object' && map !== null)
      for (const [name, sub] of Object.entries(map)) visit(sub, `${pointer}/${key}/${name}`, out)
  }
  for (const key of SUBSCHEMA_KEYS) visit(s[key], `${pointer}/${key}`, out)
  for (const key of LIST_KEYS) {
    const list = s[key]
    if (Array.isArray(list)) list.forEach((sub, i) => visit(sub, `${pointer}/${key}/${i}`, out))
  }
}

function bound(inclusive: unknown, exclusive: unknown): number | undefined {
  if (typeof inclusive === 'number') return inclusive
  if (typeof exclusive === 'number') return exclusive
  return undefined
}
