import { createHash } from 'node:crypto'

/**
 * Stable paging over the Data API's time-ordered lists (`/trades`, `/activity`) while new rows keep arriving.
 *
 * The venue pages by offset. Offsets shift as rows are prepended (a new trade pushes every older trade one
 * place down), so offset paging over a live list repeats rows or skips them, and it stops at the venue's
 * offset cap (10,000). Instead every page after the first is anchored on time: the next page asks for rows at
 * or before (newest-first lists) or at or after (oldest-first walks) the *anchor second*, the timestamp of the
 * last row served, and drops the rows of that second it has already served, recognised by a digest of their
 * content. So:
 * - rows that arrive later at the head are not part of the walk (the client sees them by re-reading the head);
 * - a row that arrives late *inside* the walked range, or in the anchor second itself, is still served once;
 * - there is no depth limit: the venue is always asked at offset 0 (or a small offset, below).
 *
 * Digests are kept for at most MAX_SEEN rows of one second; a second with more rows than that (a burst)
 * falls back to skipping by count within that second, which is exact unless rows are inserted into that very
 * second between two page reads.
 *
 * A page may hold fewer rows than asked when the venue's page cap is smaller than `limit` plus the rows to
 * drop; only `next === undefined` means the end of the data.
 */
export interface Anchor {
  /** Unix seconds of the last row served. */
  readonly ts: number
  /** Rows of that second already served. */
  readonly n: number
  /** Their digests while n ≤ MAX_SEEN; undefined once paging within the second goes by count. */
  readonly seen: readonly string[] | undefined
}

export const MAX_SEEN = 32

export interface KeyedRow {
  readonly ts: number
  readonly digest: string
}

/** Fetches rows bounded by `bound` (undefined for the head), skipping `offset`, at most `limit`. */
export type FetchRows<R> = (bound: number | undefined, offset: number, limit: number) => Promise<readonly R[]>

export interface KeysetPage<R> {
  readonly rows: readonly R[]
  /** Where the next page starts; undefined at the end of the data. */
  readonly next: Anchor | undefined
}

export async function keysetPage<R extends KeyedRow>(
  fetchRows: FetchRows<R>,
  anchor: Anchor | undefined,
  limit: number,
  upstreamMax: number,
): Promise<KeysetPage<R>> {
  let page: R[]
  let exhausted: boolean
  if (anchor === undefined) {
    const rows = await fetchRows(undefined, 0, Math.min(limit, upstreamMax))
    page = rows.slice(0, limit)
    exhausted = rows.length < Math.min(limit, upstreamMax)
  } else if (anchor.seen !== undefined) {
    const ask = Math.min(limit + anchor.seen.length, upstreamMax)
    const rows = await fetchRows(anchor.ts, 0, ask)
    const seen = new Set(anchor.seen)
    const fresh = rows.filter((r) => r.ts !== anchor.ts || !seen.has(r.digest))
    page = fresh.slice(0, limit)
    exhausted = rows.length < ask && fresh.length <= limit
  } else {
    const ask = Math.min(limit, upstreamMax)
    const rows = await fetchRows(anchor.ts, anchor.n, ask)
    page = rows.slice(0, limit)
    exhausted = rows.length < ask
  }
  if (exhausted) return { rows: page, next: undefined }
  return { rows: page, next: nextAnchor(anchor, page) }
}

/** The anchor after serving `page` (which follows `prev`). */
export function nextAnchor(prev: Anchor | undefined, page: readonly KeyedRow[]): Anchor | undefined {
  const last = page.at(-1)
  if (last === undefined) return prev
  const atLast = page.filter((r) => r.ts === last.ts).map((r) => r.digest)
  const carried = prev !== undefined && prev.ts === last.ts ? prev : undefined
  const n = (carried?.n ?? 0) + atLast.length
  const seen =
    carried !== undefined && carried.seen === undefined
      ? undefined
      : n <= MAX_SEEN
        ? [...(carried?.seen ?? []), ...atLast]
        : undefined
  return { ts: last.ts, n, seen }
}

/**
 * Opaque cursors: base64url JSON of the anchor plus a fingerprint of the filters the walk was started with
 * (a cursor is only valid with the same filters). Clients must treat the string as opaque.
 */
export interface CursorBody {
  readonly kind: string
  readonly filters: string
  readonly anchor: Anchor
}

export function fingerprint(parts: readonly string[]): string {
  return createHash('sha1').update(parts.join('\n')).digest('base64url').slice(0, 12)
}

export function encodeCursor(c: CursorBody): string {
  const body: Record<string, unknown> = { k: c.kind, f: c.filters, t: c.anchor.ts, n: c.anchor.n }
  if (c.anchor.seen !== undefined) body.s = c.anchor.seen.join('.')
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url')
}

/** The cursor's content, or undefined when it is not one of ours. */
export function decodeCursor(cursor: string): CursorBody | undefined {
  let raw: unknown
  try {
    raw = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    return undefined
  }
  if (typeof raw !== 'object' || raw === null) return undefined
  const o = raw as Record<string, unknown>
  const { k, f, t, n, s } = o
  if (typeof k !== 'string' || typeof f !== 'string') return undefined
  if (!Number.isSafeInteger(t) || !Number.isSafeInteger(n) || (n as number) < 0 || (t as number) < 0) return undefined
  if (s !== undefined && (typeof s !== 'string' || !/^[0-9a-f.]*$/.test(s))) return undefined
  const seen = s === undefined ? undefined : s === '' ? [] : s.split('.')
  if (seen !== undefined && seen.length > MAX_SEEN) return undefined
  return { kind: k, filters: f, anchor: { ts: t as number, n: n as number, seen } }
}
