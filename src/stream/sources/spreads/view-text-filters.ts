import type { SpreadRecord } from '../../../spreads/engine/spread-engine.js'

/**
 * The two filters a `spreads.top` view has beyond the scanner's (what a dashboard's filter bar asks for):
 * `category`, the pair's event category slug (as `/api/v2/events?category=` compares it), and `search`, words that
 * must all occur in the pair's event or outcome title. Both compare case-insensitively, so the canonical key holds
 * them lowercased (with `search`'s whitespace collapsed): `search=Trump` and `search=trump ` are one stream.
 */
export interface ViewTextFilters {
  readonly category?: string | undefined
  readonly search?: string | undefined
}

export function canonicalCategory(category: string): string {
  return category.trim().toLowerCase()
}

export function canonicalSearch(search: string): string {
  return searchWords(search).join(' ')
}

/** The filter of a view's canonical `category` and `search` (undefined: no such filter). */
export function textFilter(f: ViewTextFilters): ((r: SpreadRecord) => boolean) | undefined {
  const category = f.category
  const words = f.search === undefined ? [] : searchWords(f.search)
  if (category === undefined && words.length === 0) return undefined
  // A record's title text is fixed for its pair (titles come from the catalog): lowercased once per record.
  const titles = new WeakMap<SpreadRecord, string>()
  const titleOf = (r: SpreadRecord): string => {
    let t = titles.get(r)
    if (t === undefined) titles.set(r, (t = `${r.eventTitle}\n${r.outcomeTitle}`.toLowerCase()))
    return t
  }
  return (r) =>
    (category === undefined || r.category.toLowerCase() === category) &&
    (words.length === 0 || words.every((w) => titleOf(r).includes(w)))
}

function searchWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/\s+/u)
    .filter((w) => w.length > 0)
}
