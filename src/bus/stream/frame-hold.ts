/**
 * Bytes of frames the ingest's sink (BusFrameSink) holds across a broker outage by default (config
 * `nats.holdMaxBytes`, NATS_HOLD_MAX_BYTES). At the bench's 5,100 quote changes/s (a frame with its subject is ~300
 * bytes: ~1.5 MB/s) that is ~20 s of frames: a broker restart with its JetStream recovery (seconds) plus the time the
 * client may take to notice a dead link (pings every 5 s, 2 unanswered: up to ~15 s), which is what the hold must
 * outlast. Held only while the broker is away; in service it holds the last half second or so.
 */
export const DEFAULT_HOLD_MAX_BYTES = 32 * 1024 * 1024

/** A frame as it goes on the bus, numbered in publish order. */
export interface HeldFrame {
  readonly n: number
  readonly subject: string
  readonly payload: string
}

/**
 * The ingest's frames not yet known to have reached the broker, in publish order, bounded by size: those published
 * since the last confirmation, and while the link is down those not published at all. What a broker restart may
 * have lost is in here, to publish (again) once the broker stores `md.>` again (see BusFrameSink).
 *
 * Sizes are string lengths of subject and payload: the frames are ASCII JSON, so that is their size on the wire.
 */
export class FrameHold {
  readonly maxBytes: number
  #frames: HeldFrame[] = []
  /** Index of the oldest frame still held (confirmed frames before it are dropped in batches, not one shift each). */
  #head = 0
  #bytes = 0
  #last = 0

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes
  }

  /** Bytes held. */
  get bytes(): number {
    return this.#bytes
  }

  /** Frames held. */
  get size(): number {
    return this.#frames.length - this.#head
  }

  /** The number of the last frame added (0 before any). */
  get last(): number {
    return this.#last
  }

  /** Adds a frame behind the others; false (nothing added) if it would take the hold past `maxBytes`. */
  add(subject: string, payload: string): boolean {
    const bytes = subject.length + payload.length
    if (this.#bytes + bytes > this.maxBytes) return false
    this.#frames.push({ n: ++this.#last, subject, payload })
    this.#bytes += bytes
    return true
  }

  /** The broker has read every frame up to number `n`: they are dropped. */
  confirm(n: number): void {
    let head = this.#head
    const frames = this.#frames
    while (head < frames.length && (frames[head] as HeldFrame).n <= n) {
      const f = frames[head] as HeldFrame
      this.#bytes -= f.subject.length + f.payload.length
      head++
    }
    if (head === frames.length) this.clear()
    else if (head > 1024 && head * 2 > frames.length) {
      this.#frames = frames.slice(head)
      this.#head = 0
    } else this.#head = head
  }

  clear(): void {
    this.#frames = []
    this.#head = 0
    this.#bytes = 0
  }

  /** The frames held, oldest first. */
  frames(): HeldFrame[] {
    return this.#frames.slice(this.#head)
  }
}
