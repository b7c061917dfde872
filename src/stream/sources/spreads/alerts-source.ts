import type { Firing } from '../../../alerts/alert-service.js'
import type { Rejection } from '../../protocol.js'
import { streamId, type Sequencer, type StreamId, type StreamLog } from '../../sequencer.js'
import type { ChannelSource, SubscribeParams } from '../../source.js'
import type { RecentFirings } from './recent-firings.js'

/**
 * The `alerts` channel: the caller's own alert firings, each with its durable delivery id.
 *
 * Key: `me`, or the caller's own account id (the key's account, `params.accountId`); both name the account's one
 * stream, printed with the account id (one topic per account: its frames are shared by every connection of the
 * account). Any other account id, and any key without an account (AUTH_REQUIRED=false), is UNKNOWN_KEY: another
 * account's firings are not there to see.
 *
 * Payload: a firing is the delivery's body exactly as the webhook receiver gets it (`id` is the delivery id,
 * `dedupe_key`, `fired_at`, `rule`, `spread`...). A delta is one new firing; a snapshot is `{firings: [...]}`,
 * the account's last PER_ACCOUNT firings, oldest first (recent-firings.ts: a mirror of the outbox, loaded at boot
 * and appended by the outbox writer's commit hook). Replay: inside the resume window the sequencer replays the
 * deltas; outside it the snapshot holds the recent firings, and a client dedupes by delivery id. Frames are
 * numbered in the commit callback of the outbox writer, the one writer of firings.
 */
export interface AlertsSourceOptions {
  readonly sequencer: Sequencer
  readonly recent: RecentFirings
  /** The alert service's firings (AlertService.onFiring). */
  readonly firings: { onFiring(listener: (firing: Firing) => void): () => void }
}

export class AlertsSource implements ChannelSource {
  readonly ch = 'alerts' as const
  readonly #o: AlertsSourceOptions
  readonly #open = new Map<string, StreamLog>()
  readonly #unsubscribe: () => void

  constructor(options: AlertsSourceOptions) {
    this.#o = options
    this.#unsubscribe = options.firings.onFiring((f) => this.#onFiring(f))
  }

  resolve(key: string, params: SubscribeParams): StreamId | Rejection {
    const account = params.accountId
    if (account === undefined)
      return { key, code: 'UNKNOWN_KEY', reason: 'alerts are per account: connect with an API key' }
    if (key !== 'me' && key !== account)
      return { key, code: 'UNKNOWN_KEY', reason: "only the caller's own alerts: use `me` (or your account id)" }
    return streamId(this.ch, account)
  }

  open(log: StreamLog): void {
    this.#open.set(log.id.key, log)
    const last = this.#o.recent.of(log.id.key).at(-1)
    if (last !== undefined) log.ts = log.lts = last.firedAt
  }

  close(log: StreamLog): void {
    if (this.#open.get(log.id.key) === log) this.#open.delete(log.id.key)
  }

  snapshot(log: StreamLog): string {
    return this.#o.sequencer.snapshot(log, { firings: this.#o.recent.of(log.id.key).map((f) => f.payload) })
  }

  /** Stops listening to firings (shutdown). */
  dispose(): void {
    this.#unsubscribe()
  }

  #onFiring({ delivery, accountId }: Firing): void {
    if (accountId === null || delivery.test) return
    const firing = { id: delivery.id, firedAt: delivery.createdAt, payload: delivery.payload }
    if (!this.#o.recent.add(accountId, firing)) return
    const log = this.#open.get(accountId)
    if (log !== undefined) this.#o.sequencer.emit(log, 'delta', firing.payload, firing.firedAt, firing.firedAt)
  }
}
