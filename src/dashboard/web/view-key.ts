/**
 * The filters of the top list as a `spreads.top` view key. The key is written in the server's canonical form
 * (src/stream/sources/spreads/top-view.ts: every parameter in its order, defaults spelled out, values printed as
 * the server prints them), because the frames of a view carry the canonical key and the client matches frames,
 * snapshots and resumes by key: a key in another spelling would open the same stream under a name the client
 * cannot find its frames by.
 *
 * `category` and `search` come after the scanner's filters, lowercased, `search` with its whitespace collapsed
 * (src/stream/sources/spreads/view-text-filters.ts: both compare case-insensitively). A value the server refuses
 * (e.g. a search of more than 100 characters) gets BAD_REQUEST with a reason, which the page shows.
 */
export const VIEW_LIMIT = 50

export interface Filters {
  /** Minimum spread in basis points; undefined: not filtered. */
  readonly minSpreadBps: number | undefined
  /** A category slug; '' for all. */
  readonly category: string
  /** Text to find in event and outcome titles; '' for none. */
  readonly search: string
}

export const NO_FILTERS: Filters = { minSpreadBps: undefined, category: '', search: '' }

export function viewKey(f: Filters): string {
  const parts = [`limit=${VIEW_LIMIT}`, 'window=24', 'sort=confidence', 'executable_only=false']
  if (f.minSpreadBps !== undefined) parts.push(`min_spread=${String(f.minSpreadBps / 10_000)}`)
  const category = f.category.trim().toLowerCase()
  if (category !== '') parts.push(`category=${encode(category)}`)
  const search = f.search
    .toLowerCase()
    .split(/\s+/u)
    .filter((w) => w !== '')
    .join(' ')
  if (search !== '') parts.push(`search=${encode(search)}`)
  return parts.join('&')
}

/** As the server re-prints a value: percent-encoded, commas kept. */
function encode(value: string): string {
  return encodeURIComponent(value).replace(/%2C/g, ',')
}

/**
 * The min-spread input (basis points) as a filter: '' is none; a number is kept as typed, even out of bounds, so
 * the server's reason for refusing it is what the page shows; text that is no number is none.
 */
export function minSpreadOf(text: string): number | undefined {
  const t = text.trim()
  if (t === '') return undefined
  const n = Number(t)
  return Number.isFinite(n) ? n : undefined
}
