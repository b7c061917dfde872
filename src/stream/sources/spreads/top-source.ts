import type { Clock, TimerHandle } from '../../../core/clock.js'
import type { Logger } from '../../../core/logger.js'
import { scanFilter, topSpreads } from '../../../http/routes/spreads.js'
import type { SpreadRecord } from '../../../spreads/engine/spread-engine.js'
import type { MarkerPayload, Rejection } from '../../protocol.js'
import { streamId, type Sequencer, type StreamId, type StreamLog } from '../../sequencer.js'
import type { ChannelSource } from '../../source.js'
import { contained, EngineFeed, type SpreadReader } from './engine-feed.js'
import { deltaPayload, snapshotPayload, type Listed } from './ranked-list.js'
import { spreadPayload, staleAt } from './spread-payload.js'
import { TopViews, type TopView } from './top-view.js'
import { textFilter } from './view-text-filters.js'

/**
 * The `spreads.top` channel: a ranked list of spreads, keyed by its view (top-view.ts), framed as ranked-list.ts
 * says. The list is `/api/v2/spreads/top`'s for the same parameters (the same selection code, topSpreads), with
 * two differences: a stale spread (older quote past the scanner's default cutoff, or a feed down) leaves the
 * list, the next one moving up, and the scanner's filters may narrow it.
 *
 * An open view is recomputed after each step of the spread actor that changed records (from its change listener,
 * so at most once per engine step, and numbered inside that step), and only while it is open. A full view by
 * confidence skips the recompute when the engine's top-list epoch says no change reached its floor. Time alone
 * moves records out of the window or past the stale cutoff: a timer per view recomputes it at the first such
 * moment of a listed record (records outside the list cannot enter with time alone).
 */
export interface TopSourceOptions {
  readonly engine: SpreadReader
  readonly sequencer: Sequencer
  readonly clock: Clock
  readonly log?: Logger | undefined
  /** The registered venues' ids (the `platforms` values). */
  readonly venueIds: readonly string[]
}

interface OpenView {
  readonly log: StreamLog
  readonly view: TopView
  readonly keep: (r: SpreadRecord) => boolean
  /** The list as last framed. */
  list: readonly Listed[]
  /** The engine's top-list epoch when the list was computed (views by confidence only). */
  epoch: number
  timer: TimerHandle | undefined
}

export class SpreadsTopSource implements ChannelSource {
  readonly ch = 'spreads.top' as const
  readonly #o: TopSourceOptions
  readonly #views: TopViews
  readonly #open = new Map<string, OpenView>()
  readonly #feed: EngineFeed

  constructor(options: TopSourceOptions) {
    this.#o = options
    this.#views = new TopViews(options.venueIds)
    this.#feed = new EngineFeed(options.engine, () => this.#onChanges(), options.log)
  }

  resolve(key: string): StreamId | Rejection {
    const view = this.#views.parse(key)
    return 'code' in view ? view : streamId(this.ch, view.key)
  }

  open(log: StreamLog): void {
    const view = this.#views.parse(log.id.key)
    if ('code' in view) throw new Error(`spreads.top: ${log.id.key} is not a view (${view.reason})`)
    const now = this.#o.clock.now()
    const open: OpenView = { log, view, keep: viewFilter(view), list: [], epoch: -1, timer: undefined }
    open.list = this.#compute(open, now)
    log.ts = now
    log.lts = now
    this.#open.set(log.id.key, open)
    this.#feed.listen(true)
  }

  close(log: StreamLog): void {
    const open = this.#open.get(log.id.key)
    if (open?.log !== log) return
    this.#o.clock.clearTimeout(open.timer)
    this.#open.delete(log.id.key)
    this.#feed.listen(this.#open.size > 0)
  }

  /** The list as of the last frame (a snapshot carries the last seq: it must not be newer than that frame). */
  snapshot(log: StreamLog): string {
    const open = this.#open.get(log.id.key)
    const list = open?.list ?? this.#listOf(log.id.key)
    return this.#o.sequencer.snapshot(log, snapshotPayload(list))
  }

