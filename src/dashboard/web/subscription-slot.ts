import type { Rejection } from '../../stream/protocol.js'
import type { ConnectionState, SubscribeResult, Subscription } from '../../stream-client/stream-client.js'
import type { AckFrame } from '../../stream-client/wire.js'

/**
 * One thing the page wants subscribed (the top list's view, the selected pair's spread, one of its books, the
 * venues), kept in line with what the connection holds: `set` says what is wanted now; the slot unsubscribes what
 * it held and subscribes the new keys, one command at a time, the last wish winning (typing in the search box
 * does not queue a subscribe per key stroke).
 *
 * Commands need an open connection. While there is none the slot waits: the client re-subscribes what it holds
 * after a reconnect (and says so with `resubscribed`), and the page calls `reconcile` on every `welcome` and
 * `resubscribed`, so a wish made while disconnected is carried out once connected. Pure of the DOM and of sockets
 * (the client is an interface), so it is unit-tested with a fake (test/dashboard/subscription-slot.test.ts).
 */
export interface SlotClient {
  readonly state: ConnectionState
  subscribe(ch: string, keys: readonly string[], options?: { depth?: number }): Promise<SubscribeResult>
  unsubscribe(subscription: Subscription): Promise<AckFrame>
}

export interface SlotTarget {
  readonly keys: readonly string[]
  readonly depth?: number
}

export type SlotOutcome =
  /** Subscribed (or re-subscribed after a reconnect): what the server took and refused, with its reasons. */
  | {
      readonly kind: 'subscribed'
      readonly target: SlotTarget
      readonly accepted: readonly string[]
      readonly rejected: readonly Rejection[]
    }
  /** The command failed (other than by a lost connection, which is retried). */
  | { readonly kind: 'failed'; readonly target: SlotTarget; readonly message: string }
  /** What was subscribed is no longer (a new wish, or none). */
  | { readonly kind: 'released'; readonly target: SlotTarget }

interface Held {
  readonly target: SlotTarget
  readonly id: string
  /** Undefined when the subscribe failed or every key was refused: nothing to unsubscribe. */
  readonly subscription: Subscription | undefined
}

export class SubscriptionSlot {
  readonly #client: SlotClient
  readonly #ch: string
  readonly #onOutcome: (o: SlotOutcome) => void
  #wanted: SlotTarget | undefined
  #held: Held | undefined
  #running = false

  constructor(client: SlotClient, ch: string, onOutcome: (o: SlotOutcome) => void) {
    this.#client = client
    this.#ch = ch
    this.#onOutcome = onOutcome
  }

  get ch(): string {
    return this.#ch
  }

  /** The keys subscribed now (empty while nothing is). */
  get keys(): readonly string[] {
    return [...(this.#held?.subscription?.keys ?? [])]
  }

  set(target: SlotTarget | undefined): void {
    this.#wanted = target === undefined || target.keys.length === 0 ? undefined : target
    this.reconcile()
  }

  /** Carries out the last wish if it is not yet (call on `welcome` and `resubscribed`). */
  reconcile(): void {
    if (this.#running) return
    this.#running = true
    void this.#run().finally(() => {
      this.#running = false
    })
  }

  /** The client re-subscribed `subscription` after a reconnect: report what the server said this time. */
  resubscribed(subscription: Subscription, ack: AckFrame): void {
    const held = this.#held
    if (held?.subscription !== subscription) return
    this.#onOutcome({
      kind: 'subscribed',
      target: held.target,
      accepted: ack.accepted ?? [],
      rejected: ack.rejected ?? [],
    })
    this.reconcile()
  }

  async #run(): Promise<void> {
    for (;;) {
      const wanted = this.#wanted
      const wantedId = wanted === undefined ? undefined : idOf(wanted)
      if (this.#held?.id === wantedId) return
      if (this.#client.state !== 'open') return
      const held = this.#held
      if (held !== undefined) {
        const sub = held.subscription
        // A re-subscribe after a reconnect is in flight (no sid yet): its `resubscribed` calls reconcile again.
        if (sub !== undefined && sub.sid === undefined) return
        if (sub !== undefined) {
          try {
            await this.#client.unsubscribe(sub)
          } catch (err) {
            if (isDisconnected(err)) return
            // Any other refusal (e.g. the server no longer knows the sid): nothing is held any more.
          }
        }
        this.#held = undefined
        if (sub !== undefined) this.#onOutcome({ kind: 'released', target: held.target })
        continue
      }
      if (wanted === undefined || wantedId === undefined) return
      try {
        const options = wanted.depth === undefined ? {} : { depth: wanted.depth }
        const { ack, subscription } = await this.#client.subscribe(this.#ch, wanted.keys, options)
        const accepted = ack.accepted ?? []
        // Nothing accepted: free the (empty) subscription now, so it does not count against the connection's limit.
        if (accepted.length === 0) this.#client.unsubscribe(subscription).catch(() => {})
        this.#held = { target: wanted, id: wantedId, subscription: accepted.length === 0 ? undefined : subscription }
        this.#onOutcome({ kind: 'subscribed', target: wanted, accepted, rejected: ack.rejected ?? [] })
      } catch (err) {
        if (isDisconnected(err)) return
        this.#held = { target: wanted, id: wantedId, subscription: undefined }
        this.#onOutcome({ kind: 'failed', target: wanted, message: err instanceof Error ? err.message : String(err) })
      }
    }
  }
}

function idOf(t: SlotTarget): string {
  return `${t.keys.join('\n')}#${t.depth ?? ''}`
}

function isDisconnected(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'DISCONNECTED'
}
