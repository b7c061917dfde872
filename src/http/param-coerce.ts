/**
 * Parameter strings → typed values, following pydantic's lax mode (what FastAPI applied to query, path and
 * header parameters), done here instead of by Ajv's `coerceTypes` for three reasons:
 * 1. Ajv's coercion is per instance, and JSON bodies must not be coerced (Ajv would turn `null` into `""` and
 *    `5` into `"5"`), while the service keeps one Ajv instance;
 * 2. Ajv accepts what FastAPI rejects: `limit=0x10` would be 16, `limit=1e2` 100;
 * 3. Ajv rejects what FastAPI accepts: booleans `1`, `yes`, `on`, `t`; integers `1_000` and `25.0`.
 * A string that does not parse is left as it is, so the schema's `type` fails and the 422 entry says
 * `int_parsing` / `float_parsing` / `bool_parsing` with the raw string as `input`.
 *
 * Deliberate difference from pydantic: `inf`, `infinity` and `nan` are not numbers here (pydantic's default
 * accepts them); a NaN bound such as `min_spread=nan` would silently disable a filter.
 */
export type Coerce = (raw: string) => unknown

type Scalar = 'string' | 'integer' | 'number' | 'boolean' | 'null'

const INTEGER = /^[+-]?\d+(?:_\d+)*(?:\.0*)?$/
const NUMBER = /^[+-]?(?:\d+(?:_\d+)*(?:\.(?:\d+(?:_\d+)*)?)?|\.\d+(?:_\d+)*)(?:[eE][+-]?\d+)?$/
const TRUE = new Set(['1', 'on', 't', 'true', 'y', 'yes'])
const FALSE = new Set(['0', 'off', 'f', 'false', 'n', 'no'])

/** The coercion for one parameter schema, or undefined when the value stays a string. */
export function coercerFor(schema: unknown): Coerce | undefined {
  const kinds = scalarKinds(schema)
  if (kinds === undefined)
    throw new Error('parameters must be scalars (string, integer, number, boolean); use Csv() for lists')
  if (kinds.has('string')) return undefined
  const numeric = kinds.has('number') ? parseNumber : kinds.has('integer') ? parseInteger : undefined
  const bool = kinds.has('boolean') ? parseBoolean : undefined
  if (numeric !== undefined && bool !== undefined) return (raw) => numeric(raw) ?? bool(raw) ?? raw
  if (numeric !== undefined) return (raw) => numeric(raw) ?? raw
  if (bool !== undefined) return (raw) => bool(raw) ?? raw
  return undefined
}

function parseInteger(raw: string): number | undefined {
  const s = raw.trim()
  if (!INTEGER.test(s)) return undefined
  return Number(s.replace(/_/g, '').replace(/\.0*$/, ''))
}

function parseNumber(raw: string): number | undefined {
  const s = raw.trim()
  if (!NUMBER.test(s)) return undefined
  return Number(s.replace(/_/g, ''))
}

function parseBoolean(raw: string): boolean | undefined {
  const s = raw.trim().toLowerCase()
  if (TRUE.has(s)) return true
  if (FALSE.has(s)) return false
  return undefined
}

/**
 * The JSON types a parameter schema admits, looking through `anyOf`/`oneOf` (nullable, literal unions) and at
 * `const`/`enum` values; undefined when it admits an object or array, which a query string cannot carry.
 */
function scalarKinds(schema: unknown): Set<Scalar> | undefined {
  const kinds = new Set<Scalar>()
  const visit = (s: unknown): boolean => {
    if (typeof s !== 'object' || s === null) return true
    const o = s as { type?: unknown; anyOf?: unknown[]; oneOf?: unknown[]; const?: unknown; enum?: unknown[] }
    const types = Array.isArray(o.type) ? o.type : o.type === undefined ? [] : [o.type]
    for (const t of types) {
      if (t === 'object' || t === 'array') return false
      kinds.add(t as Scalar)
    }
    const values = 'const' in o ? [o.const] : Array.isArray(o.enum) ? o.enum : []
    for (const v of values)
      kinds.add(v === null ? 'null' : typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'boolean' : 'string')
    for (const branch of [...(o.anyOf ?? []), ...(o.oneOf ?? [])]) if (!visit(branch)) return false
    return true
  }
  if (!visit(schema)) return undefined
  // An unconstrained schema (`Type.Unknown()`) receives the string as sent.
  if (kinds.size === 0) kinds.add('string')
  return kinds
}
