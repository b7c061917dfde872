import type { MarkerPayload, VenueFeedState } from '../../stream/protocol.js'

/**
 * Each venue's health as the page shows it, from what the stream says: the `venue` channel (`state`, `age_ms`,
 * `reconnects`, `gaps`), every `hb` (state and data age, each second), and the continuity markers of the streams
 * the page holds (`venue_disconnect` on a stream until its `resync`). Pure, so its rules are unit-tested
 * (test/dashboard/venue-health.test.ts):
 *
 * - `down`: the feed says down, or nothing is known of it yet;
 * - `degraded`: the feed says degraded, a stream the page holds is disconnected by a marker, or the data is older
 *   than DEGRADED_AGE_MS by the page's own count (the data age grows between reports: a stream that stopped
 *   reporting, or a page that lost its socket, turns the venue degraded instead of freezing a good state);
 * - `ok` otherwise.
 */
export type Health = 'ok' | 'degraded' | 'down'

/** The server's own threshold for a feed with no frame (src/stream/sources/market/venue-state.ts). */
export const DEGRADED_AGE_MS = 5_000

export interface VenueReport {
  readonly state: VenueFeedState
  readonly age_ms: number | null
  readonly reconnects?: number
  readonly gaps?: number
}

export interface VenueView {
  readonly venue: string
  readonly health: Health
  /** What the state word says (e.g. "ok", "degraded", "down", "no data yet"). */
  readonly stateText: string
  /** The data age now, by the last report plus the time since; undefined when none was reported. */
  readonly ageMs: number | undefined
  readonly reconnects: number | undefined
  readonly gaps: number | undefined
  /** Why it is not ok, when a marker or the page's own count says so. */
  readonly reason: string | undefined
}

interface VenueEntry {
  feed: VenueFeedState | undefined
  ageMs: number | null
  /** When `ageMs` was reported (page time). */
  reportedAt: number
  reconnects: number | undefined
  gaps: number | undefined
  /** Streams (`ch key`) that got `venue_disconnect` and no `resync` since, with the reason. */
  readonly disconnected: Map<string, string>
}

export class VenueHealth {
  readonly #venues = new Map<string, VenueEntry>()

  constructor(venues: readonly string[]) {
    for (const v of venues) this.#entry(v)
  }

  get venues(): string[] {
    return [...this.#venues.keys()]
  }

  /** A `venue` channel value. */
  report(venue: string, r: VenueReport, now: number): void {
    const e = this.#entry(venue)
    e.feed = r.state
    e.ageMs = r.age_ms
    e.reportedAt = now
    if (r.reconnects !== undefined) e.reconnects = r.reconnects
    if (r.gaps !== undefined) e.gaps = r.gaps
  }

  /** An `hb` frame's venues. */
  heartbeat(
    venues: Readonly<Record<string, { readonly state: VenueFeedState; readonly age_ms: number | null }>>,
    now: number,
  ): void {
    for (const [venue, v] of Object.entries(venues)) {
      const e = this.#entry(venue)
      e.feed = v.state
      e.ageMs = v.age_ms
      e.reportedAt = now
    }
  }

  /** A continuity marker on stream `ch`/`key`: a disconnect names its venue; a resync clears that stream. */
  marker(ch: string, key: string, d: MarkerPayload): void {
    const stream = `${ch} ${key}`
    if (d.ev === 'venue_disconnect') this.#entry(d.venue).disconnected.set(stream, d.reason)
    else if (d.ev === 'resync') for (const e of this.#venues.values()) e.disconnected.delete(stream)
  }

  /** Forgets the markers of a stream the page no longer holds (its resync would never come). */
  forgetStream(ch: string, key: string): void {
    for (const e of this.#venues.values()) e.disconnected.delete(`${ch} ${key}`)
  }

  /** Forgets every marker (a new connection: the streams it opens start from snapshots, not from these). */
  forgetMarkers(): void {
    for (const e of this.#venues.values()) e.disconnected.clear()
  }

  view(venue: string, now: number): VenueView {
    const e = this.#entry(venue)
    const ageMs = e.ageMs === null ? undefined : e.ageMs + Math.max(0, now - e.reportedAt)
    const disconnect = e.disconnected.values().next()
    let health: Health
    let stateText: string
    let reason: string | undefined
    if (e.feed === undefined) {
      health = 'down'
      stateText = 'no data yet'
    } else if (e.feed === 'down') {
      health = 'down'
      stateText = 'down'
    } else if (e.feed === 'degraded') {
      health = 'degraded'
      stateText = 'degraded'
    } else if (!disconnect.done) {
      health = 'degraded'
      stateText = 'degraded'
      reason = `disconnected: ${disconnect.value}`
    } else if (ageMs !== undefined && ageMs > DEGRADED_AGE_MS) {
      health = 'degraded'
      stateText = 'degraded'
      reason = 'no recent data'
    } else {
      health = 'ok'
      stateText = 'ok'
    }
    if (reason === undefined && !disconnect.done && health !== 'ok') reason = `disconnected: ${disconnect.value}`
    return { venue, health, stateText, ageMs, reconnects: e.reconnects, gaps: e.gaps, reason }
  }

  #entry(venue: string): VenueEntry {
    let e = this.#venues.get(venue)
    if (e === undefined) {
      e = {
        feed: undefined,
        ageMs: null,
        reportedAt: 0,
        reconnects: undefined,
        gaps: undefined,
        disconnected: new Map(),
      }
      this.#venues.set(venue, e)
    }
    return e
  }
}
