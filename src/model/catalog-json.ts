/**
 * The model's records as JSON and back, exactly: they are plain JSON apart from `undefined`, which the model uses for
 * every unknown value and never `null` (src/model/types.ts), so `undefined` is written as `null` and read back as
 * `undefined` (keeping the key, as the venue's mapping made it). Used by the bus's catalog objects and the catalog
 * file a restart starts from.
 */
export const undefinedAsNull = (_key: string, value: unknown): unknown => (value === undefined ? null : value)

/** Turns every `null` in a parsed record back into `undefined`, in place. */
export function nullAsUndefined(v: unknown): unknown {
  if (v === null) return undefined
  if (typeof v !== 'object') return v
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = nullAsUndefined(v[i])
    return v
  }
  const o = v as Record<string, unknown>
  for (const k of Object.keys(o)) o[k] = nullAsUndefined(o[k])
  return o
}
