import { ParamError } from './context.js'
import { decodeCursor, encodeCursor, fingerprint, type Anchor } from './keyset.js'
import { TTL } from './ttl.js'

/**
 * The cursor parameter of the keyset-paged lists (orders, activity): decoding, the filter check, and the TTL
 * of an anchored venue page.
 */
export interface CursorScope {
  /** Which list the cursor belongs to. */
  readonly kind: string
  /** The filters the walk was started with, canonicalized (a cursor is only valid with the same filters). */
  readonly filters: readonly string[]
}

/** The anchor encoded in `cursor` (undefined for the first page); a foreign or mismatched cursor is a 422. */
export function anchorOf(cursor: string | undefined, scope: CursorScope): Anchor | undefined {
  if (cursor === undefined) return undefined
  const c = decodeCursor(cursor)
  if (c === undefined || c.kind !== scope.kind)
    throw new ParamError(['query', 'cursor'], 'cursor is not a cursor of this list', cursor)
  if (c.filters !== fingerprint(scope.filters)) {
    throw new ParamError(
      ['query', 'cursor'],
      'cursor was issued for other filters; send the same filters as the request that returned it',
      cursor,
    )
  }
  return c.anchor
}

export function cursorOf(anchor: Anchor | undefined, scope: CursorScope): string | null {
  return anchor === undefined ? null : encodeCursor({ kind: scope.kind, filters: fingerprint(scope.filters), anchor })
}

/** TTL of a venue page: the head moves all the time; an anchored page is settled once its anchor is old. */
export function pageTtlMs(bound: number | undefined, nowMs: number, headMs: number): number {
  if (bound === undefined) return headMs
  return bound <= Math.floor(nowMs / 1000) - TTL.pageSettledAfterSec ? TTL.pageSettledMs : TTL.pageRecentMs
}
