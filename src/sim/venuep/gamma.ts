import type { Clock } from '../../core/clock.js'
import type { FaultPlan } from '../faults.js'
import { SimRouter, type SimRequest } from '../http-router.js'
import type { World } from '../world/world.js'
import type { EventTag } from '../world/types.js'
import type { VpEvent, VpMarket } from './types.js'
import {
  boolParam,
  dateParam,
  idList,
  inRange,
  intParam,
  invalid,
  notFound,
  paginate,
  sortByOrder,
  stringList,
} from './gamma-query.js'
import { eventJson, GammaView, marketJson, profileJson, tagJson } from './gamma-shapes.js'
import {
  eventTotals,
  isClosed,
  isEventClosed,
  liquidityOf,
  volume24hOf,
  volumeOf,
  type EventTotals,
} from './market-stats.js'
import { guard, ok } from './wire-error.js'
import { venuepOf } from './state.js'
import { ListingSnapshots } from '../listing-snapshots.js'

/** Offset paging: a listing starts at offset 0, and its later pages read its selection (listing-snapshots.ts). */
const PAGING_PARAMS = ['offset', 'limit'] as const
const isFirstPage = (q: URLSearchParams): boolean => (intParam(q, 'offset') ?? 0) === 0

/**
 * venuep's Gamma metadata host (venuep.md §1): events, markets, tags and public profiles as bare JSON arrays
 * or objects. Lists are offset-paginated; `/markets` hides closed markets unless `closed` is given, while
 * `/events` filters on `closed` only when asked (both as observed on the real host).
 */
export function gammaRouter(world: World, clock: Clock, faults: FaultPlan): SimRouter {
  const router = new SimRouter({
    host: 'gamma',
    faults,
    errorBody: (status, message) => ({
      type: status === 404 ? 'not found error' : status === 422 ? 'validation error' : 'server error',
      error: message,
    }),
  })
  const view = () => new GammaView(world, clock.now())
  const marketListings = new ListingSnapshots<VpMarket>(PAGING_PARAMS)
  const eventListings = new ListingSnapshots<VpEvent>(PAGING_PARAMS)
  const includeTag = (req: SimRequest) => boolParam(req.query, 'include_tag') ?? false

  router.get('/status', () => ok('OK'))
  router.get(
    '/markets',
    guard((req) => ok(listMarkets(view(), req.query, marketListings))),
  )
  router.get(
    '/markets/slug/:slug',
    guard((req) => ok(marketJson(view(), marketBySlug(world, req.params.slug), includeTag(req)))),
  )
  router.get(
    '/markets/:id',
    guard((req) => ok(marketJson(view(), marketById(world, req.params.id), includeTag(req)))),
  )
  router.get(
    '/markets/:id/tags',
    guard((req) => ok(marketById(world, req.params.id).event.tags.map(tagJson))),
  )
  router.get(
    '/events',
    guard((req) => ok(listEvents(view(), req.query, eventListings))),
  )
  router.get(
    '/events/slug/:slug',
    guard((req) => ok(eventJson(view(), eventBySlug(world, req.params.slug), true))),
  )
  router.get(
    '/events/:id',
    guard((req) => ok(eventJson(view(), eventById(world, req.params.id), true))),
  )
  router.get(
    '/events/:id/tags',
    guard((req) => ok(eventById(world, req.params.id).tags.map(tagJson))),
  )
  router.get(
    '/tags',
    guard(() => ok(distinctTags(world).map(tagJson))),
  )
  router.get(
    '/public-profile',
    guard((req) => {
      const address = req.query.get('address') ?? ''
      if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw invalid('address')
      const wallet = venuepOf(world).walletsByAddress.get(address.toLowerCase())
      if (wallet === undefined) throw notFound('profile')
      return ok(profileJson(wallet))
    }),
  )
  return router
}

function param(value: string | undefined): string {
  return value ?? ''
}

