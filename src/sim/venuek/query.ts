import { listParam } from '../http-router.js'
import { invalidFormat, validationFailed } from './errors.js'

/**
 * Typed access to one operation's query string with the venue's validation: out-of-range values fail with
 * the bare `{"msg":…}` body naming the operation (`GetMarkets`, …), unparsable values with a format error.
 * Absent or empty parameters are "not given", as with the venue's generated server.
 */
export class Query {
  readonly #params: URLSearchParams
  readonly #operation: string

  constructor(params: URLSearchParams, operation: string) {
    this.#params = params
    this.#operation = operation
  }

  string(name: string): string | undefined {
    const v = this.#params.get(name)
    return v === null || v.length === 0 ? undefined : v
  }

  /** Comma-separated (or repeated) values. */
  list(name: string): string[] | undefined {
    const values = listParam(this.#params, name)
    return values.length === 0 ? undefined : values
  }

  int(name: string, bounds: { min?: number; max?: number } = {}): number | undefined {
    const raw = this.string(name)
    if (raw === undefined) return undefined
    if (!/^-?\d+$/.test(raw)) throw invalidFormat(name, raw)
    const n = Number(raw)
    if (!Number.isSafeInteger(n)) throw invalidFormat(name, raw)
    if (bounds.min !== undefined && n < bounds.min) throw validationFailed(this.#operation, name, 'gte')
    if (bounds.max !== undefined && n > bounds.max) throw validationFailed(this.#operation, name, 'lte')
    return n
  }

  requiredInt(name: string, bounds: { min?: number; max?: number } = {}): number {
    const n = this.int(name, bounds)
    if (n === undefined) throw validationFailed(this.#operation, name, 'required')
    return n
  }

  /** Go's strconv.ParseBool spellings, which is what the venue's server accepts. */
  bool(name: string): boolean | undefined {
    const raw = this.string(name)
    if (raw === undefined) return undefined
    if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(raw)) return true
    if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(raw)) return false
    throw invalidFormat(name, raw)
  }

  oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
    const raw = this.string(name)
    if (raw === undefined) return undefined
    if (!(allowed as readonly string[]).includes(raw)) throw validationFailed(this.#operation, name, 'oneof')
    return raw as T
  }
}