  /**
   * A continuity marker of a venue on every open view: any list may hold that venue's pairs (its stale spreads
   * leave the lists through the engine's changes, a delta after the marker).
   */
  venueMarker(d: MarkerPayload): void {
    const now = this.#o.clock.now()
    for (const open of this.#open.values()) {
      this.#o.sequencer.emit(open.log, 'marker', d, now, now)
      // The snapshot the marker promises: the list as of the last frame.
      if (d.ev === 'resync') this.#o.sequencer.publishSnapshot(open.log, snapshotPayload(open.list), now, now)
    }
  }

  #onChanges(): void {
    const now = this.#o.clock.now()
    const epoch = this.#o.engine.topEpoch
    for (const open of this.#open.values()) {
      if (open.epoch === epoch) continue
      this.#refresh(open, now)
    }
  }

  /** Recomputes the view and frames the difference, if any. */
  #refresh(open: OpenView, now: number): void {
    const list = this.#compute(open, now)
    const d = deltaPayload(open.list, list)
    open.list = list
    if (d !== undefined) this.#o.sequencer.emit(open.log, 'delta', d, now, now)
  }

  /** The view's list now; notes its floor and epoch and sets its timer. */
  #compute(open: OpenView, now: number): Listed[] {
    const engine = this.#o.engine
    const { view, keep } = open
    const records = select(engine, view, keep, now)
    // The epoch skip needs a floor registered with the engine. Only a full list by confidence without the scanner's
    // filters registers one (about the floor /spreads/top registers for the same limit): a shorter or filtered
    // list would reach far down, and a low floor makes every change bump the epoch, emptying the REST top-list
    // cache. Other views are recomputed after every engine step that changed records.
    open.epoch = -1
    if (view.sort === 'confidence' && !hasScanFilter(view) && records.length === view.limit) {
      open.epoch = engine.topEpoch
      engine.noteTopFloor((records[records.length - 1] as SpreadRecord).confidence)
    }
    const windowMs = view.window * 3_600_000
    let until = Number.POSITIVE_INFINITY
    for (const r of records) until = Math.min(until, staleAt(r, now), r.olderQuoteAt + windowMs + 1)
    const clock = this.#o.clock
    clock.clearTimeout(open.timer)
    open.timer = Number.isFinite(until)
      ? clock.setTimeout(
          contained(() => this.#refresh(open, clock.now()), this.#o.log),
          until - now,
        )
      : undefined
    return listed(records, now)
  }

  /** A view's list computed on demand (a snapshot of a stream that is not open: not expected, but answered). */
  #listOf(key: string): Listed[] {
    const view = this.#views.parse(key)
    if ('code' in view) return []
    const now = this.#o.clock.now()
    return listed(select(this.#o.engine, view, viewFilter(view), now), now)
  }
}

/** The view's records now: /spreads/top's selection, fresh records only, narrowed by the view's filters. */
function select(engine: SpreadReader, view: TopView, keep: (r: SpreadRecord) => boolean, now: number): SpreadRecord[] {
  return topSpreads(engine, view, now, (r) => Number.isFinite(staleAt(r, now)) && keep(r))
}

/** The scanner's filters and the view's own (category, search) together. */
function viewFilter(view: TopView): (r: SpreadRecord) => boolean {
  const scan = scanFilter(view)
  const text = textFilter(view)
  return text === undefined ? scan : (r) => scan(r) && text(r)
}

function hasScanFilter(view: TopView): boolean {
  return (
    view.min_spread !== undefined ||
    view.min_volume !== undefined ||
    view.platforms !== undefined ||
    view.category !== undefined ||
    view.search !== undefined
  )
}

function listed(records: readonly SpreadRecord[], now: number): Listed[] {
  return records.map((r) => {
    const p = spreadPayload(r, now)
    return { id: r.id, json: p.json, record: p.object }
  })
}
