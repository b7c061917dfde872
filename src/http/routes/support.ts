import { AppError } from '../../core/errors.js'
import type { ReadModels } from '../../views/read-models.js'
import type { VenueView } from '../../views/venue-view.js'
import type { VenueId } from '../../model/types.js'
import type { ResponseSpec } from '../route.js'
import { ErrorBody, ValidationErrorBody } from '../schemas/common.js'

/** Shared pieces of the read endpoints: readiness, errors, and list bodies assembled from cached fragments. */
export const VALIDATION_RESPONSE: ResponseSpec = { description: 'Invalid parameters (one entry per problem).', schema: ValidationErrorBody }
export const NOT_READY_RESPONSE: ResponseSpec = { description: 'Catalogs are still loading (`not_ready`).', schema: ErrorBody }
export const NOT_FOUND_RESPONSE: ResponseSpec = { description: 'Unknown identifier (`not_found`).', schema: ErrorBody }

export function viewOrNotReady(models: ReadModels, venue: VenueId): VenueView {
  const view = models.view(venue)
  if (view === undefined) throw new AppError(503, 'not_ready', `the ${venue} catalog is still loading`)
  return view
}

export function notFound(detail: string): AppError {
  return new AppError(404, 'not_found', detail)
}

/** `{"<key>":[…fragments…],"total":…,"limit":…,"offset":…}` without re-serializing the fragments. */
export function listBody(key: string, fragments: readonly string[], total: number, limit: number, offset: number): string {
  return `{"${key}":[${fragments.join(',')}],"total":${total},"limit":${limit},"offset":${offset}}`
}

/** Unique values of `items` (keeps first occurrence order). */
export function unique<T>(items: Iterable<T>): T[] {
  return [...new Set(items)]
}

/** Records that are in every given list (undefined lists don't restrict). Keeps the first list's order. */
export function intersect<T>(...lists: (readonly T[] | undefined)[]): T[] | undefined {
  const given = lists.filter((l): l is readonly T[] => l !== undefined)
  if (given.length === 0) return undefined
  const [first, ...rest] = given as [readonly T[], ...(readonly T[])[]]
  const sets = rest.map((l) => new Set(l))
  return unique(first).filter((x) => sets.every((s) => s.has(x)))
}

const QUERY_KEYS = new WeakMap<object, string>()

/**
 * `<prefix>?<the validated query as JSON>`, the key of a response in the page cache. Remembered per input object:
 * validation hands a route the same frozen object for the same query string (validation.ts, memoizedByQuery),
 * so a repeated query neither re-serializes its parameters nor hashes a new key string.
 */
export function queryKey(prefix: string, query: object): string {
  let key = QUERY_KEYS.get(query)
  if (key === undefined) {
    key = `${prefix}?${JSON.stringify(query)}`
    QUERY_KEYS.set(query, key)
  }
  return key
}
