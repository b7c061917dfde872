import { runToEnd, type Steps } from '../core/slices.js'

/** A packed search index as a restart reads it back (list-seed.ts): over the records in `ListSeed.ids` order. */
export interface SearchSeed {
  /** Each record's text as the list's `searchText` gave it: what the check compares. */
  readonly raw: readonly string[]
  /** The same, normalized: what searches match against. */
  readonly texts: readonly string[]
  /** Slot s's trigram (`gramAt`). */
  readonly grams: Float64Array
  /** Slot s's postings are `postings[starts[s]]` up to `starts[s + 1]`. */
  readonly starts: Int32Array
  /** Places in `ids`. */
  readonly postings: Int32Array
}

/** Ids copied between two checkpoints of the compaction. */
const COMPACT_CHECKPOINT_WORK = 8192

/**
 * Case-insensitive substring search without scanning every record: each record's text is indexed by its
 * trigrams; a query's rarest trigram gives a short candidate list, and only the candidates are checked with
 * `includes`. Queries shorter than three characters fall back to a scan (they match most of the catalog
 * anyway). Built once per catalog version, or taken over from the previous version's index: rebuilt from its
 * postings (`rebuild`), or, when few records changed, sharing them (`patched`).
 */
export class SearchIndex<T> {
  #texts: string[] = []
  #items: T[] = []
  /** Trigram (its `gramAt` key) → ids of the texts holding it, ascending, while building; emptied by the compaction. */
  readonly #lists = new Map<number, number[]>()
  /**
   * The built postings, packed: trigram → its slot; slot s's ids are `#ids[#starts[s]]` up to `#starts[s + 1]`.
   * One Int32Array for all lists instead of one per trigram: a third of the memory of arrays, and no burst of
   * tens of thousands of small buffers (each counts as external memory, and their sum prompts full collections).
   */
  #slots = new Map<number, number>()
  #starts: Int32Array = new Int32Array(1)
  #ids: Int32Array = new Int32Array(0)
  /** Of `#items`, those taken out since the postings were built (`patched`); never searched for. */
  #gone: ReadonlySet<T> | undefined
  /** The items added since the postings were built, indexed on their own (`patched`). */
  #extra: SearchIndex<T> | undefined

