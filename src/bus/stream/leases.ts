import { ERROR_CODES, isChannel, type Channel, type Rejection } from '../../stream/protocol.js'

/**
 * The lease messages (subjects `lease.open`, `lease.renew`; docs/SCALE-OUT.md): an edge names the streams of the
 * leased channels its clients hold, as the ingest's sources resolve them, and the ingest holds each open until no
 * edge has renewed it for a resume window.
 *
 * - `lease.open` (request): `{streams: [LeaseRequest]}`; the ingest opens what is not open, publishes a snapshot of
 *   every stream named (on its `md` subject, before it replies: the requester's mirror then holds the state), and
 *   replies `{streams: [LeaseAnswer]}` in the same order: `{topic, epoch, seq}`, or the rejection of the key.
 * - `lease.renew` (publish, every quarter window or so): `{streams: [LeaseRequest]}`, no reply; a stream the ingest
 *   no longer holds is opened again (a new epoch, reaching clients as a snapshot).
 */
export interface LeaseRequest {
  readonly ch: Channel
  /** The stream's key as its source prints it (an account id for `alerts`, the canonical view for `spreads.top`). */
  readonly key: string
  /** `book` only. */
  readonly depth?: number
  /** `alerts` only: the account whose firings the stream carries. */
  readonly account?: string
}

export interface LeaseOpened {
  readonly topic: string
  readonly epoch: string
  readonly seq: number
}

export type LeaseAnswer = LeaseOpened | Rejection

export function isRejection(a: LeaseAnswer): a is Rejection {
  return 'code' in a
}

/** One lease message: its body and how many requests (in order, after the previous body's) it carries. */
export interface LeaseBody {
  readonly text: string
  readonly count: number
}

/** Splits requests into message bodies of at most `maxBytes` each (one request always fits: keys are short). */
export function leaseBodies(requests: readonly LeaseRequest[], maxBytes: number): LeaseBody[] {
  const bodies: LeaseBody[] = []
  let part: string[] = []
  let size = 0
  const flush = (): void => {
    if (part.length > 0) bodies.push({ text: `{"streams":[${part.join(',')}]}`, count: part.length })
    part = []
    size = 0
  }
  for (const r of requests) {
    const json = JSON.stringify(r)
    if (part.length > 0 && size + json.length + 16 > maxBytes) flush()
    part.push(json)
    size += json.length + 1
  }
  flush()
  return bodies
}

/** A `lease.open` or `lease.renew` body, or undefined when it is not one (nothing of it is acted on). */
export function parseLeaseRequests(text: string): LeaseRequest[] | undefined {
  const streams = streamsOf(text)
  if (streams === undefined) return undefined
  const out: LeaseRequest[] = []
  for (const s of streams) {
    if (typeof s !== 'object' || s === null) return undefined
    const r = s as Record<string, unknown>
    if (!isChannel(r.ch) || typeof r.key !== 'string' || r.key === '') return undefined
    if (r.depth !== undefined && !Number.isInteger(r.depth)) return undefined
    if (r.account !== undefined && typeof r.account !== 'string') return undefined
    out.push({
      ch: r.ch,
      key: r.key,
      ...(r.depth === undefined ? {} : { depth: r.depth as number }),
      ...(r.account === undefined ? {} : { account: r.account as string }),
    })
  }
  return out
}

/** A `lease.open` reply, or undefined when it is not one. */
export function parseLeaseAnswers(text: string): LeaseAnswer[] | undefined {
  const streams = streamsOf(text)
  if (streams === undefined) return undefined
  const out: LeaseAnswer[] = []
  for (const s of streams) {
    if (typeof s !== 'object' || s === null) return undefined
    const a = s as Record<string, unknown>
    if (typeof a.topic === 'string' && typeof a.epoch === 'string' && Number.isInteger(a.seq))
      out.push({ topic: a.topic, epoch: a.epoch, seq: a.seq as number })
    else if (
      typeof a.key === 'string' &&
      typeof a.reason === 'string' &&
      (ERROR_CODES as readonly unknown[]).includes(a.code)
    )
      out.push({ key: a.key, code: a.code as Rejection['code'], reason: a.reason })
    else return undefined
  }
  return out
}

function streamsOf(text: string): unknown[] | undefined {
  try {
    const body = JSON.parse(text) as { streams?: unknown }
    return typeof body === 'object' && body !== null && Array.isArray(body.streams) ? body.streams : undefined
  } catch {
    return undefined
  }
}
