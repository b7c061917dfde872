import { systemClock, type TimerHandle } from '../core/clock.js'
import type { DataFrame, MarkerPayload } from '../stream/protocol.js'
import { BookAssembler, type BookPayload } from './book-assembler.js'
import { DEFAULT_RECONNECT, isTerminalClose, reconnectDelayMs, type ReconnectOptions } from './reconnect-policy.js'
import { StreamTracker } from './stream-tracker.js'
import { TopListAssembler, type TopPayload } from './top-list-assembler.js'
import type { Transport } from './transport.js'
import { PendingCommands, type CommandBody } from './pending-commands.js'
import { TypedEvents } from './typed-events.js'
import {
  StreamClosedError,
  StreamCommandError,
  type StreamClientEvents,
  type StreamClientOptions,
  type ConnectionState,
  type StreamStatus,
  type Subscription,
  type SubscribeResult,
} from './client-types.js'
import {
  isSnapshotsDone,
  isStreamFrame,
  parseServerFrame,
  type AckFrame,
  type ByeFrame,
  type HeartbeatFrame,
  type PongFrame,
  type ServerFrame,
  type WelcomeFrame,
} from './wire.js'

export * from './client-types.js'

interface HeldSubscription {
  ch: string
  keys: Set<string>
  depth: number | undefined
  sid: string | undefined
}

interface StreamEntry {
  readonly ch: string
  readonly key: string
  readonly tracker: StreamTracker
  readonly book?: BookAssembler
  readonly top?: TopListAssembler
  value?: unknown
  stale: boolean
}

/**
 * A typed client of `/api/v2/stream` (the contract: src/stream/protocol.ts and the AsyncAPI document at
 * /api/v2/asyncapi.json). It keeps, per stream, `(epoch, seq)` and the assembled state (books, the top list,
 * latest values), asks for a snapshot on a gap or a checksum mismatch, reconnects with jittered backoff after
 * every close that allows it, and resumes each stream from the last seq it holds.
 *
 * It never touches a socket itself: the transport, clock and random source are injected, so the same logic runs
 * over Node's `ws` (node-client.ts) or, later, a browser WebSocket, and tests drive time.
 *
 * @example
 * const client = new StreamClient({ url, apiKey, transport: wsTransport })
 * client.on('book', ({ key, book }) => draw(key, book.view(10)))
 * await client.connect()
 * await client.subscribe('book', ['venuek:KXFED-27APR-T4.25'], { depth: 10 })
 */
export class StreamClient {
  readonly #o: Required<Omit<StreamClientOptions, 'reconnect'>> & { reconnect: ReconnectOptions }
  readonly #events = new TypedEvents<StreamClientEvents>()
  readonly #streams = new Map<string, StreamEntry>()
  readonly #subscriptions = new Set<HeldSubscription>()
  readonly #commands: PendingCommands
  #state: ConnectionState = 'idle'
  #transport: Transport | undefined
  /** Bumped per connection attempt: callbacks of an abandoned transport are ignored. */
  #generation = 0
  #attempt = 0
  #bye: ByeFrame | undefined
  #watchdog: TimerHandle | undefined
  #reconnectTimer: TimerHandle | undefined
  #lastBeat = 0
  #lastHeartbeat: HeartbeatFrame | undefined
  #welcome: WelcomeFrame | undefined
  #connectWaiters: { resolve(w: WelcomeFrame): void; reject(e: Error): void }[] = []

