import type { Steps } from '../core/slices.js'

/**
 * Case-insensitive substring search without scanning every record: each record's text is indexed by its
 * trigrams; a query's rarest trigram gives a short candidate list, and only the candidates are checked with
 * `includes`. Queries shorter than three characters fall back to a scan (they match most of the catalog
 * anyway). Built once per catalog version.
 */
export class SearchIndex<T> {
  readonly #texts: string[] = []
  readonly #items: T[] = []
  /** Trigram → ids of the texts holding it, ascending: arrays while building, Int32Arrays once built (a third of the memory). */
  readonly #postings = new Map<string, number[] | Int32Array>()

  constructor(items: Iterable<T>, textOf: (item: T) => string) {
    for (const item of items) this.#add(item, textOf)
    this.#compact()
  }

  /** The index built in event-loop slices (~0.1 s of CPU over 20,000 titles; src/core/slices.ts). */
  static *build<T>(items: Iterable<T>, textOf: (item: T) => string): Steps<SearchIndex<T>> {
    const index = new SearchIndex<T>([], textOf)
    for (const item of items) {
      index.#add(item, textOf)
      if (index.#items.length % 128 === 0) yield
    }
    index.#compact()
    return index
  }

  #compact(): void {
    for (const [gram, ids] of this.#postings) if (Array.isArray(ids)) this.#postings.set(gram, Int32Array.from(ids))
  }

  #add(item: T, textOf: (item: T) => string): void {
    const id = this.#items.length
    const text = normalizeSearchText(textOf(item))
    this.#items.push(item)
    this.#texts.push(text)
    let last = ''
    for (const gram of trigrams(text)) {
      if (gram === last) continue
      last = gram
      const list = this.#postings.get(gram) as number[] | undefined
      if (list === undefined) this.#postings.set(gram, [id])
      else if (list[list.length - 1] !== id) list.push(id)
    }
  }

  /** Items whose text contains `query` (case-insensitive), in index order. */
  search(query: string): T[] {
    const q = normalizeSearchText(query)
    if (q.length === 0) return [...this.#items]
    let candidates: ArrayLike<number> | undefined
    if (q.length >= 3) {
      for (const gram of trigrams(q)) {
        const list = this.#postings.get(gram)
        if (list === undefined) return []
        if (candidates === undefined || list.length < candidates.length) candidates = list
      }
    }
    const out: T[] = []
    if (candidates === undefined) {
      for (let i = 0; i < this.#texts.length; i++)
        if ((this.#texts[i] as string).includes(q)) out.push(this.#items[i] as T)
    } else {
      for (let c = 0; c < candidates.length; c++) {
        const i = candidates[c] as number
        if ((this.#texts[i] as string).includes(q)) out.push(this.#items[i] as T)
      }
    }
    return out
  }
}

/** Lowercase with runs of whitespace collapsed, so "Fed  Decision" finds "fed decision". */
export function normalizeSearchText(s: string): string {
  return s.toLowerCase().replace(/\s+/g, ' ').trim()
}

function* trigrams(text: string): Generator<string> {
  for (let i = 0; i + 3 <= text.length; i++) yield text.slice(i, i + 3)
}
