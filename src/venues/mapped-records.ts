import { createHash } from 'node:crypto'
import { mapSteps } from '../core/array-steps.js'
import { runInSlices } from '../core/slices.js'
import type { Catalog, CatalogEvent } from '../model/types.js'
import type { ByteRange } from './json-scan.js'

/**
 * A venue's raw catalog records, mapped once per content. Each sync asks for every record it lists; a record whose
 * raw content is what the last completed sync saw gets that sync's mapped object back, unmapped again. So an
 * unchanged event is the same object from one catalog to the next, and identity means "unchanged" downstream: the
 * catalog loader skips a catalog whose events are all the installed ones, and what is built per event can be kept.
 *
 * The fingerprint is a SHA-1 of what the record's mapping reads: the record's JSON cut to the venue's mapped
 * fields (`fields`, each kept at any depth: JSON.stringify's list replacer), plus whatever else its mapping reads
 * (venuek: its series). So a record that moved only in fields the service never maps (venuek's `previous_*` prices,
 * which roll with the clock; venuep's `spread` and `lastTradePrice`, which follow the book the feed already streams)
 * is unchanged. It is exact where the venues' update stamps are not: a market's volume or best price moves without
 * the event's `updatedAt` moving. Hashing the JSON costs less than mapping, and keeps 28 characters per record
 * instead of a copy. Each venue's test maps every real captured record both whole and cut to its fields and expects
 * the same result, so a field the mapping starts reading cannot be left out of the list unnoticed.
 *
 * A whole page of the listing can be given back too (`reusePage`): when a page's bytes are those of a page the last
 * sync fetched, its records are the ones mapped then, and the page is not even parsed. Pages are found by their
 * digest alone: equal bytes are equal records whatever the request (a closed list's window moves with the clock). An unchanged
 * listing then costs its transfer and one digest per page, not a parse, a serialization and a digest per record.
 *
 * Between the two, a page whose bytes changed is not parsed whole either (`mapBytes`): each of its records is found by
 * its byte range (json-scan.ts), and a record whose bytes are those of a record of the last sync gives back that
 * record's mapped object unparsed. Only the records whose bytes changed are parsed, fingerprinted and, when what the
 * mapping reads changed, mapped. One changed market on a page then costs that event's parse, not the page's.
 *
 * One sync at a time (the loader's rule): `begin` starts one, `commit` makes what it mapped the basis of the next.
 * A sync that fails or is aborted is never committed, so the next one compares against the last that completed.
 */
export class MappedRecords<T> {
  readonly #fields: readonly string[] | undefined
  #kept = new Map<string, Kept<T>>()
  #next = new Map<string, Kept<T>>()
  /** Pages by digest (`pageDigest`), of the last completed sync and of this one. */
  #pages = new Map<string, KeptPage<T>>()
  #nextPages = new Map<string, KeptPage<T>>()
  /** Records by the digest of their bytes (`mapBytes`), of the last completed sync and of this one. */
  #elements = new Map<string, PageRecord<T>>()
  #nextElements = new Map<string, PageRecord<T>>()
  #pagesReused = 0
  #reused = 0
  #unparsed = 0
  #mapped = 0
  /** How a seeded record is confirmed (`seed`). */
  #same: ((fresh: T, seeded: T) => boolean) | undefined

  /** `fields`: the property names the venue's mapping reads, at any depth (undefined: the whole record). */
  constructor(fields?: readonly string[]) {
    this.#fields = fields
  }