  constructor(items: Iterable<T>, textOf: (item: T) => string) {
    for (const item of items) this.#add(item, textOf)
    runToEnd(this.#compactSteps())
  }

  /** The index built in event-loop slices (~0.1 s of CPU over 20,000 titles; src/core/slices.ts). */
  static *build<T>(items: Iterable<T>, textOf: (item: T) => string): Steps<SearchIndex<T>> {
    const index = new SearchIndex<T>([], textOf)
    for (const item of items) {
      index.#add(item, textOf)
      if (index.#items.length % 128 === 0) yield
    }
    yield* index.#compactSteps()
    return index
  }

  /** Packs the lists into `#ids`, a checkpoint every few thousand ids copied. */
  *#compactSteps(): Steps<void> {
    let total = 0
    for (const ids of this.#lists.values()) total += ids.length
    const slots = new Map<number, number>()
    const starts = new Int32Array(this.#lists.size + 1)
    const packed = new Int32Array(total)
    let at = 0
    let work = 0
    for (const [gram, ids] of this.#lists) {
      const slot = slots.size
      slots.set(gram, slot)
      starts[slot] = at
      for (let i = 0; i < ids.length; i++) packed[at++] = ids[i] as number
      if ((work += ids.length + 16) >= COMPACT_CHECKPOINT_WORK) (yield, (work = 0))
    }
    starts[slots.size] = at
    this.#lists.clear()
    this.#slots = slots
    this.#starts = starts
    this.#ids = packed
  }

  #add(item: T, textOf: (item: T) => string): void {
    const id = this.#items.length
    const text = normalizeSearchText(textOf(item))
    this.#items.push(item)
    this.#texts.push(text)
    this.#index(id, text)
  }

  /** Puts text `id` in the lists of its trigrams. */
  #index(id: number, text: string): void {
    let last = Number.NaN
    for (let i = 0; i + 3 <= text.length; i++) {
      const gram = gramAt(text, i)
      if (gram === last) continue
      last = gram
      const list = this.#lists.get(gram)
      if (list === undefined) this.#lists.set(gram, [id])
      else if (list[list.length - 1] !== id) list.push(id)
    }
  }

  /**
   * The index of `items`, in slices, taking over from `previous` (the index it replaces) the texts and postings of
   * every item both hold (the same object): only the items that are new are read into trigrams. The postings of
   * kept items are renumbered to their places in `items`, so a list's ids may not ascend; search results are then in
   * no particular order, which no reader relies on (ListIndex sorts them).
   */
  static *rebuild<T>(
    items: readonly T[],
    textOf: (item: T) => string,
    previous: SearchIndex<T>,
  ): Steps<SearchIndex<T>> {
    const index = new SearchIndex<T>([], textOf)
    const oldIds = new Map<T, number>()
    for (let o = 0; o < previous.#items.length; o++) {
      oldIds.set(previous.#items[o] as T, o)
      if (o % COMPACT_CHECKPOINT_WORK === COMPACT_CHECKPOINT_WORK - 1) yield
    }
    const renumbered = new Int32Array(previous.#items.length).fill(-1)
    const fresh: number[] = []
    for (let i = 0; i < items.length; i++) {
      const item = items[i] as T
      const o = oldIds.get(item)
      index.#items.push(item)
      if (o !== undefined && renumbered[o] === -1) {
        renumbered[o] = i
        index.#texts.push(previous.#texts[o] as string)
      } else {
        index.#texts.push(normalizeSearchText(textOf(item)))
        fresh.push(i)
      }
      if (i % 128 === 127) yield
    }
    // The new items' postings, as lists (few: the items that changed since `previous`).
    for (let f = 0; f < fresh.length; f++) {
      const id = fresh[f] as number
      index.#index(id, index.#texts[id] as string)
      if (f % 128 === 127) yield
    }
    yield* index.#mergeSteps(previous, renumbered)
    return index
  }

  /**
   * Packs the postings of `previous`'s kept items (`renumbered`: old id → new id, -1 for an item gone) and this index's
   * lists (the new items') straight into `#ids`, in two passes over the old postings (count, then copy), without a
   * list per trigram in between: rebuilding those lists for every trigram was most of what a refresh allocated.
   */
  *#mergeSteps(previous: SearchIndex<T>, renumbered: Int32Array): Steps<void> {
    const added = this.#lists
    let total = 0
    let grams = 0
    let work = 0
    const kept = new Int32Array(previous.#slots.size)
    // Slots are numbered in the map's order (#compactSteps): iterated by key with a counter, not by [key, slot] entry.
    let slot = 0
    for (const gram of previous.#slots.keys()) {
      const from = previous.#starts[slot] as number
      const to = previous.#starts[slot + 1] as number
      let n = 0
      for (let k = from; k < to; k++) if ((renumbered[previous.#ids[k] as number] as number) >= 0) n++
      kept[slot] = n
      const more = added.get(gram)?.length ?? 0
      if (n + more > 0) grams++
      total += n + more
      slot++
      if ((work += to - from + 16) >= COMPACT_CHECKPOINT_WORK) (yield, (work = 0))
    }
    for (const [gram, list] of added) {
      if (previous.#slots.has(gram)) continue
      grams++
      total += list.length
    }
    const slots = new Map<number, number>()
    const starts = new Int32Array(grams + 1)
    const packed = new Int32Array(total)
    let at = 0
    const open = (gram: number) => {
      starts[slots.size] = at
      slots.set(gram, slots.size)
    }
    slot = -1
    for (const gram of previous.#slots.keys()) {
      slot++
      const more = added.get(gram)
      if ((kept[slot] as number) + (more?.length ?? 0) === 0) continue
      open(gram)
      const from = previous.#starts[slot] as number
      const to = previous.#starts[slot + 1] as number
      for (let k = from; k < to; k++) {
        const id = renumbered[previous.#ids[k] as number] as number
        if (id >= 0) packed[at++] = id
      }
      if (more !== undefined) for (let i = 0; i < more.length; i++) packed[at++] = more[i] as number
      if ((work += to - from + 16) >= COMPACT_CHECKPOINT_WORK) (yield, (work = 0))
    }
    for (const [gram, list] of added) {
      if (previous.#slots.has(gram)) continue
      open(gram)
      for (let i = 0; i < list.length; i++) packed[at++] = list[i] as number
    }
    starts[slots.size] = at
    this.#lists.clear()
    this.#slots = slots
    this.#starts = starts
    this.#ids = packed
  }

  /**
   * The index of `items` read back from a seed (list-seed.ts; `placement.at[p]`: the index in `items` of the seed's
   * record p, -1 if gone), or undefined when the seed's postings are not well formed or more than `maxFresh` of the
   * records are not in it with the same text. When every record is, with the same text, the seed's index is used as
   * it is (in the seed's order of records); otherwise it is the previous index of a rebuild (`rebuild`) that reads
   * only the records that are not.
   */
  static *fromSeed<T>(
    items: readonly T[],
    placement: { readonly at: Int32Array },
    seed: SearchSeed,
    textOf: (item: T) => string,
    maxFresh: number,
  ): Steps<SearchIndex<T> | undefined> {
    const n = items.length
    const m = placement.at.length
    const { raw, texts, grams, starts, postings } = seed
    if (raw.length !== m || texts.length !== m) return undefined
    if (starts.length !== grams.length + 1 || starts[0] !== 0 || starts[grams.length] !== postings.length)
      return undefined
    const seeded = new SearchIndex<T>([], textOf)
    // Stands for a seed record the list no longer holds as it was: never one of `items`, so a rebuild drops it.
    const gone = {} as T
    let same = 0
    for (let p = 0; p < m; p++) {
      const i = placement.at[p] as number
      const item = i < 0 ? undefined : (items[i] as T)
      const kept = item !== undefined && textOf(item) === raw[p]
      if (kept) same++
      seeded.#items.push(kept ? item : gone)
      seeded.#texts.push(texts[p] as string)
      if (p % COMPACT_CHECKPOINT_WORK === COMPACT_CHECKPOINT_WORK - 1) yield
    }
    if (n - same > maxFresh) return undefined
    const slots = new Map<number, number>()
    for (let s = 0; s < grams.length; s++) {
      if ((starts[s] as number) > (starts[s + 1] as number)) return undefined
      slots.set(grams[s] as number, s)
    }
    if (slots.size !== grams.length) return undefined
    for (let k = 0; k < postings.length; k++) {
      const id = postings[k] as number
      if (id < 0 || id >= m) return undefined
      if (k % (COMPACT_CHECKPOINT_WORK * 8) === 0) yield
    }
    seeded.#slots = slots
    seeded.#starts = starts
    seeded.#ids = postings
    if (same === n && m === n) return seeded
    return yield* SearchIndex.rebuild(items, textOf, seeded)
  }

  /**
   * This index as a seed over `items` (list-seed.ts), the index packed and in `items`' order first if it is not
   * (a patched index, or one whose records are in a seed's order).
   */
  *seedSteps(items: readonly T[], textOf: (item: T) => string): Steps<SearchSeed> {
    let packed: SearchIndex<T> = this
    if (!this.#alignedWith(items)) packed = yield* SearchIndex.rebuild(items, textOf, this)
    const raw = new Array<string>(items.length)
    for (let i = 0; i < items.length; i++) {
      raw[i] = textOf(items[i] as T)
      if (i % COMPACT_CHECKPOINT_WORK === COMPACT_CHECKPOINT_WORK - 1) yield
    }
    return {
      raw,
      texts: packed.#texts,
      grams: Float64Array.from(packed.#slots.keys()),
      starts: packed.#starts,
      postings: packed.#ids,
    }
  }

  /** Packed (nothing taken out or added since) and over exactly `items`, in their order. */
  #alignedWith(items: readonly T[]): boolean {
    if (this.deltaSize !== 0 || this.#items.length !== items.length) return false
    for (let i = 0; i < items.length; i++) if (this.#items[i] !== items[i]) return false
    return true
  }

  /** Items taken out or added since the postings were packed: what a search does besides the packed postings. */
  get deltaSize(): number {
    return (this.#gone?.size ?? 0) + (this.#extra === undefined ? 0 : this.#extra.#items.length)
  }

  /**
   * `previous` with `changes`, in time proportional to the changes since `previous`'s postings were packed: the
   * packed postings are shared (never changed), the records taken out are skipped when found, and the records added
   * since are indexed on their own. Whoever keeps patching rebuilds (`rebuild`) once `deltaSize` is no longer small.
   */
  static *patched<T>(
    previous: SearchIndex<T>,
    changes: { readonly removed: ReadonlySet<T>; readonly added: readonly T[] },
    textOf: (item: T) => string,
  ): Steps<SearchIndex<T>> {
    const index = new SearchIndex<T>([], textOf)
    index.#texts = previous.#texts
    index.#items = previous.#items
    index.#slots = previous.#slots
    index.#starts = previous.#starts
    index.#ids = previous.#ids
    const extraBefore = previous.#extra === undefined ? [] : previous.#extra.#items
    const wasExtra = new Set(extraBefore)
    const gone = new Set(previous.#gone)
    for (const item of changes.removed) if (!wasExtra.has(item)) gone.add(item)
    index.#gone = gone.size === 0 ? undefined : gone
    const extra = extraBefore.filter((item) => !changes.removed.has(item))
    for (const item of changes.added) extra.push(item)
    index.#extra = extra.length === 0 ? undefined : yield* SearchIndex.build(extra, textOf)
    return index
  }

  /** Items whose text contains `query` (case-insensitive): the packed postings' in index order, then the added ones. */
  search(query: string): T[] {
    const found = this.#searchPacked(query)
    const gone = this.#gone
    const kept = gone === undefined ? found : found.filter((item) => !gone.has(item))
    if (this.#extra === undefined) return kept
    for (const item of this.#extra.search(query)) kept.push(item)
    return kept
  }

  #searchPacked(query: string): T[] {
    const q = normalizeSearchText(query)
    if (q.length === 0) return [...this.#items]
    let candidates: Int32Array | undefined
    if (q.length >= 3) {
      for (let i = 0; i + 3 <= q.length; i++) {
        const slot = this.#slots.get(gramAt(q, i))
        if (slot === undefined) return []
        const from = this.#starts[slot] as number
        const to = this.#starts[slot + 1] as number
        if (candidates === undefined || to - from < candidates.length) candidates = this.#ids.subarray(from, to)
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

/**
 * The trigram of `text` at `i` as a number, so that indexing a text allocates no string per trigram: three UTF-16
 * code units under 1024 (Latin, Greek, Cyrillic, …: nearly every text) packed into 30 bits, a small integer for the
 * map; any other trigram a negative number made from all 48 bits, so no two trigrams share a key.
 */
export function gramAt(text: string, i: number): number {
  const a = text.charCodeAt(i)
  const b = text.charCodeAt(i + 1)
  const c = text.charCodeAt(i + 2)
  if ((a | b | c) < 1024) return (a << 20) | (b << 10) | c
  return -((a * 65536 + b) * 65536 + c) - 1
}
