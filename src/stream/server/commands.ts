import { BOOK_DEPTHS, type Command } from '../protocol.js'
import type { CommandId } from './control-frames.js'

/**
 * Reads one client frame into a Command, or says why it is not one (BAD_REQUEST with the reason). Only the shape
 * is checked here; whether a channel, key or sid exists is the server's business (UNKNOWN_CHANNEL, per-key
 * rejections). The id is recovered even from a bad command, so its error can echo it.
 */
export type Parsed =
  | { readonly ok: true; readonly command: Command }
  | { readonly ok: false; readonly id: CommandId; readonly reason: string }

/** Keys per command: far above any sensible batch, low enough that one frame cannot make the server loop long. */
const MAX_KEYS_PER_COMMAND = 1_000

export function parseCommand(text: string): Parsed {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    return bad(null, 'not JSON')
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return bad(null, 'a command is a JSON object')
  const o = raw as Record<string, unknown>
  const id = o.id
  if (id !== undefined && !isId(id)) return bad(null, '`id` must be a number or a string')
  const cid: CommandId = id ?? null
  switch (o.op) {
    case 'auth':
      if (typeof o.key !== 'string' || o.key === '') return bad(cid, '`key` must be a non-empty string')
      return ok({ op: 'auth', id: cid ?? undefined, key: o.key })
    case 'subscribe': {
      if (typeof o.ch !== 'string') return bad(cid, '`ch` must be a string')
      const keys = keyList(o.keys, 'keys', true)
      if (typeof keys === 'string') return bad(cid, keys)
      if (o.depth !== undefined && !(BOOK_DEPTHS as readonly unknown[]).includes(o.depth))
        return bad(cid, `\`depth\` must be one of ${BOOK_DEPTHS.join(', ')}`)
      const resume = resumeTokens(o.resume)
      if (typeof resume === 'string') return bad(cid, resume)
      return ok({
        op: 'subscribe',
        id: cid ?? undefined,
        ch: o.ch,
        keys,
        ...(o.depth === undefined ? {} : { depth: o.depth as number }),
        ...(resume === undefined ? {} : { resume }),
      })
    }
    case 'update': {
      if (typeof o.sid !== 'string') return bad(cid, '`sid` must be a string')
      const add = o.add === undefined ? [] : keyList(o.add, 'add', false)
      if (typeof add === 'string') return bad(cid, add)
      const remove = o.remove === undefined ? [] : keyList(o.remove, 'remove', false)
      if (typeof remove === 'string') return bad(cid, remove)
      return ok({ op: 'update', id: cid ?? undefined, sid: o.sid, add, remove })
    }
    case 'snapshot': {
      if (typeof o.ch !== 'string') return bad(cid, '`ch` must be a string')
      const keys = keyList(o.keys, 'keys', true)
      if (typeof keys === 'string') return bad(cid, keys)
      return ok({ op: 'snapshot', id: cid ?? undefined, ch: o.ch, keys })
    }
    case 'unsubscribe':
      if (typeof o.sid !== 'string') return bad(cid, '`sid` must be a string')
      return ok({ op: 'unsubscribe', id: cid ?? undefined, sid: o.sid })
    case 'list':
      return ok({ op: 'list', id: cid ?? undefined })
    case 'ping':
      return ok({ op: 'ping', id: cid ?? undefined })
    default:
      return bad(cid, '`op` must be one of auth, subscribe, update, snapshot, unsubscribe, list, ping')
  }
}

function ok(command: Command): Parsed {
  return { ok: true, command }
}

function bad(id: CommandId, reason: string): Parsed {
  return { ok: false, id, reason }
}

function isId(v: unknown): v is number | string {
  return (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && v.length <= 64)
}

/** A list of distinct non-empty strings (duplicates are folded: one stream per key). */
function keyList(v: unknown, name: string, nonEmpty: boolean): string[] | string {
  if (!Array.isArray(v)) return `\`${name}\` must be an array of strings`
  if (nonEmpty && v.length === 0) return `\`${name}\` must not be empty`
  if (v.length > MAX_KEYS_PER_COMMAND) return `\`${name}\` holds more than ${MAX_KEYS_PER_COMMAND} keys`
  for (const k of v) if (typeof k !== 'string' || k === '') return `\`${name}\` must be an array of non-empty strings`
  return [...new Set(v as string[])]
}

type Resume = Record<string, { epoch: string; seq: number }>

function resumeTokens(v: unknown): Resume | undefined | string {
  if (v === undefined) return undefined
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    return '`resume` must be an object of {epoch, seq} by key'
  const out: Resume = {}
  for (const [key, t] of Object.entries(v as Record<string, unknown>)) {
    const token = t as { epoch?: unknown; seq?: unknown } | null
    if (
      typeof token !== 'object' ||
      token === null ||
      typeof token.epoch !== 'string' ||
      typeof token.seq !== 'number' ||
      !Number.isInteger(token.seq) ||
      token.seq < 0
    )
      return `\`resume.${key}\` must be {epoch: string, seq: non-negative integer}`
    out[key] = { epoch: token.epoch, seq: token.seq }
  }
  return out
}
