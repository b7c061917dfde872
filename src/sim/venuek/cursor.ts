/**
 * venuek pagination cursors (venuek.md §4): opaque base64url strings, `""` on the last page. The simulator's
 * cursor carries a list kind and a position. Catalog lists (series, events, markets) never change, so the
 * position is an offset; trade lists only grow at the new end, so a trade cursor holds the index of the next
 * older trade (a keyset position), which stays valid while new trades arrive between pages.
 *
 * The real venue answers a garbage cursor with 200 and data, so a cursor that does not decode, or belongs to
 * another list, simply means "from the start".
 */
export type CursorKind = 'events' | 'markets' | 'trades'

const PREFIX = 'sim1'

export function encodeCursor(kind: CursorKind, position: number): string {
  return Buffer.from(`${PREFIX}|${kind}|${position}`, 'utf8').toString('base64url')
}

/** The position in `cursor` for a list of `kind`, or undefined when absent, garbage or foreign. */
export function decodeCursor(cursor: string | undefined, kind: CursorKind): number | undefined {
  if (cursor === undefined || cursor.length === 0 || cursor.length > 200) return undefined
  const parts = Buffer.from(cursor, 'base64url').toString('utf8').split('|')
  if (parts.length !== 3 || parts[0] !== PREFIX || parts[1] !== kind) return undefined
  const position = Number(parts[2])
  return Number.isSafeInteger(position) && position >= 0 ? position : undefined
}

/** One page of an offset-paginated list plus the cursor of the next page (`""` when this is the last). */
export function pageOf<T>(
  items: readonly T[],
  kind: CursorKind,
  cursor: string | undefined,
  limit: number,
): { page: T[]; cursor: string } {
  const offset = Math.min(decodeCursor(cursor, kind) ?? 0, items.length)
  const end = offset + limit
  return { page: items.slice(offset, end), cursor: end < items.length ? encodeCursor(kind, end) : '' }
}
