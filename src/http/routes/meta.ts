import { Type } from '@sinclair/typebox'
import { buildBusAsyncApi } from '../../bus/bus-asyncapi.js'
import { buildAsyncApi } from '../asyncapi.js'
import { DOCS_CSP, renderDocs } from '../docs-page.js'
import type { OpenApiDocument } from '../openapi.js'
import { CACHING } from '../caching.js'
import { defineRoute, type AnyRoute } from '../route.js'

/**
 * The API's own description: `GET /api/v2/openapi.json` (OpenAPI 3.1, version 2.0.0), `GET /api/v2/asyncapi.json`
 * (AsyncAPI 3.0: the WebSocket stream, which OpenAPI cannot describe) and `GET /docs` (an HTML page). All are
 * public (docs/DESIGN.md, Auth).
 *
 * `getOpenApi` is called lazily, on the first request, because the document describes every route, these
 * two included, so it can only be built after the route list exists. The JSON and the HTML are then built
 * once and served as the same bytes to every request.
 *
 * @example
 * const routes = [...dataRoutes, ...metaRoutes(() => openapi)]
 * const openapi = buildOpenApi(routes, { title: 'Prediction Market Data API' })
 * registerRoutes(http, routes)
 */
export function metaRoutes(getOpenApi: () => object): AnyRoute[] {
  // Bytes, not strings: the same object every time, so its ETag and compressed forms are computed once
  // (representation.ts).
  let json: Uint8Array | undefined
  let asyncJson: Uint8Array | undefined
  let busJson: Uint8Array | undefined
  let html: Uint8Array | undefined
  return [
    defineRoute({
      method: 'get',
      path: '/api/v2/openapi.json',
      operationId: 'getOpenApi',
      summary: 'OpenAPI 3.1 description of this API',
      description: 'Generated from the schemas that validate requests, so it always matches the server.',
      tags: ['meta'],
      public: true,
      caching: CACHING.publicDocs,
      responses: { 200: { description: 'The OpenAPI document.', schema: OpenApiShape } },
      handler: () => ({ status: 200, body: (json ??= Buffer.from(JSON.stringify(getOpenApi()), 'utf8')) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v2/asyncapi.json',
      operationId: 'getAsyncApi',
      summary: 'AsyncAPI 3.0 description of the stream (`/api/v2/stream`)',
      description:
        'The WebSocket protocol: channels, every frame and command, error and close codes, auth. Built from the names the stream server uses.',
      tags: ['meta'],
      public: true,
      caching: CACHING.publicDocs,
      responses: { 200: { description: 'The AsyncAPI document.', schema: AsyncApiShape } },
      handler: () => ({ status: 200, body: (asyncJson ??= Buffer.from(JSON.stringify(buildAsyncApi()), 'utf8')) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v2/bus-asyncapi.json',
      operationId: 'getBusAsyncApi',
      summary: 'AsyncAPI 3.0 description of the ingest–edge bus (NATS)',
      description:
        'For operators running more than one process (`ROLE=ingest` and `ROLE=edge`): the broker subjects, what each carries, and what JetStream keeps. Clients never need it.',
      tags: ['meta'],
      public: true,
      caching: CACHING.publicDocs,
      responses: { 200: { description: 'The AsyncAPI document of the bus.', schema: AsyncApiShape } },
      handler: () => ({ status: 200, body: (busJson ??= Buffer.from(JSON.stringify(buildBusAsyncApi()), 'utf8')) }),
    }),
    defineRoute({
      method: 'get',
      path: '/docs',
      operationId: 'getDocs',
      summary: 'Human-readable API reference',
      description: 'A self-contained HTML page rendered from the OpenAPI document.',
      tags: ['meta'],
      public: true,
      caching: CACHING.publicDocs,
      responses: { 200: { description: 'The reference page.', contentType: 'text/html' } },
      handler: () => ({
        status: 200,
        body: (html ??= Buffer.from(renderDocs(getOpenApi() as OpenApiDocument), 'utf8')),
        contentType: 'text/html; charset=utf-8',
        // The page needs nothing but its inline CSS (allowed by hash); forbidding the rest makes any escaping slip harmless.
        headers: DOCS_HEADERS,
      }),
    }),
  ]
}

const DOCS_HEADERS = [['content-security-policy', DOCS_CSP]] as const

const OpenApiShape = Type.Object(
  {
    openapi: Type.String(),
    info: Type.Object(
      { title: Type.String(), version: Type.String(), description: Type.Optional(Type.String()) },
      { additionalProperties: true },
    ),
    paths: Type.Object({}, { additionalProperties: true }),
  },
  { additionalProperties: true },
)

const AsyncApiShape = Type.Object(
  {
    asyncapi: Type.String(),
    info: Type.Object({ title: Type.String(), version: Type.String() }, { additionalProperties: true }),
    channels: Type.Object({}, { additionalProperties: true }),
    operations: Type.Object({}, { additionalProperties: true }),
  },
  { additionalProperties: true },
)
