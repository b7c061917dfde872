/**
 * Continuity of one stream (`ch` + `key`) on the client, by the contract's seq rules: a delta or marker is exactly
 * the previous seq + 1; a snapshot carries the seq of the last change it includes (it may repeat it or jump ahead)
 * and resets the count; another epoch means continuity is gone. After a gap the stream waits for a snapshot and
 * ignores everything else, so one lost frame costs one snapshot request, not one per queued delta (a "resync
 * storm").
 */
export type Verdict =
  /** Apply the frame: it continues the stream (or is a snapshot). */
  | 'apply'
  /** Already held (a replay that overlaps what we have): skip it. */
  | 'duplicate'
  /** Continuity is lost: ask for a snapshot. Later frames are ignored until it arrives. */
  | 'gap'
  /** Waiting for a snapshot already asked for: skip. */
  | 'waiting'

export class StreamTracker {
  epoch: string | undefined
  seq: number | undefined
  /** True from a gap (or a checksum mismatch) until the next snapshot. */
  awaitingSnapshot = false

  /** Whether we hold a state a resume token can name. */
  get resumable(): boolean {
    return this.epoch !== undefined && this.seq !== undefined && !this.awaitingSnapshot
  }

  snapshot(epoch: string, seq: number): Verdict {
    this.epoch = epoch
    this.seq = seq
    this.awaitingSnapshot = false
    return 'apply'
  }

  /** A delta or a seq-bearing marker. */
  next(epoch: string, seq: number): Verdict {
    if (this.awaitingSnapshot) return 'waiting'
    if (this.epoch === undefined || this.seq === undefined || epoch !== this.epoch) return this.lose()
    if (seq <= this.seq) return 'duplicate'
    if (seq !== this.seq + 1) return this.lose()
    this.seq = seq
    return 'apply'
  }

  /** Marks the state as untrusted (gap, checksum mismatch): only a snapshot restores it. */
  lose(): Verdict {
    this.awaitingSnapshot = true
    return 'gap'
  }
}
