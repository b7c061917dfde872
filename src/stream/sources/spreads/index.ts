import type { Clock } from '../../../core/clock.js'
import type { Logger } from '../../../core/logger.js'
import type { Firing } from '../../../alerts/alert-service.js'
import type { VenueId } from '../../../model/types.js'
import type { MarkerPayload } from '../../protocol.js'
import type { ChannelSource, SourceContext } from '../../source.js'
import { AlertsSource } from './alerts-source.js'
import type { SpreadReader } from './engine-feed.js'
import type { RecentFirings } from './recent-firings.js'
import { SpreadSource } from './spread-source.js'
import { SpreadsTopSource } from './top-source.js'

export { RecentFirings } from './recent-firings.js'

/**
 * The sources the spread actor and the alert outbox feed: `spread`, `spreads.top` and (with a store) `alerts`.
 * The composition root loads the recent firings before serving (`await recent.load(db)`), so the first `alerts`
 * snapshot already holds the outbox's.
 */
export interface SpreadSourcesDeps {
  readonly engine: SpreadReader
  readonly clock: Clock
  /** Where a source's failure is reported (it is contained: the spread actor goes on). */
  readonly log?: Logger | undefined
  /** The registered venues' ids, in registry order (`platforms` in a spreads.top view). */
  readonly venueIds: readonly string[]
  /**
   * The venues' continuity markers (`venue_disconnect`, `resync`), from whoever watches the feeds: relayed on the
   * spread streams of pairs with a leg on that venue and on every top view. Absent: no markers.
   */
  readonly venueMarkers?: { onMarker(listener: (venue: VenueId, d: MarkerPayload) => void): () => void } | undefined
  /** Absent without a store (no alerts): the `alerts` channel is then not served. */
  readonly alerts?:
    | {
        readonly service: { onFiring(listener: (firing: Firing) => void): () => void }
        readonly recent: RecentFirings
      }
    | undefined
}

export function spreadSources(ctx: SourceContext & SpreadSourcesDeps): ChannelSource[] {
  const { engine, clock, sequencer, log } = ctx
  const spread = new SpreadSource({ engine, clock, sequencer, log })
  const top = new SpreadsTopSource({ engine, clock, sequencer, log, venueIds: ctx.venueIds })
  ctx.venueMarkers?.onMarker((venue, d) => {
    spread.venueMarker(venue, d)
    top.venueMarker(d)
  })
  const sources: ChannelSource[] = [spread, top]
  if (ctx.alerts !== undefined)
    sources.push(new AlertsSource({ sequencer, recent: ctx.alerts.recent, firings: ctx.alerts.service }))
  return sources
}
