import { CACHING } from '../http/caching.js'
import { defineRoute, type AnyRoute } from '../http/route.js'
import type { DashboardAsset } from './assets.js'
import { DASHBOARD_CSP, renderDashboardPage, type DashboardPageInfo } from './page.js'

/**
 * `GET /` (the live dashboard, issue 22) and its assets, as ordinary routes so HttpServer's caching, ETags, 304s and
 * compression apply to them as to /docs. One route per asset, at a fixed path: nothing a request names is read
 * from disk, and every other path under `/ui/` is the catch-all's JSON 404.
 *
 * All public (the page asks for a key itself, and only the stream and the data routes need one), revalidated
 * (`public, no-cache`: a deploy shows at once, an unchanged file costs a 304), and under the page's CSP. The page
 * and the assets are left out of the OpenAPI document (app.ts registers them beside the documented routes): they
 * are the service's UI, not its API.
 */
export interface DashboardRoutes {
  readonly page: AnyRoute
  readonly assets: readonly AnyRoute[]
}

export function dashboardRoutes(info: DashboardPageInfo, assets: readonly DashboardAsset[]): DashboardRoutes {
  const html = Buffer.from(renderDashboardPage(info), 'utf8')
  const page = defineRoute({
    method: 'get',
    path: '/',
    operationId: 'getDashboard',
    summary: 'Live dashboard',
    description:
      'Top spreads, the selected pair (history, both books, match evidence) and venue health, over the stream.',
    tags: ['meta'],
    public: true,
    caching: CACHING.publicDocs,
    responses: { 200: { description: 'The dashboard page.', contentType: 'text/html' } },
    handler: () => ({ status: 200, body: html, contentType: 'text/html; charset=utf-8', headers: CSP_HEADERS }),
  })
  return {
    page,
    assets: assets.map((asset) =>
      defineRoute({
        method: 'get',
        path: asset.path,
        operationId: `dashboardAsset ${asset.path}`,
        summary: `Dashboard asset ${asset.path}`,
        tags: [],
        public: true,
        caching: CACHING.publicDocs,
        responses: { 200: { description: 'The file.', contentType: asset.contentType } },
        handler: () => ({ status: 200, body: asset.bytes, contentType: asset.contentType, headers: CSP_HEADERS }),
      }),
    ),
  }
}

const CSP_HEADERS = [['content-security-policy', DASHBOARD_CSP]] as const
