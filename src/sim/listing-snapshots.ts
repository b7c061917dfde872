/**
 * The records a paged listing selected, kept from its first page for its later ones.
 *
 * A venue answers a page from an index; the simulator filters (and sorts) the whole catalog instead, which at the
 * venues' real size is tens of milliseconds a page: a service paging through 240 pages of three lists side by side
 * kept the simulator's one event loop busy for seconds at a time, so its websocket keepalive replies went out late
 * and every client resubscribed (docs/SCALE.md). So a listing's first page (no cursor, or offset 0) selects afresh
 * and is kept under its query less the paging parameters; a later page of the same query reads what the first one
 * selected, as of that first page. Records that change meanwhile are served as they are now (pages are serialized
 * when asked); only the selection and its order are the first page's. A later page with nothing kept selects afresh.
 */
export class ListingSnapshots<T> {
  readonly #pagingParams: readonly string[]
  readonly #maxQueries: number
  /** Query (paging parameters left out) → its listing's selection, oldest first. */
  readonly #kept = new Map<string, readonly T[]>()

  constructor(pagingParams: readonly string[], maxQueries = 16) {
    this.#pagingParams = pagingParams
    this.#maxQueries = maxQueries
  }

  /** The selection for `query`: `select()` on a first page (or nothing kept), else the first page's. */
  selection(query: URLSearchParams, firstPage: boolean, select: () => readonly T[]): readonly T[] {
    const key = this.#keyOf(query)
    if (!firstPage) {
      const kept = this.#kept.get(key)
      if (kept !== undefined) return kept
    }
    const selected = select()
    this.#kept.delete(key)
    this.#kept.set(key, selected)
    if (this.#kept.size > this.#maxQueries) this.#kept.delete(this.#kept.keys().next().value as string)
    return selected
  }

  #keyOf(query: URLSearchParams): string {
    const rest = new URLSearchParams(query)
    for (const p of this.#pagingParams) rest.delete(p)
    rest.sort()
    return rest.toString()
  }
}
