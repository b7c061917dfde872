import type { SpreadRow } from './spread-row.js'

/**
 * The `book` channel keys of a pair's two legs: `<venue>:<instrument id>`, the instrument id being the record's
 * `match.<venue>_outcome_id` (venuep: the CLOB token id of the YES side; venuek: the market ticker), which are the
 * ids the venue actors stream books under. Leg a is the record's `platform_a` when the pair is selected.
 */
export interface BookLeg {
  readonly venue: string
  /** Undefined when the record names no contract for this venue. */
  readonly key: string | undefined
}

export function bookLegs(r: Pick<SpreadRow, 'platform_a' | 'platform_b' | 'match'>): [BookLeg, BookLeg] {
  return [leg(r, r.platform_a), leg(r, r.platform_b)]
}

function leg(r: Pick<SpreadRow, 'match'>, venue: string): BookLeg {
  const id = r.match[`${venue}_outcome_id`]
  return { venue, key: typeof id === 'string' && id !== '' ? `${venue}:${id}` : undefined }
}