function marketById(world: World, id: string | undefined): VpMarket {
  if (!/^\d+$/.test(param(id))) throw invalid('id')
  const m = venuepOf(world).marketsById.get(String(Number(id)))
  if (m === undefined) throw notFound('id')
  return m
}

function marketBySlug(world: World, slug: string | undefined): VpMarket {
  const m = venuepOf(world).marketsBySlug.get(param(slug))
  if (m === undefined) throw notFound('slug')
  return m
}

function eventById(world: World, id: string | undefined): VpEvent {
  if (!/^\d+$/.test(param(id))) throw invalid('id')
  const e = venuepOf(world).eventsById.get(String(Number(id)))
  if (e === undefined) throw notFound('id')
  return e
}

function eventBySlug(world: World, slug: string | undefined): VpEvent {
  const e = venuepOf(world).eventsBySlug.get(param(slug))
  if (e === undefined) throw notFound('slug')
  return e
}

/** Tags with an id, by id (a captured tag without one cannot be looked up or filtered by id, so `/tags` omits it). */
function distinctTags(world: World): EventTag[] {
  const byId = new Map<string, EventTag>()
  for (const e of venuepOf(world).events) for (const t of e.tags) if (t.id !== undefined) byId.set(t.id, t)
  return [...byId.values()].sort((a, b) => Number(a.id) - Number(b.id))
}

const hasTagId = (e: VpEvent, id: string): boolean => e.tags.some((t) => t.id === id)

function listMarkets(
  view: GammaView,
  q: URLSearchParams,
  listings: ListingSnapshots<VpMarket>,
): Record<string, unknown>[] {
  const { world } = view
  const ids = idList(q, 'id')
  const slugs = stringList(q, 'slug')
  const conditions = stringList(q, 'condition_ids', true)
  const tokens = stringList(q, 'clob_token_ids')
  const questionIds = stringList(q, 'question_ids', true)
  // The implicit closed=false applies even to id/slug lookups (venuep.md §1.1).
  const closed = boolParam(q, 'closed') ?? false
  const active = boolParam(q, 'active')
  const archived = boolParam(q, 'archived')
  const tagId = intParam(q, 'tag_id')
  const liquidity = inRange(q, 'liquidity_num')
  const volume = inRange(q, 'volume_num')
  const start = inRange(q, 'start_date', dateParam)
  const end = inRange(q, 'end_date', dateParam)
  const uma = q.get('uma_resolution_status')
  const sorted = listings.selection(q, isFirstPage(q), () => {
    const matches = venuepOf(world).markets.filter((m) => {
      const e = m.event
      if (ids !== undefined && !ids.has(m.id)) return false
      if (slugs !== undefined && !slugs.has(m.slug)) return false
      if (conditions !== undefined && !conditions.has(m.conditionId.toLowerCase())) return false
      if (tokens !== undefined && !tokens.has(m.tokenIds[0]) && !tokens.has(m.tokenIds[1])) return false
      if (questionIds !== undefined && (m.questionHash === undefined || !questionIds.has(m.questionHash.toLowerCase())))
        return false
      if (isClosed(m) !== closed) return false
      // Generated markets are active (but placeholders) and unarchived; a replayed one says what its capture says.
      if (active !== undefined && (m.capture?.active ?? m.active ?? true) !== active) return false
      if (archived !== undefined && (m.capture?.archived ?? false) !== archived) return false
      if (tagId !== undefined && !hasTagId(e, String(tagId))) return false
      if (liquidity !== undefined && !liquidity(liquidityOf(m))) return false
      if (volume !== undefined && !volume(volumeOf(world, m, view.now))) return false
      if (start !== undefined && !start(e.startDate)) return false
      if (end !== undefined && !end(m.endDate ?? e.endDate)) return false
      if (uma !== null && uma !== '' && umaStatus(m) !== uma) return false
      return true
    })
    return sortByOrder(
      matches,
      q,
      {
        id: (m) => Number(m.id),
        volume: (m) => volumeOf(world, m, view.now),
        volumeNum: (m) => volumeOf(world, m, view.now),
        volumeClob: (m) => volumeOf(world, m, view.now),
        volume24hr: (m) => volume24hOf(world, m, view.now),
        volume24hrClob: (m) => volume24hOf(world, m, view.now),
        liquidity: (m) => liquidityOf(m),
        liquidityNum: (m) => liquidityOf(m),
        liquidityClob: (m) => liquidityOf(m),
        startDate: (m) => m.event.startDate,
        endDate: (m) => m.endDate ?? m.event.endDate,
        createdAt: (m) => m.event.createdAt,
      },
      (m) => Number(m.id),
    )
  })
  const includeTag = boolParam(q, 'include_tag') ?? false
  return paginate(sorted, q).map((m) => marketJson(view, m, includeTag))
}

