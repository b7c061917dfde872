import { pushAll } from '../core/arrays.js'

/**
 * What a paged listing returned: at most `maxItems` items, and whether paging stopped at that cap while the
 * venue listed more (`capped`), as opposed to the venue's own end of data. To tell the two apart, paging reads
 * one item past the cap (at most one page more than the cap needs): a venue that ends exactly at the cap is
 * not capped.
 */
export interface Paged<T> {
  readonly items: T[]
  readonly capped: boolean
}

/**
 * Offset pagination with a small pool of requests in flight: page k is fetched as soon as a slot frees up,
 * and paging stops at the first short page (the venue's end of data) or past `maxItems`. Pages are returned in
 * offset order, so results are deterministic regardless of which request finished first.
 */
export async function fetchOffsetPages<T>(
  fetchPage: (offset: number, limit: number) => Promise<readonly T[]>,
  options: { readonly pageSize: number; readonly maxItems: number; readonly concurrency: number },
): Promise<Paged<T>> {
  const pages = new Map<number, readonly T[]>()
  let nextPage = 0
  let endPage = Number.POSITIVE_INFINITY
  // Enough pages for one item past the cap (Paged says why).
  const maxPages = Math.ceil((options.maxItems + 1) / options.pageSize)
  const worker = async (): Promise<void> => {
    for (;;) {
      const page = nextPage++
      if (page >= endPage || page >= maxPages) return
      const items = await fetchPage(page * options.pageSize, options.pageSize)
      pages.set(page, items)
      if (items.length < options.pageSize) endPage = Math.min(endPage, page + 1)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker))
  const out: T[] = []
  for (let page = 0; page < Math.min(endPage, maxPages); page++) pushAll(out, pages.get(page) ?? [])
  return capAt(out, options.maxItems)
}

/** Cursor pagination: follows `cursor` until the venue returns an empty one, or past `maxItems`. */
export async function fetchCursorPages<T>(
  fetchPage: (
    cursor: string | undefined,
  ) => Promise<{ readonly items: readonly T[]; readonly cursor: string | undefined | null }>,
  options: { readonly maxItems: number },
): Promise<Paged<T>> {
  const out: T[] = []
  const seen = new Set<string>()
  let cursor: string | undefined
  for (;;) {
    const page = await fetchPage(cursor)
    pushAll(out, page.items)
    const next = page.cursor ?? ''
    // The venue returns 200 for a garbage cursor; guard against a server that loops.
    if (next === '' || seen.has(next) || out.length > options.maxItems || page.items.length === 0) break
    seen.add(next)
    cursor = next
  }
  return capAt(out, options.maxItems)
}

function capAt<T>(items: T[], maxItems: number): Paged<T> {
  if (items.length <= maxItems) return { items, capped: false }
  return { items: items.slice(0, maxItems), capped: true }
}
