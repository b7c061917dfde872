import { createInbox, type Msg, type Subscription } from '@nats-io/transport-node'
import type { Clock } from '../../core/clock.js'
import type { Logger } from '../../core/logger.js'
import type { FeedEvent, FeedSink, FeedStatus, VenueFeed } from '../../venues/types.js'
import type { BusLink } from '../connection.js'
import { feedSnapshotSubject, feedSubject } from '../subjects.js'
import { decodeFeedMessage, decodeSnapshotReply, type SnapshotRequest } from './wire.js'
import type { FeedBatch } from '../../actors/book-snapshot.js'
import { pushAll } from '../../core/arrays.js'

/**
 * An edge's venue feed: the batches the ingest's venue actor applied (feed-publisher.ts), handed to this process's
 * actor with the ingest's receipt times, so the two actors hold the same books and publish the same quotes.
 *
 * An instrument joins with a snapshot request; the reply is a cut of the ingest's feed: every batch published before
 * it was taken reaches us before it, every later one after it (wire.ts). So nothing needs dropping: live batches
 * for an instrument still waiting for its snapshot are applied to a book that has none (the actor ignores level
 * changes there), and the snapshot then replaces what they did.
 *
 * What breaks the cut is caught by the messages' (epoch, seq): a message missed (broker restart, a slow consumer cut
 * off, an ingest restart) marks the synced instruments stale and requests snapshots again. A lost broker link marks
 * every instrument stale at once (the reason names the broker) and requests them all when it is back. A request
 * with no answer (the ingest was not subscribed yet) is sent again after REQUEST_TIMEOUT_MS.
 */
export interface BusFeedOptions {
  readonly link: BusLink
  readonly venue: string
  readonly clock: Clock
  readonly log: Logger
  readonly sink: FeedSink
}

/** Real time, not the injected clock: it waits for the broker and the ingest, as the socket's own timers do. */
export const REQUEST_TIMEOUT_MS = 3_000
const REQUEST_CHECK_MS = 250
/** A request the broker said nobody could answer goes again after about this long. */
const NO_RESPONDERS_RETRY_MS = 500
/** The status code of the broker's "no responders" message to a request's reply subject. */
const NO_RESPONDERS = 503
/** Ids per snapshot request: a request stays far below the broker's max_payload (1 MB by default). */
const IDS_PER_REQUEST = 2_000

interface Request {
  /** The instruments asked for; undefined: every one the ingest holds. */
  readonly ids: readonly string[] | undefined
  sentAt: number
  started: boolean
}

export class BusFeed implements VenueFeed {
  readonly #o: BusFeedOptions
  #instruments = new Set<string>()
  /** Instruments a snapshot reply covered since the last link loss or gap. */
  readonly #synced = new Set<string>()
  readonly #requests = new Map<number, Request>()
  #nextRequest = 1
  /** The reply being received (its parts come back to back), if any. */
  #inReply: number | undefined
  /** The last message's place in the ingest's feed; undefined until one arrives after a loss. */
  #position: { epoch: string; seq: number } | undefined
  #livePart: FeedEvent[] = []
  #replyPart: FeedEvent[] = []
  #closed = false
  readonly #inbox = createInbox()
  readonly #live: Subscription
  readonly #replies: Subscription
  readonly #unlink: () => void
  readonly #timer: ReturnType<typeof setInterval>
  #reconnects = 0
  #frames = 0
  #malformed = 0
  #gaps = 0
  #lastFrameAt: number | undefined

