import type { Registry } from 'prom-client'
import { METRICS_CONTENT_TYPE } from '../../metrics.js'
import type { Reply } from '../reply.js'
import { CACHING } from '../caching.js'
import { defineRoute, type AnyRoute } from '../route.js'

/**
 * `GET /metrics`: Prometheus text exposition (src/metrics.ts). Public like /healthz: it is for the operator's
 * scraper, shows no user data, and a scraper has no API key. Put it behind the network edge in production.
 */
export function metricsRoutes(registry: Registry): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/metrics',
      operationId: 'metrics',
      summary: 'Prometheus metrics',
      description:
        'Feed state and ingest counters per venue, actor mailboxes, spread engine, page cache, HTTP responses and latency, venue upstreams.',
      tags: ['operations'],
      public: true,
      caching: CACHING.none,
      responses: { 200: { description: 'Prometheus text format 0.0.4.', contentType: METRICS_CONTENT_TYPE } },
      handler: async (): Promise<Reply> => ({
        status: 200,
        body: await registry.metrics(),
        contentType: METRICS_CONTENT_TYPE,
      }),
    }),
  ]
}