  constructor(options: StreamClientOptions) {
    const random = options.random ?? Math.random
    this.#o = {
      url: options.url,
      apiKey: options.apiKey,
      transport: options.transport,
      auth: options.auth ?? 'header',
      clock: options.clock ?? systemClock,
      random,
      heartbeatTimeoutMs: options.heartbeatTimeoutMs ?? 3_000,
      commandTimeoutMs: options.commandTimeoutMs ?? 10_000,
      snapshotRetryMs: options.snapshotRetryMs ?? 1_000,
      reconnect: { ...DEFAULT_RECONNECT, ...options.reconnect, random },
    }
    this.#commands = new PendingCommands(this.#o.clock, this.#o.commandTimeoutMs)
  }

  on<K extends keyof StreamClientEvents>(name: K, fn: (value: StreamClientEvents[K]) => void): () => void {
    return this.#events.on(name, fn)
  }

  onFrame(fn: (f: ServerFrame) => void): () => void {
    return this.on('frame', fn)
  }
  onSnapshot(fn: (f: DataFrame) => void): () => void {
    return this.on('snapshot', fn)
  }
  onDelta(fn: (f: DataFrame) => void): () => void {
    return this.on('delta', fn)
  }
  onMarker(fn: (f: DataFrame<MarkerPayload>) => void): () => void {
    return this.on('marker', fn)
  }
  onState(fn: (s: StreamClientEvents['state']) => void): () => void {
    return this.on('state', fn)
  }

  get state(): ConnectionState {
    return this.#state
  }
  get welcome(): WelcomeFrame | undefined {
    return this.#welcome
  }
  get lastHeartbeat(): HeartbeatFrame | undefined {
    return this.#lastHeartbeat
  }
  get subscriptions(): readonly Subscription[] {
    return [...this.#subscriptions]
  }

  book(key: string): BookAssembler | undefined {
    return this.#streams.get(streamKey('book', key))?.book
  }
  topList(key: string): TopListAssembler | undefined {
    return this.#streams.get(streamKey('spreads.top', key))?.top
  }
  value(ch: string, key: string): unknown {
    return this.#streams.get(streamKey(ch, key))?.value
  }
  stream(ch: string, key: string): StreamStatus | undefined {
    const s = this.#streams.get(streamKey(ch, key))
    if (s === undefined) return undefined
    const { epoch, seq, awaitingSnapshot } = s.tracker
    return { epoch, seq, awaitingSnapshot, stale: s.stale }
  }

  /** Opens the connection (if not yet) and resolves at the next `welcome`; rejects on a terminal close. */
  connect(): Promise<WelcomeFrame> {
    if (this.#state === 'closed') return Promise.reject(new Error('client closed'))
    const p = new Promise<WelcomeFrame>((resolve, reject) => this.#connectWaiters.push({ resolve, reject }))
    if (this.#state === 'idle') this.#open()
    else if (this.#state === 'open' && this.#welcome !== undefined) this.#settleConnect(this.#welcome)
    return p
  }

  /** Closes for good: no reconnect, pending commands rejected. */
  close(): void {
    if (this.#state === 'closed') return
    const transport = this.#transport
    this.#abandon()
    this.#o.clock.clearTimeout(this.#reconnectTimer)
    transport?.close(1000, 'client closed')
    this.#setState('closed', 1000, 'client closed')
    this.#failConnect(new Error('client closed'))
  }

  async subscribe(ch: string, keys: readonly string[], options: { depth?: number } = {}): Promise<SubscribeResult> {
    const ack = (await this.#command({ op: 'subscribe', ch, keys, depth: options.depth })) as AckFrame
    const held: HeldSubscription = { ch, keys: new Set(ack.accepted ?? []), depth: options.depth, sid: ack.sid }
    this.#subscriptions.add(held)
    return { ack, subscription: held }
  }

  /** Adds and removes keys of a held subscription. */
  async update(subscription: Subscription, change: { add?: readonly string[]; remove?: readonly string[] }) {
    const held = this.#held(subscription)
    const ack = (await this.#command({ op: 'update', sid: held.sid ?? '', ...change })) as AckFrame
    for (const key of ack.accepted ?? []) held.keys.add(key)
    for (const key of change.remove ?? []) held.keys.delete(key)
    this.#forgetUnheld(held.ch, change.remove ?? [])
    return ack
  }

  /** Ends a subscription: the ack carries `last_seq`, and its streams are forgotten (unless another holds them). */
  async unsubscribe(subscription: Subscription): Promise<AckFrame> {
    const held = this.#held(subscription)
    const ack = (await this.#command({ op: 'unsubscribe', sid: held.sid ?? '' })) as AckFrame
    this.#subscriptions.delete(held)
    this.#forgetUnheld(held.ch, [...held.keys])
    return ack
  }

  /** Asks the server to re-send the state of `keys` (rate-limited per key by the server). */
  snapshot(ch: string, keys: readonly string[]): Promise<AckFrame> {
    return this.#command({ op: 'snapshot', ch, keys }) as Promise<AckFrame>
  }

  list(): Promise<AckFrame> {
    return this.#command({ op: 'list' }) as Promise<AckFrame>
  }

  ping(): Promise<PongFrame> {
    return this.#command({ op: 'ping' }) as Promise<PongFrame>
  }

  // ---- connection ----

  #open(): void {
    const generation = ++this.#generation
    this.#setState(this.#attempt === 0 && this.#welcome === undefined ? 'connecting' : 'reconnecting')
    const live = () => generation === this.#generation
    const headers: Record<string, string> = this.#o.auth === 'header' ? { 'X-API-Key': this.#o.apiKey } : {}
    const url =
      this.#o.auth === 'query'
        ? `${this.#o.url}${this.#o.url.includes('?') ? '&' : '?'}api_key=${encodeURIComponent(this.#o.apiKey)}`
        : this.#o.url
    this.#transport = this.#o.transport(url, headers, {
      onOpen: () => {
        if (!live()) return
        this.#armWatchdog()
        if (this.#o.auth === 'frame') this.#sendCommand({ op: 'auth', key: this.#o.apiKey }).catch(() => {})
      },
      onMessage: (text) => {
        if (live()) this.#receive(text)
      },
      onClose: (code, reason) => {
        if (live()) this.#closed(code, reason)
      },
      onError: (error) => {
        if (live()) this.#events.emit('transportError', error)
      },
    })
  }

  /** Stops listening to the current transport (its later callbacks are ignored) and clears its timers. */
  #abandon(): void {
    this.#generation++
    this.#transport = undefined
    this.#o.clock.clearTimeout(this.#watchdog)
    this.#watchdog = undefined
    this.#commands.disconnected()
  }

  #closed(code: number, reason: string): void {
    const bye = this.#bye
    this.#bye = undefined
    this.#abandon()
    if (isTerminalClose(code)) {
      this.#setState('closed', code, reason)
      this.#failConnect(new StreamClosedError(code, reason))
      return
    }
    const attempt = this.#attempt++
    const delayMs = reconnectDelayMs(attempt, this.#o.reconnect, bye?.reconnect_after_ms)
    this.#setState('reconnecting', code, reason)
    this.#events.emit('reconnectScheduled', { attempt, delayMs, code })
    this.#reconnectTimer = this.#o.clock.setTimeout(() => {
      this.#reconnectTimer = undefined
      if (this.#state !== 'closed') this.#open()
    }, delayMs)
  }

  #armWatchdog(): void {
    this.#lastBeat = this.#o.clock.now()
    this.#o.clock.clearTimeout(this.#watchdog)
    this.#watchdog = this.#o.clock.setTimeout(() => {
      this.#watchdog = undefined
      this.#events.emit('heartbeatTimeout', { sinceMs: this.#o.clock.now() - this.#lastBeat })
      // The socket may still be open (a silent stall): leave it and reconnect as after a network error.
      const transport = this.#transport
      this.#closed(1006, 'heartbeat timeout')
      transport?.close(4000, 'heartbeat timeout')
    }, this.#o.heartbeatTimeoutMs)
  }

  #setState(state: ConnectionState, code?: number, reason?: string): void {
    if (state === this.#state && code === undefined) return
    this.#state = state
    this.#events.emit('state', { state, ...(code === undefined ? {} : { code }), ...(reason ? { reason } : {}) })
  }

  #settleConnect(welcome: WelcomeFrame): void {
    const waiters = this.#connectWaiters
    this.#connectWaiters = []
    for (const w of waiters) w.resolve(welcome)
  }

  #failConnect(error: Error): void {
    const waiters = this.#connectWaiters
    this.#connectWaiters = []
    for (const w of waiters) w.reject(error)
  }

  // ---- frames ----

  #receive(text: string): void {
    const frame = parseServerFrame(text)
    if (frame === undefined) return
    this.#events.emit('frame', frame)
    switch (frame.type) {
      case 'welcome':
        return this.#onWelcome(frame)
      case 'ack':
      case 'pong':
        return this.#commands.answer(frame.id, frame)
      case 'error':
        if (this.#commands.refuse(frame.id, new StreamCommandError(frame.code, frame.message))) return
        return this.#events.emit('error', frame)
      case 'hb':
        this.#lastHeartbeat = frame
        if (this.#state === 'open') this.#armWatchdog()
        return this.#events.emit('hb', frame)
      case 'bye':
        this.#bye = frame
        return this.#events.emit('bye', frame)
      default:
        if (isSnapshotsDone(frame)) return this.#events.emit('snapshotsDone', frame)
        if (isStreamFrame(frame)) return this.#onStreamFrame(frame)
    }
  }

  #onWelcome(welcome: WelcomeFrame): void {
    this.#welcome = welcome
    this.#attempt = 0
    this.#armWatchdog()
    this.#setState('open')
    for (const held of this.#subscriptions) this.#resubscribe(held)
    this.#events.emit('welcome', welcome)
    this.#settleConnect(welcome)
  }

  /** Subscribes a held subscription again on the new connection, resuming every stream it holds a state of. */
  #resubscribe(held: HeldSubscription): void {
    const keys = [...held.keys]
    if (keys.length === 0) return
    const resume: Record<string, { epoch: string; seq: number }> = {}
    for (const key of keys) {
      const t = this.#streams.get(streamKey(held.ch, key))?.tracker
      if (t?.resumable) resume[key] = { epoch: t.epoch as string, seq: t.seq as number }
    }
    held.sid = undefined
    const command: CommandBody = {
      op: 'subscribe',
      ch: held.ch,
      keys,
      ...(held.depth === undefined ? {} : { depth: held.depth }),
      ...(Object.keys(resume).length > 0 ? { resume } : {}),
    }
    this.#sendCommand(command).then(
      (frame) => {
        const ack = frame as AckFrame
        held.sid = ack.sid
        held.keys = new Set(ack.accepted ?? [])
        // A key refused now (e.g. a market that closed while we were away) is no longer held.
        this.#forgetUnheld(
          held.ch,
          keys.filter((k) => !held.keys.has(k)),
        )
        this.#events.emit('resubscribed', { subscription: held, ack })
      },
      () => {}, // A disconnect before the ack: the next welcome tries again.
    )
  }

  #onStreamFrame(frame: DataFrame): void {
    const s = this.#entry(frame.ch, frame.key)
    if (frame.type === 'snapshot') {
      s.tracker.snapshot(frame.epoch, frame.seq)
      this.#events.emit('snapshot', frame)
      this.#applyPayload(s, frame, true)
      return
    }
    const held = s.tracker.resumable ? { epoch: s.tracker.epoch!, seq: s.tracker.seq! } : undefined
    const verdict = s.tracker.next(frame.epoch, frame.seq)
    if (verdict === 'gap') {
      this.#events.emit('gap', { ch: s.ch, key: s.key, ...(held ? { held } : {}), got: frame })
      this.#requestSnapshot(s)
      return
    }
    if (verdict !== 'apply') return
    if (frame.type === 'marker') {
      this.#events.emit('marker', frame as DataFrame<MarkerPayload>)
      this.#onMarker(s, frame.d as MarkerPayload)
      return
    }
    this.#events.emit('delta', frame)
    this.#applyPayload(s, frame, false)
  }

  #applyPayload(s: StreamEntry, frame: DataFrame, replace: boolean): void {
    if (s.book !== undefined) {
      const d = frame.d as BookPayload
      const r = replace ? s.book.applySnapshot(d) : s.book.applyDelta(d)
      if (!r.ok) return this.#mismatch(s, r.expected as number, r.actual)
      return this.#events.emit('book', { key: s.key, book: s.book, frame })
    }
    if (s.top !== undefined) {
      const d = frame.d as TopPayload
      const r = replace ? s.top.applySnapshot(d) : s.top.applyDelta(d)
      if (!r.ok) return this.#mismatch(s, r.expected as number, r.actual)
      return this.#events.emit('top', { key: s.key, list: s.top, frame })
    }
    s.value = frame.d
    this.#events.emit('value', { ch: s.ch, key: s.key, value: frame.d, frame })
  }

  #mismatch(s: StreamEntry, expected: number, actual: number): void {
    s.tracker.lose()
    this.#events.emit('crcMismatch', { ch: s.ch, key: s.key, expected, actual })
    this.#requestSnapshot(s)
  }

  #onMarker(s: StreamEntry, d: MarkerPayload): void {
    // A disconnect makes what we built untrustworthy until the venue is back; `resync` says it is, and a snapshot
    // follows (it replaces the state when it arrives, through the seq rules).
    const stale = d.ev === 'venue_disconnect' ? true : d.ev === 'resync' ? false : s.stale
    if (stale === s.stale) return
    s.stale = stale
    this.#events.emit('stale', { ch: s.ch, key: s.key, stale, marker: d })
  }

  /** Asks for one stream's snapshot; retried while the stream still waits for one (e.g. after RATE_LIMITED). */
  #requestSnapshot(s: StreamEntry): void {
    if (this.#state !== 'open') return // The resubscribe on the next welcome asks for a snapshot anyway.
    this.#sendCommand({ op: 'snapshot', ch: s.ch, keys: [s.key] }).catch((error: unknown) => {
      // A lost connection needs no retry: the resubscribe after the next welcome brings a snapshot.
      if (error instanceof StreamCommandError && error.code === 'DISCONNECTED') return
      if (this.#state !== 'open') return
      this.#o.clock.setTimeout(() => {
        if (s.tracker.awaitingSnapshot && this.#streams.get(streamKey(s.ch, s.key)) === s) this.#requestSnapshot(s)
      }, this.#o.snapshotRetryMs)
    })
  }

  #entry(ch: string, key: string): StreamEntry {
    const id = streamKey(ch, key)
    let s = this.#streams.get(id)
    if (s === undefined) {
      s = {
        ch,
        key,
        tracker: new StreamTracker(),
        stale: false,
        ...(ch === 'book' ? { book: new BookAssembler() } : {}),
        ...(ch === 'spreads.top' ? { top: new TopListAssembler() } : {}),
      }
      this.#streams.set(id, s)
    }
    return s
  }

  #forgetUnheld(ch: string, keys: readonly string[]): void {
    for (const key of keys) {
      const stillHeld = [...this.#subscriptions].some((h) => h.ch === ch && h.keys.has(key))
      if (!stillHeld) this.#streams.delete(streamKey(ch, key))
    }
  }

  #held(subscription: Subscription): HeldSubscription {
    const held = subscription as HeldSubscription
    if (!this.#subscriptions.has(held)) throw new Error('not a subscription this client holds')
    return held
  }

  // ---- commands ----

  #command(body: CommandBody): Promise<AckFrame | PongFrame> {
    if (this.#state !== 'open')
      return Promise.reject(new StreamCommandError('DISCONNECTED', `not connected (${this.#state})`))
    return this.#sendCommand(body)
  }

  #sendCommand(body: CommandBody): Promise<AckFrame | PongFrame> {
    const transport = this.#transport
    if (transport === undefined) return Promise.reject(new StreamCommandError('DISCONNECTED', 'no connection'))
    return this.#commands.send(transport, body)
  }
}

function streamKey(ch: string, key: string): string {
  return `${ch}\u0000${key}`
}
