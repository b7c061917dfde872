import type { Method } from './server.js'

/** Methods in the order `Allow` lists them, with their wire names. */
const ALLOW_ORDER: readonly (readonly [string, string])[] = [
  ['get', 'GET'],
  ['head', 'HEAD'],
  ['post', 'POST'],
  ['put', 'PUT'],
  ['patch', 'PATCH'],
  ['del', 'DELETE'],
  ['options', 'OPTIONS'],
]

/**
 * The methods each route path answers, for the `Allow` of its OPTIONS (a CORS preflight's answer). Complete once
 * every route is registered, so `allowOf` is read when the first OPTIONS arrives and kept.
 */
export class AllowedMethods {
  readonly #methodsByPath = new Map<string, Set<Method>>()
  readonly #allowByPath = new Map<string, string>()

  /** Notes a route's method; true when its path is new (the caller registers OPTIONS on it then). */
  add(path: string, method: Method): boolean {
    let methods = this.#methodsByPath.get(path)
    const isNew = methods === undefined
    if (methods === undefined) {
      methods = new Set()
      this.#methodsByPath.set(path, methods)
    }
    methods.add(method)
    return isNew
  }

  /** `GET, HEAD, OPTIONS` and the like: HEAD wherever GET is, OPTIONS everywhere. */
  allowOf(path: string): string {
    let allow = this.#allowByPath.get(path)
    if (allow === undefined) {
      const methods = this.#methodsByPath.get(path) ?? new Set<Method>()
      allow = ALLOW_ORDER.filter(
        ([m]) => m === 'options' || methods.has(m as Method) || (m === 'head' && methods.has('get')),
      )
        .map(([, name]) => name)
        .join(', ')
      this.#allowByPath.set(path, allow)
    }
    return allow
  }
}