  /**
   * Records mapped before this process started (the catalog file's events, by key), so that the first sync gives back
   * those still listed as they were instead of new objects for every event: a restart's first listing then installs
   * only what changed meanwhile. Their raw content is not known, so each is confirmed by content once: the first sync
   * maps the raw record and keeps the seeded object when `same` finds the two equal (then fingerprints it as usual).
   * Mapping by the code now running, not trusting a fingerprint of the last: a new release that maps differently
   * replaces every record it maps differently. Only before the first sync; later calls do nothing.
   */
  seed(records: Iterable<readonly [key: string, mapped: T]>, same: (fresh: T, seeded: T) => boolean): void {
    if (this.#kept.size > 0 || this.#pages.size > 0) return
    this.#same = same
    for (const [key, mapped] of records) this.#kept.set(key, { fingerprint: SEEDED, mapped })
  }

  /** A sync starts: forgets what an unfinished one mapped. */
  begin(): void {
    this.#next = new Map()
    this.#nextPages = new Map()
    this.#nextElements = new Map()
    this.#reused = 0
    this.#unparsed = 0
    this.#mapped = 0
    this.#pagesReused = 0
  }

  /**
   * The records of a page whose `digest` (`pageDigest` of its bytes and of whatever else its records' mapping
   * reads) is that of a page of the last completed sync; they count as listed by this sync. Undefined when no page
   * of the last sync had these bytes: parse it, `map` its records and `keepPage` it.
   */
  reusePage(digest: string): { readonly mapped: readonly T[]; readonly next?: string } | undefined {
    const page = this.#pages.get(digest)
    if (page === undefined) return undefined
    for (const record of page.records) {
      this.#next.set(record.key, record.kept)
      // Its records stay known by their bytes too, for a next sync in which this page changes.
      if (record.digest !== undefined) this.#nextElements.set(record.digest, record)
    }
    this.#nextPages.set(digest, page)
    this.#reused += page.records.length
    this.#unparsed += page.records.length
    this.#pagesReused++
    return page
  }

  /**
   * A page was parsed and its records mapped (`map`, in order, under `keys`, giving `mapped`): it is kept under its
   * digest for the next sync, with `next`, the page's link to the next one (a cursor) if it has one.
   */
  keepPage(digest: string, keys: readonly string[], mapped: readonly T[], next?: string): void {
    const records: PageRecord<T>[] = []
    for (const key of keys) {
      const kept = this.#next.get(key)
      if (kept !== undefined) records.push({ key, kept })
    }
    // A record this sync did not map (cannot happen through `map`): not a page worth keeping.
    if (records.length !== keys.length) return
    this.keepRecords(digest, records, mapped, next)
  }

  /** `keepPage` for a page whose records came from `mapBytes`: they are kept with their bytes' digests. */
  keepRecords(digest: string, records: readonly PageRecord<T>[], mapped: readonly T[], next?: string): void {
    this.#nextPages.set(digest, { records, mapped, ...(next === undefined ? {} : { next }) })
  }

  /**
   * A changed page's mapped records, each by its bytes (`elements`: its records' ranges in `page.bytes`, json-scan.ts;
   * `mapBytes` under `context`), in event-loop slices; the page is then kept under its digest with `page.next`.
   */
  async mapPage(
    page: { readonly digest: string; readonly bytes: Buffer; readonly next?: string | undefined },
    elements: readonly ByteRange[],
    context: string,
    read: (element: Buffer) => ReadRecord<T>,
  ): Promise<T[]> {
    const { digest, bytes, next } = page
    const listed = await runInSlices(
      mapSteps(elements, ({ start, end }) => this.mapBytes(bytes.subarray(start, end), context, read)),
    )
    const mapped = listed.map((r) => r.kept.mapped)
    this.keepRecords(digest, listed, mapped, next)
    return mapped
  }

  /**
   * The mapped record for `raw` (listed under `key`, the venue's event id): the kept one when `raw` and `context`
   * are what they were, else `map()`'s.
   */
  map(key: string, raw: unknown, context: string, map: () => T): T {
    const fingerprint = this.#fingerprint(raw, context)
    const kept = this.#kept.get(key)
    if (kept !== undefined && kept.fingerprint === fingerprint) {
      this.#next.set(key, kept)
      this.#reused++
      return kept.mapped
    }
    const mapped = map()
    if (kept !== undefined && kept.fingerprint === SEEDED && this.#same?.(mapped, kept.mapped) === true) {
      this.#next.set(key, { fingerprint, mapped: kept.mapped })
      this.#reused++
      return kept.mapped
    }
    this.#next.set(key, { fingerprint, mapped })
    this.#mapped++
    return mapped
  }

  /**
   * A record listed between syncs (what the venue says changed since a time, not its whole listing): mapped as `map`
   * maps it, against the last completed sync's records, and kept in them at once, so the next sync (whole or of
   * changes) compares against it. The last sync's pages and byte digests stay as they were: they give back what they
   * mapped for the bytes they saw, which is still right for those bytes. Only between syncs (one at a time).
   */
  mapChange(key: string, raw: unknown, context: string, map: () => T): T {
    const fingerprint = this.#fingerprint(raw, context)
    const kept = this.#kept.get(key)
    if (kept !== undefined && kept.fingerprint === fingerprint) return kept.mapped
    const fresh = map()
    const seeded = kept !== undefined && kept.fingerprint === SEEDED && this.#same?.(fresh, kept.mapped) === true
    const mapped = seeded ? kept.mapped : fresh
    this.#kept.set(key, { fingerprint, mapped })
    return mapped
  }

  #fingerprint(raw: unknown, context: string): string {
    return createHash('sha1')
      .update(JSON.stringify(raw, this.#fields as string[] | undefined) ?? '')
      .update('\u0000')
      .update(context)
      .digest('base64')
  }

  /**
   * The key and mapped record of one record of a page, given by its bytes (`element`): the last sync's when it saw
   * these bytes under this `context` (what the page's records' mapping reads besides them), unparsed; else `read`
   * parses them and `map` goes on as for any record (by key and fingerprint). Throws what `read` throws.
   */
  mapBytes(element: Buffer, context: string, read: (element: Buffer) => ReadRecord<T>): PageRecord<T> {
    const digest = createHash('sha1').update(element).update('\u0000').update(context).digest('base64')
    const seen = this.#elements.get(digest)
    if (seen !== undefined) {
      this.#next.set(seen.key, seen.kept)
      this.#nextElements.set(digest, seen)
      this.#reused++
      this.#unparsed++
      return seen
    }
    const { key, raw, context: rawContext, map } = read(element)
    this.map(key, raw, rawContext, map)
    const listed = { key, kept: this.#next.get(key) as Kept<T>, digest }
    this.#nextElements.set(digest, listed)
    return listed
  }

  /** The sync completed: what it listed is kept for the next one, what it did not list is dropped. */
  commit(): MappedCounts {
    this.#kept = this.#next
    this.#next = new Map()
    this.#pages = this.#nextPages
    this.#nextPages = new Map()
    this.#elements = this.#nextElements
    this.#nextElements = new Map()
    return { reused: this.#reused, unparsed: this.#unparsed, mapped: this.#mapped, pagesReused: this.#pagesReused }
  }
}

/** Records of one sync: given back unchanged, and mapped (new or changed). */
export interface MappedCounts {
  readonly reused: number
  /** Of the reused, those given back without being parsed: on a page given back whole, or by their own bytes. */
  readonly unparsed: number
  readonly mapped: number
  /** Pages given back whole, unparsed (`reusePage`). */
  readonly pagesReused: number
}

/** The fingerprint of a seeded record, whose raw content is not known (`seed`): no fingerprint equals it. */
const SEEDED = ''

/** A page's digest: its bytes and `context` (what its records' mapping reads besides them). */
export function pageDigest(bytes: Buffer, context = ''): string {
  return createHash('sha1').update(bytes).update('\u0000').update(context).digest('base64')
}

export interface Kept<T> {
  readonly fingerprint: string
  readonly mapped: T
}

/** A record of a page: its key and what it mapped to. */
export interface PageRecord<T> {
  readonly key: string
  readonly kept: Kept<T>
  /** The digest of its bytes and context, when it was listed by them (`mapBytes`). */
  readonly digest?: string
}

/** A record's bytes, parsed (`mapBytes`): what `map` takes. */
export interface ReadRecord<T> {
  readonly key: string
  readonly raw: unknown
  readonly context: string
  readonly map: () => T
}

interface KeptPage<T> {
  readonly records: readonly PageRecord<T>[]
  /** The page's mapped records, in order, as the sync that parsed it returned them. */
  readonly mapped: readonly T[]
  readonly next?: string
}

/**
 * Seeds a venue's records with a catalog read at start (`MappedRecords.seed`, by event id: the key both venues list
 * events under). A seeded event is kept when the first sync maps its raw record to the same JSON: the catalog file
 * holds exactly what JSON carries (src/model/catalog-json.ts), so a fresh record whose JSON differs in anything (a
 * value, a field present or not) replaces the seeded one.
 */
export function seedCatalogRecords(records: MappedRecords<CatalogEvent | undefined>, catalog: Catalog): void {
  records.seed(
    catalog.events.map((e) => [e.eventId, e] as const),
    (fresh, seeded) => fresh === seeded || JSON.stringify(fresh) === JSON.stringify(seeded),
  )
}