function umaStatus(m: VpMarket): string | undefined {
  if (m.capture !== undefined) return m.capture.umaResolutionStatus
  const lifecycle = m.canonical.lifecycle
  return lifecycle === 'resolved' ? 'resolved' : lifecycle === 'closed' ? 'proposed' : undefined
}

function listEvents(
  view: GammaView,
  q: URLSearchParams,
  listings: ListingSnapshots<VpEvent>,
): Record<string, unknown>[] {
  const { world } = view
  const ids = idList(q, 'id')
  const slugs = stringList(q, 'slug')
  const excluded = idList(q, 'exclude_tag_id')
  const tagId = intParam(q, 'tag_id')
  const tagSlug = q.get('tag_slug')
  const closed = boolParam(q, 'closed')
  const active = boolParam(q, 'active')
  const archived = boolParam(q, 'archived')
  const featured = boolParam(q, 'featured')
  const liquidity = inRange(q, 'liquidity')
  const volume = inRange(q, 'volume')
  const start = inRange(q, 'start_date', dateParam)
  const end = inRange(q, 'end_date', dateParam)
  const cache = new Map<VpEvent, EventTotals>()
  const totals = (e: VpEvent): EventTotals => {
    let t = cache.get(e)
    if (t === undefined) cache.set(e, (t = eventTotals(world, e, view.openInterest, view.now)))
    return t
  }
  const sorted = listings.selection(q, isFirstPage(q), () => {
    const matches = venuepOf(world).events.filter((e) => {
      if (ids !== undefined && !ids.has(e.id)) return false
      if (slugs !== undefined && !slugs.has(e.slug)) return false
      if (excluded !== undefined && e.tags.some((t) => t.id !== undefined && excluded.has(t.id))) return false
      if (tagId !== undefined && !hasTagId(e, String(tagId))) return false
      if (tagSlug !== null && tagSlug !== '' && !e.tags.some((t) => t.slug === tagSlug)) return false
      if (closed !== undefined && isEventClosed(e) !== closed) return false
      if (active !== undefined && (e.capture?.active ?? true) !== active) return false
      if (archived !== undefined && (e.capture?.archived ?? false) !== archived) return false
      if (featured === true) return false
      if (liquidity !== undefined && !liquidity(totals(e).liquidity)) return false
      if (volume !== undefined && !volume(totals(e).volume)) return false
      if (start !== undefined && !start(e.startDate)) return false
      if (end !== undefined && !end(e.endDate)) return false
      return true
    })
    return sortByOrder(
      matches,
      q,
      {
        id: (e) => Number(e.id),
        volume: (e) => totals(e).volume,
        volume24hr: (e) => totals(e).volume24hr,
        liquidity: (e) => totals(e).liquidity,
        openInterest: (e) => totals(e).openInterest,
        startDate: (e) => e.startDate,
        endDate: (e) => e.endDate,
        createdAt: (e) => e.createdAt,
      },
      (e) => Number(e.id),
    )
  })
  return paginate(sorted, q).map((e) => eventJson(view, e, true))
}