  constructor(o: BusFeedOptions) {
    this.#o = o
    const nc = o.link.nc
    this.#live = nc.subscribe(feedSubject(o.venue), {
      callback: (err, msg) => {
        if (err === null) this.#onLive(msg)
      },
    })
    this.#replies = nc.subscribe(this.#inbox, {
      callback: (err, msg) => {
        if (err === null) this.#onReply(msg)
      },
    })
    this.#unlink = o.link.subscribeLink({ down: (reason) => this.#linkDown(reason), up: () => this.#linkUp() })
    this.#timer = setInterval(() => this.#resendUnanswered(), REQUEST_CHECK_MS)
    this.#timer.unref()
  }

  setInstruments(instrumentIds: readonly string[]): void {
    const next = new Set(instrumentIds)
    const added = instrumentIds.filter((id) => !this.#instruments.has(id))
    for (const id of this.#synced) if (!next.has(id)) this.#synced.delete(id)
    const first = this.#instruments.size === 0
    this.#instruments = next
    if (first) this.#request(undefined)
    else if (added.length > 0) this.#request(added)
  }

  changeInstruments(added: readonly string[], removed: readonly string[]): void {
    for (const id of removed) {
      this.#instruments.delete(id)
      this.#synced.delete(id)
    }
    for (const id of added) this.#instruments.add(id)
    if (added.length > 0) this.#request(added)
  }

  close(): void {
    if (this.#closed) return
    this.#closed = true
    clearInterval(this.#timer)
    this.#unlink()
    this.#live.unsubscribe()
    this.#replies.unsubscribe()
  }

  status(): FeedStatus {
    const up = this.#o.link.up
    return {
      connections: 1,
      openConnections: up ? 1 : 0,
      instruments: this.#instruments.size,
      subscribed: up ? this.#synced.size : 0,
      reconnects: this.#reconnects,
      framesReceived: this.#frames,
      malformedFrames: this.#malformed,
      sequenceGaps: this.#gaps,
      staleTimeouts: 0,
      lastFrameAt: this.#lastFrameAt,
    }
  }

  // ------------------------------------------------------------------------------------------ receiving

  #counted(): void {
    this.#frames++
    this.#lastFrameAt = this.#o.clock.now()
  }

  #unreadable(msg: Msg): void {
    this.#malformed++
    this.#o.log.warn({ subject: msg.subject }, 'unreadable feed message ignored')
  }

  #onLive(msg: Msg): void {
    if (this.#closed) return
    this.#counted()
    const m = decodeFeedMessage(msg.string())
    if (m === undefined) return this.#unreadable(msg)
    if (this.#inReply !== undefined) this.#abandonReply()
    const p = this.#position
    if (p !== undefined && (p.epoch !== m.epoch || p.seq + 1 !== m.seq)) {
      this.#gap(
        p.epoch === m.epoch
          ? `missed ingest feed messages ${p.seq + 1}..${m.seq - 1} on the bus`
          : 'the ingest restarted (new feed epoch)',
        false,
      )
    }
    this.#position = { epoch: m.epoch, seq: m.seq }
    if (m.more === true) {
      pushAll(this.#livePart, m.events)
      return
    }
    const events = this.#livePart.length === 0 ? m.events : [...this.#livePart, ...m.events]
    this.#livePart = []
    if (events.length > 0) this.#o.sink(events as FeedEvent[], m.receivedAt)
  }

  #onReply(msg: Msg): void {
    if (this.#closed) return
    if (msg.headers?.code === NO_RESPONDERS) {
      // The broker says nobody listens on the snapshot subject (the ingest is not up, or not back on the broker yet):
      // the waiting requests go again shortly instead of after the whole timeout.
      const soon = Date.now() - REQUEST_TIMEOUT_MS + NO_RESPONDERS_RETRY_MS
      for (const r of this.#requests.values()) if (!r.started) r.sentAt = Math.min(r.sentAt, soon)
      return
    }
    this.#counted()
    const m = decodeSnapshotReply(msg.string())
    if (m === undefined) return this.#unreadable(msg)
    const req = this.#requests.get(m.request)
    // A request given up (the link dropped, or it was abandoned): its answer is not a cut of what we hold.
    if (req === undefined) return
    if (!req.started) {
      req.started = true
      this.#inReply = m.request
      const p = this.#position
      if (p !== undefined && (p.epoch !== m.epoch || p.seq !== m.seq))
        this.#gap(
          p.epoch === m.epoch
            ? `missed ingest feed messages ${p.seq + 1}..${m.seq} on the bus`
            : 'the ingest restarted (new feed epoch)',
          req.ids === undefined,
        )
      this.#position = { epoch: m.epoch, seq: m.seq }
    }
    const whole: FeedBatch[] = []
    m.batches.forEach((b, i) => {
      const events = i === 0 && this.#replyPart.length > 0 ? [...this.#replyPart, ...b.events] : b.events
      if (i === 0) this.#replyPart = []
      if (i === m.batches.length - 1 && m.more === true) this.#replyPart = [...events]
      else whole.push({ events, receivedAt: b.receivedAt })
    })
    if (m.last === true) {
      // Counted before the batches are applied: the actor checks its readiness (every book synced, every
      // instrument subscribed) when it applies a batch, and this may be the last one for a while.
      this.#requests.delete(m.request)
      this.#inReply = undefined
      if (req.ids === undefined) for (const id of this.#instruments) this.#synced.add(id)
      else for (const id of req.ids) if (this.#instruments.has(id)) this.#synced.add(id)
    }
    for (const b of whole) if (b.events.length > 0) this.#o.sink(b.events as FeedEvent[], b.receivedAt)
  }

  /**
   * Messages were missed: any book may be behind (one waiting for its snapshot too, if a live snapshot gave it one).
   * Every instrument goes stale and everything is asked for again, unless the reply being received is for everything
   * (it was taken after what was missed).
   */
  #gap(reason: string, coveredByReply: boolean): void {
    this.#gaps++
    this.#o.log.warn({ reason }, 'bus feed gap; resynchronizing')
    this.#livePart = [] // the start of a batch whose end was lost
    this.#synced.clear()
    if (this.#instruments.size > 0)
      this.#o.sink([{ type: 'stale', instrumentIds: [...this.#instruments], reason }], this.#o.clock.now())
    if (!coveredByReply) this.#request(undefined)
  }

  /** A live message came in the middle of a reply: parts of it were lost. It is asked for again. */
  #abandonReply(): void {
    const id = this.#inReply as number
    this.#inReply = undefined
    this.#replyPart = []
    const req = this.#requests.get(id)
    this.#requests.delete(id)
    this.#o.log.warn({ request: id }, 'snapshot reply cut short; asking again')
    if (req !== undefined) this.#request(req.ids)
  }

  // ------------------------------------------------------------------------------------------ link

  #linkDown(reason: string): void {
    if (this.#closed) return
    this.#position = undefined
    this.#livePart = []
    this.#replyPart = []
    this.#inReply = undefined
    this.#requests.clear()
    this.#synced.clear()
    if (this.#instruments.size > 0)
      this.#o.sink([{ type: 'stale', instrumentIds: [...this.#instruments], reason }], this.#o.clock.now())
  }

  #linkUp(): void {
    if (this.#closed) return
    this.#reconnects++
    if (this.#instruments.size > 0) this.#request(undefined)
  }

  // ------------------------------------------------------------------------------------------ requests

  /** Asks for snapshots of `ids` (undefined: everything; not again while such a request waits for its answer). */
  #request(ids: readonly string[] | undefined): void {
    if (this.#closed || !this.#o.link.up) return // the link's return asks for everything
    if (ids === undefined) {
      for (const r of this.#requests.values()) if (r.ids === undefined && !r.started) return
      this.#send(undefined)
      return
    }
    for (let i = 0; i < ids.length; i += IDS_PER_REQUEST) this.#send(ids.slice(i, i + IDS_PER_REQUEST))
  }

  #send(ids: readonly string[] | undefined): void {
    const id = this.#nextRequest++
    this.#requests.set(id, { ids, sentAt: Date.now(), started: false })
    const body: SnapshotRequest = ids === undefined ? { request: id } : { request: id, instrumentIds: ids }
    try {
      this.#o.link.nc.publish(feedSnapshotSubject(this.#o.venue), JSON.stringify(body), { reply: this.#inbox })
    } catch (err) {
      this.#o.log.warn({ error: String(err) }, 'snapshot request not sent; retrying')
    }
  }

  /** Requests nobody answered (the ingest not subscribed yet, or away) are sent again. */
  #resendUnanswered(): void {
    if (this.#closed || !this.#o.link.up) return
    const now = Date.now()
    for (const [id, r] of this.#requests) {
      if (r.started || now - r.sentAt < REQUEST_TIMEOUT_MS) continue
      this.#requests.delete(id)
      this.#send(r.ids)
    }
  }
}
