import type { Static, TObject, TSchema } from '@sinclair/typebox'
import type { Caching } from './caching.js'
import type { Reply } from './reply.js'
import type { Method, RequestContext } from './server.js'

/**
 * A route declared once with TypeBox schemas. The same schemas validate requests (one Ajv instance, compiled
 * at boot, see validation.ts), type the handler's input, and generate the OpenAPI document (openapi.ts).
 *
 * Query strings are coerced (integers, numbers, booleans) and defaulted; a property whose schema carries
 * `x-csv: true` (see `Csv()` in schemas/common.ts) is a comma-separated list and reaches the handler as
 * `string[]`. Invalid input never reaches the handler: it gets a 422 with one entry per problem.
 */
export interface ResponseSpec {
  readonly description: string
  /** Body schema (JSON). Omitted for bodies that are not JSON. */
  readonly schema?: TSchema
  /** Response headers worth documenting (name → description). */
  readonly headers?: Readonly<Record<string, string>>
  /** Media type when not JSON (e.g. text/html for /docs). */
  readonly contentType?: string
}

/** What the handler receives: validated, coerced, defaulted input. CSV properties arrive split into arrays. */
export interface RouteInput<Q, P, H, B> {
  readonly query: Q
  readonly params: P
  readonly headers: H
  readonly body: B
}

/** Replaces CSV string properties (schemas with `x-csv: true`) by string arrays in the static type. */
export type WithCsv<T> = {
  [K in keyof T]: T[K] extends CsvString ? string[] : T[K] extends CsvString | undefined ? string[] | undefined : T[K]
}

/** Brand for CSV string properties (see `Csv()` in schemas/common.ts). */
export type CsvString = string & { readonly __csv: true }

export interface RouteSpec<
  Q extends TObject = TObject,
  P extends TObject = TObject,
  H extends TObject = TObject,
  B extends TSchema = TSchema,
> {
  readonly method: Method
  /** uWS pattern, `:name` for path parameters (documented as `{name}` in OpenAPI). */
  readonly path: string
  readonly operationId: string
  readonly summary: string
  readonly description?: string
  readonly tags: readonly string[]
  readonly query?: Q
  readonly params?: P
  /** Request headers, lowercase names. */
  readonly headers?: H
  /** JSON request body (requires `content-type: application/json`). */
  readonly body?: B
  readonly responses: Readonly<Record<number, ResponseSpec>>
  /** Public routes need no API key (issue 4's auth applies to the others). */
  readonly public?: boolean
  /**
   * GET routes: Cache-Control of their 200s and whether they carry an ETag (caching.ts `CACHING`); `CACHING.live`
   * when unset.
   */
  readonly caching?: Caching
  readonly handler: (
    input: RouteInput<WithCsv<Static<Q>>, Static<P>, Static<H>, Static<B>>,
    ctx: RequestContext,
  ) => Reply | Promise<Reply>
}

/** Identity helper that keeps the schema generics inferred at the declaration site. */
export function defineRoute<Q extends TObject, P extends TObject, H extends TObject, B extends TSchema>(
  spec: RouteSpec<Q, P, H, B>,
): RouteSpec<Q, P, H, B> {
  return spec
}

/** A route with its generics erased, for registries and the OpenAPI builder. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute = RouteSpec<any, any, any, any>
