import { money } from '../core/money.js'
import type { VenueId } from '../model/types.js'
import { runToEnd, type Steps } from '../core/slices.js'
import { VIEW_CHECKPOINT_EVERY, type EventDirectory, type ServiceEvent } from './event-directory.js'
import { leadingIndex, type LeadCandidate } from './leading.js'
import { ListIndex, type SortKeys } from './list-index.js'
import { outcomePrice } from './outcome-price.js'
import { iso } from './records.js'
import type { MarketEntry, VenueView } from './venue-view.js'

/**
 * The collapsed cross-venue event list (`GET /api/v2/events`): one row per service event with its leading
 * outcome (leading.ts: the highest probability among its open outcomes on any venue, ties by volume, then by
 * outcome id), aggregated volume and platforms.
 * Rows are cached as JSON until a quote of one of the event's outcomes changes.
 */
export interface CollapsedEntry {
  readonly id: string
  readonly status: string
  readonly category: string
  readonly event: ServiceEvent
  readonly markets: readonly { readonly venue: VenueId; readonly entry: MarketEntry; readonly view: VenueView }[]
  fragment: string | undefined
  fragmentVersion: number
}

const SORT_KEYS: SortKeys<CollapsedEntry> = {
  // Money keys sort on the printed (cent) value, so rows showing equal volumes are ordered by id as documented.
  volume: (e) => money(e.event.volumeTotal) ?? undefined,
  volume_24h: (e) => money(e.event.volume24h) ?? undefined,
  updated_at: (e) => e.event.updatedAt,
  end_time: (e) => e.event.endTime,
  created_at: (e) => e.event.createdAt,
}

export class CollapsedView {
  readonly directory: EventDirectory
  readonly index: ListIndex<CollapsedEntry>

  private constructor(directory: EventDirectory, entries: readonly CollapsedEntry[]) {
    this.directory = directory
    this.index = new ListIndex(entries, SORT_KEYS, (e) => e.event.title)
  }

  static create(directory: EventDirectory, views: ReadonlyMap<VenueId, VenueView>): CollapsedView {
    return runToEnd(CollapsedView.build(directory, views))
  }

  /** The view, built in slices; warmed with what `previous` (the view it replaces) had built on demand. */
  static *build(
    directory: EventDirectory,
    views: ReadonlyMap<VenueId, VenueView>,
    previous?: CollapsedView,
  ): Steps<CollapsedView> {
    const entries: CollapsedEntry[] = []
    for (const event of directory.events) {
      const markets: { venue: VenueId; entry: MarketEntry; view: VenueView }[] = []
      for (const ce of event.members) {
        const venue = ce.venue
        const view = views.get(venue)
        if (view === undefined) continue
        for (const m of ce.markets) {
          const entry = view.marketById.get(m.marketId)
          if (entry !== undefined) markets.push({ venue, entry, view })
        }
      }
      entries.push({
        id: event.slug,
        status: event.status,
        category: event.category,
        event,
        markets,
        fragment: undefined,
        fragmentVersion: -1,
      })
      if (entries.length % VIEW_CHECKPOINT_EVERY === 0) yield
    }
    const view = new CollapsedView(directory, entries)
    yield* view.index.prepareSteps()
    yield* view.index.warmSteps(previous?.index)
    return view
  }

  version(e: CollapsedEntry): number {
    let v = 0
    for (const m of e.markets) v += m.entry.version
    return v
  }

  json(e: CollapsedEntry): string {
    const v = this.version(e)
    if (e.fragment === undefined || e.fragmentVersion !== v) {
      e.fragmentVersion = v
      e.fragment = JSON.stringify(this.record(e))
    }
    return e.fragment
  }

  record(e: CollapsedEntry): Record<string, unknown> {
    const ev = e.event
    return {
      event_slug: ev.slug,
      title: ev.title,
      category: ev.category,
      status: ev.status,
      leading_outcome: this.#leading(e),
      volume_total: money(ev.volumeTotal),
      volume_24h: money(ev.volume24h),
      platform_count: ev.platforms.length,
      platforms: ev.platforms,
      end_time: iso(ev.endTime),
      created_at: iso(ev.createdAt),
      updated_at: iso(ev.updatedAt),
    }
  }

  #leading(e: CollapsedEntry): Record<string, unknown> | null {
    const found: { venue: VenueId; title: string }[] = []
    const candidates: LeadCandidate[] = []
    for (const m of e.markets) {
      for (const o of m.entry.market.outcomes) {
        found.push({ venue: m.venue, title: o.title })
        candidates.push({
          open: o.status === 'active',
          probability: outcomePrice(o, m.view.quoteOf(o.instrumentId)).probability,
          volume: m.view.outcomeVolume(o),
          id: o.outcomeId,
        })
      }
    }
    const i = leadingIndex(candidates)
    const best = candidates[i]
    // An unknown probability ranks last: when it leads, no outcome has a price to show.
    if (best === undefined || best.probability === undefined) return null
    const { venue, title } = found[i] as { venue: VenueId; title: string }
    return { title, probability: best.probability, platform: venue, outcome_id: best.id }
  }
}
