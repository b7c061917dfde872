/**
 * The model's records as JSON and back, exactly: they are plain JSON apart from `undefined`, which the model uses for
 * every unknown value and never `null` (src/model/types.ts), so `undefined` is written as `null` and read back as
 * `undefined` (keeping the key, as the venue's mapping made it). Used by the bus's catalog objects and the catalog
 * file a restart starts from.
 */
export const undefinedAsNull = (_key: string, value: unknown): unknown => (value === undefined ? null : value)

/**
 * Turns every `null` in a parsed record back into `undefined`, in place. Only nulls are written and only objects
 * entered (a catalog file is hundreds of MB of records: no key list per object, no store of an unchanged value).
 */
export function nullAsUndefined(v: unknown): unknown {
  if (v === null) return undefined
  if (typeof v === 'object') undefineNulls(v as object)
  return v
}

function undefineNulls(v: object): void {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i]
      if (x === null) v[i] = undefined
      else if (typeof x === 'object') undefineNulls(x as object)
    }
    return
  }
  const o = v as Record<string, unknown>
  // A parsed JSON object is a plain object: `for…in` sees its own keys only.
  for (const k in o) {
    const x = o[k]
    if (x === null) o[k] = undefined
    else if (typeof x === 'object') undefineNulls(x as object)
  }
}
