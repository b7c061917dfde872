import { randomUUID } from 'node:crypto'
import type { Msg, Subscription } from '@nats-io/transport-node'
import { Objm } from '@nats-io/obj'
import type { ObjectStore } from '@nats-io/obj'
import type { CatalogSnapshot } from '../../actors/catalog-snapshot.js'
import type { VenueActor } from '../../actors/venue-actor.js'
import type { Logger } from '../../core/logger.js'
import { runInSlices } from '../../core/slices.js'
import type { FeedEvent } from '../../venues/types.js'
import type { BusLink } from '../connection.js'
import { CATALOG_BUCKET, catalogSubject, feedSnapshotSubject, feedSubject } from '../subjects.js'
import { encodeCatalogSteps } from './catalog-codec.js'
import { eventChunks, feedMessage, snapshotReplyMessages, type SnapshotRequest } from './wire.js'

/**
 * The ingest's side of feed replication (issue 24): what its venue actors apply goes on the bus, so an edge's actors
 * running the same code (bus-adapter.ts) hold the same catalogs, books and quotes.
 *
 * - Every batch an actor applies is published on `feed.<venue>` as it is applied (wire.ts: epoch, seq, receivedAt).
 * - A request on `feed.<venue>.snapshot` is answered, on its reply subject, with the actor's `bookSnapshotBatches`
 *   taken as the request is handled: every batch published before is in it, every one after follows it (the reply
 *   is published on the same connection, in the same turn it is taken; see wire.ts).
 * - Every catalog an actor installs is put in the object store bucket `catalogs` under the venue id, then announced
 *   on `catalog.<venue>` with the actor's version. A put that fails (the broker away) is tried again until it holds
 *   (only the newest catalog: one installed meanwhile replaces it).
 */
export interface FeedPublisher {
  close(): Promise<void>
}

export interface FeedPublisherOptions {
  readonly link: BusLink
  readonly actors: readonly VenueActor[]
  readonly log: Logger
}

/** Broker's default max_payload, used until the server has said its own. */
const DEFAULT_MAX_PAYLOAD = 1024 * 1024
const CATALOG_RETRY_MS = 2_000

export async function startFeedPublisher(o: FeedPublisherOptions): Promise<FeedPublisher> {
  const nc = o.link.nc
  // One epoch per publisher: a follower that sees another knows the ingest restarted and resynchronizes.
  const epoch = randomUUID()
  const maxBytes = (): number => nc.info?.max_payload ?? DEFAULT_MAX_PAYLOAD
  const closers: (() => Promise<void> | void)[] = []
  for (const actor of o.actors) {
    const log = o.log.child({ venue: actor.venue, component: 'feed-publisher' })
    const subject = feedSubject(actor.venue)
    let seq = 0
    let failing = false
    const publish = (subj: string, payload: string): boolean => {
      try {
        nc.publish(subj, payload)
        if (failing) log.info({ subject: subj }, 'feed publishing again')
        failing = false
        return true
      } catch (err) {
        // Called inside the actor's step: a throw here would fail the actor. The follower sees the gap in `seq`.
        if (!failing) log.warn({ subject: subj, error: String(err) }, 'feed publish failed; followers will resync')
        failing = true
        return false
      }
    }
    const applied = (events: readonly FeedEvent[], receivedAt: number): void => {
      let chunks: string[]
      try {
        chunks = eventChunks(events, maxBytes())
      } catch (err) {
        // Not publishable: followers see the gap in `seq` and resync from a snapshot.
        seq++
        log.error({ error: String(err) }, 'feed batch too large for the broker; followers will resync')
        return
      }
      chunks.forEach((json, i) => {
        const more = i < chunks.length - 1 ? { more: true as const } : {}
        publish(subject, feedMessage({ epoch, seq: ++seq, receivedAt, ...more }, json))
      })
    }
    closers.push(actor.subscribeApplied(applied))

    const answer = (msg: Msg): void => {
      if (msg.reply === undefined) return
      let request: SnapshotRequest
      try {
        request = msg.json<SnapshotRequest>()
      } catch {
        log.warn({ subject: msg.subject }, 'unreadable snapshot request ignored')
        return
      }
      const batches = actor.bookSnapshotBatches(request.instrumentIds)
      // Every message goes out now, in this turn: no applied batch can come between them.
      for (const payload of snapshotReplyMessages({ epoch, seq, request: request.request }, batches, maxBytes()))
        publish(msg.reply, payload)
    }
    const requests: Subscription = nc.subscribe(feedSnapshotSubject(actor.venue), {
      callback: (err, msg) => {
        if (err !== null) return
        try {
          answer(msg)
        } catch (e) {
          log.error({ error: String(e) }, 'snapshot request failed')
        }
      },
    })
    closers.push(() => requests.unsubscribe())

    const catalogs = new CatalogPutter(o.link, actor.venue, log)
    closers.push(actor.subscribeCatalog((snapshot) => catalogs.put(snapshot)))
    closers.push(() => catalogs.close())
    const current = actor.catalog()
    if (current !== undefined) catalogs.put(current)
  }
  return {
    async close() {
      for (const close of closers.reverse()) await close()
    },
  }
}

/** Puts a venue's newest catalog in the object store and announces it; one put at a time, retried until it holds. */
class CatalogPutter {
  #next: CatalogSnapshot | undefined
  #running: Promise<void> | undefined
  #store: ObjectStore | undefined
  #closed = false
  #failures = 0
  #retry: { timer: ReturnType<typeof setTimeout>; wake: () => void } | undefined

  constructor(
    readonly link: BusLink,
    readonly venue: string,
    readonly log: Logger,
  ) {}

  put(snapshot: CatalogSnapshot): void {
    this.#next = snapshot
    this.#running ??= this.#drain().finally(() => (this.#running = undefined))
  }

  async close(): Promise<void> {
    this.#closed = true
    this.#next = undefined
    if (this.#retry !== undefined) {
      clearTimeout(this.#retry.timer)
      this.#retry.wake()
    }
    await this.#running
  }

  async #drain(): Promise<void> {
    while (this.#next !== undefined && !this.#closed) {
      const snapshot = this.#next
      this.#next = undefined
      try {
        const bytes = await runInSlices(
          encodeCatalogSteps({
            venue: snapshot.venue,
            events: snapshot.events,
            fetchedAt: snapshot.fetchedAt,
            ...(snapshot.truncation === undefined ? {} : { truncation: snapshot.truncation }),
          }),
        )
        this.#store ??= await new Objm(this.link.nc).create(CATALOG_BUCKET)
        const info = await this.#store.putBlob({ name: this.venue }, bytes)
        this.link.nc.publish(catalogSubject(this.venue), JSON.stringify({ version: snapshot.version }))
        this.log.info(
          { version: snapshot.version, events: snapshot.events.length, bytes: info.size, failedTries: this.#failures },
          'catalog put on the bus',
        )
        this.#failures = 0
      } catch (err) {
        if (this.#closed) return
        // One warning per outage, not one per retry.
        if (this.#failures++ === 0)
          this.log.warn(
            { version: snapshot.version, error: String(err), retryEveryMs: CATALOG_RETRY_MS },
            'catalog put failed; retrying until it holds',
          )
        this.#next ??= snapshot
        await new Promise<void>((wake) => {
          const timer = setTimeout(wake, CATALOG_RETRY_MS)
          timer.unref()
          this.#retry = { timer, wake }
        })
        this.#retry = undefined
      }
    }
  }
}
