import { AppError } from '../../core/errors.js'
import type { ReadModels } from '../../views/read-models.js'
import type { VenueView } from '../../views/venue-view.js'
import type { VenueId } from '../../model/types.js'
import type { ListIndex, Listable, ListQuery } from '../../views/list-index.js'
import type { PageCache } from '../../views/page-cache.js'
import type { Reply } from '../reply.js'
import type { ResponseSpec } from '../route.js'
import { ErrorBody, ValidationErrorBody } from '../schemas/common.js'

/** Shared pieces of the read endpoints: readiness, errors, and the one list reply (bodies assembled from cached fragments). */
export const VALIDATION_RESPONSE: ResponseSpec = {
  description: 'Invalid parameters (one entry per problem).',
  schema: ValidationErrorBody,
}
export const NOT_READY_RESPONSE: ResponseSpec = {
  description: 'Catalogs are still loading (`not_ready`).',
  schema: ErrorBody,
}
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
export function listBody(
  key: string,
  fragments: readonly string[],
  total: number,
  limit: number,
  offset: number,
): string {
  return `{"${key}":[${fragments.join(',')}],"total":${total},"limit":${limit},"offset":${offset}}`
}

/** The paging parameters of every list (`Limit()` and `Offset()` in schemas/common.ts). */
export interface Paging {
  readonly limit: number
  readonly offset: number
}

/** One page of a list: its records in order, and how many match before `limit`/`offset` (ListIndex.query's answer). */
export interface Page<E> {
  readonly items: readonly E[]
  readonly total: number
}

/** The parameters of every list served from a read model (StatusFilter, CategoryFilter, Order... in schemas/common). */
export interface ListParams extends Paging {
  readonly status: string
  readonly category?: string | undefined
  readonly search?: string | undefined
  readonly sort: string
  readonly order: 'asc' | 'desc'
}

/** A list served from a read model: where its records are, which the route's own filters keep, how they render. */
export interface ViewList<E extends Listable> {
  /** The route's page-cache prefix, e.g. `<venue>/markets` (the validated query completes the key). */
  readonly route: string
  /** The array's key in the body (`markets`, `events`...). */
  readonly key: string
  /** What the page's bytes are valid for: the view the index belongs to (a rebuild replaces it). */
  readonly view: object
  readonly index: ListIndex<E>
  /** The records the route's id filters select; undefined when none is given. */
  readonly only?: readonly E[] | undefined
  /** A lower bound on a sort key (`min_volume`). */
  readonly atLeast?: ListQuery<E>['atLeast']
  /** The record's version (bumped by quote changes): a page is rebuilt when one of its records changed. */
  version(e: E): number
  /** The record's JSON, cached per version by the view. */
  json(e: E): string
}

/**
 * The one list handler of the read endpoints: the page for the standard filters (status, category, search, sort,
 * order, limit, offset) and the route's own (`only`, `atLeast`), answered as `{"<key>":[…],"total","limit","offset"}`
 * and reused from the page cache while the view and the versions of the page's records are the same
 * (views/page-cache.ts), else built from each record's cached JSON. A route chooses its view, filters and record.
 */
export function viewListReply<E extends Listable>(pages: PageCache, q: ListParams, list: ViewList<E>): Reply {
  const { view, only, atLeast } = list
  const page = list.index.query({
    status: q.status,
    category: q.category,
    search: q.search,
    only,
    atLeast,
    sort: q.sort,
    order: q.order,
    offset: q.offset,
    limit: q.limit,
  })
  const versions = page.items.map((e) => list.version(e))
  const build = (): string =>
    listBody(
      list.key,
      page.items.map((e) => list.json(e)),
      page.total,
      q.limit,
      q.offset,
    )
  return { status: 200, body: pages.page(queryKey(list.route, q), view, page.items, versions, build) }
}

/** The same body for rows built per request (per-request fields, store reads): nothing to cache. */
export function pageReply(key: string, q: Paging, page: Page<unknown>): Reply {
  return {
    status: 200,
    body: listBody(
      key,
      page.items.map((r) => JSON.stringify(r)),
      page.total,
      q.limit,
      q.offset,
    ),
  }
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
