import { endianness } from 'node:os'
import { readSealedFileSteps, writeSealedFile } from '../core/sealed-file.js'
import type { Steps } from '../core/slices.js'
import type { ListSeed, SeededOrdering } from './list-seed.js'
import type { SearchSeed } from './search-index.js'

/**
 * A venue view's built lists (orderings and search indexes: list-seed.ts), kept beside its catalog file so that a
 * restart's first read-model build checks them instead of sorting and indexing every list from nothing (issue 35).
 * A sealed file (src/core/sealed-file.ts: trusted whole or not at all, written atomically):
 *
 * - a header: the format and its version, whose lists they are (a venue's, or `events`: the cross-venue list), the
 *   source their catalogs were listed from, the catalog's `fetchedAt`, and the byte order of the typed arrays;
 * - one line per list part: a list's ids, each sort key's ascending ordering, its search index; typed arrays in
 *   base64;
 * - the digest trailer.
 *
 * What passes these checks is still only a seed: each part is taken only if it checks out against the list it is
 * offered to (list-seed.ts).
 */
export const LIST_FILE_FORMAT = 'predmkt-lists'
/** Bumped whenever a list's order, its search text's normalization or the trigram keys change meaning. */
export const LIST_FILE_VERSION = 2

/** A venue view's seeds by list name (`markets`, `events`, `outcomes`), and when its catalog was listed. */
export interface ViewSeeds {
  readonly fetchedAt: number
  readonly lists: ReadonlyMap<string, ListSeed>
}

interface Header {
  readonly format: string
  readonly version: number
  /** A venue, or EVENTS_LIST_OWNER. */
  readonly owner: string
  readonly source: string
  readonly fetchedAt: number
  readonly endianness: string
}

/**
 * One line: a slice of one array of one list (its `field`: `ids`, `raw`, `texts`, `grams`, `starts`, `postings`, or
 * `asc:<sort key>` and `keys:<sort key>`), in order. Each array is cut into slices so that neither the write nor a
 * restart's read holds the event loop for more than a slice: a search index's postings are tens of MB.
 */
interface Part {
  readonly list: string
  readonly field: string
  /** Strings (`ids`, `raw`, `texts`), or a typed array's bytes in base64. */
  readonly slice: string[] | string
}

/** Strings per line. */
const STRINGS_PER_PART = 8192
/** Typed array elements per line (at most 1 MiB of bytes). */
const ELEMENTS_PER_PART = 131_072

/** The owner of the cross-venue event list's file (`GET /api/v2/events`: collapsed-view.ts). */
export const EVENTS_LIST_OWNER = 'events'

/**
 * Writes `seeds` of `owner`'s lists (a venue's view, its catalog listed from `source`; or the cross-venue list,
 * EVENTS_LIST_OWNER, its source every venue's); returns the bytes written.
 */
export async function writeListFile(path: string, owner: string, source: string, seeds: ViewSeeds): Promise<number> {
  const header: Header = {
    format: LIST_FILE_FORMAT,
    version: LIST_FILE_VERSION,
    owner,
    source,
    fetchedAt: seeds.fetchedAt,
    endianness: endianness(),
  }
  return writeSealedFile(path, header, parts(seeds.lists))
}

function* parts(seeds: ViewSeeds['lists']): Iterable<Part> {
  for (const [list, seed] of seeds) {
    yield* stringParts(list, 'ids', seed.ids)
    for (const [sort, { asc, keys }] of seed.orderings) {
      yield* typedParts(list, `asc:${sort}`, asc)
      yield* typedParts(list, `keys:${sort}`, keys)
    }
    const s = seed.search
    if (s === undefined) continue
    yield* stringParts(list, 'raw', s.raw)
    yield* stringParts(list, 'texts', s.texts)
    yield* typedParts(list, 'grams', s.grams)
    yield* typedParts(list, 'starts', s.starts)
    yield* typedParts(list, 'postings', s.postings)
  }
}

function* stringParts(list: string, field: string, values: readonly string[]): Iterable<Part> {
  // An empty array is still one line, so that the reader knows of it.
  for (let at = 0; at === 0 || at < values.length; at += STRINGS_PER_PART)
    yield { list, field, slice: values.slice(at, at + STRINGS_PER_PART) }
}

function* typedParts(list: string, field: string, values: Uint32Array | Int32Array | Float64Array): Iterable<Part> {
  for (let at = 0; at === 0 || at < values.length; at += ELEMENTS_PER_PART) {
    const part = values.subarray(at, at + ELEMENTS_PER_PART)
    yield { list, field, slice: Buffer.from(part.buffer, part.byteOffset, part.byteLength).toString('base64') }
  }
}

/** What a list file held: the seeds by list, or why it was refused (`missing` when there is no file). */
export type ListFileRead =
  | { readonly ok: true; readonly seeds: ViewSeeds; readonly bytes: number }
  | { readonly ok: false; readonly missing: boolean; readonly reason: string }

/** The seeds in `bytes` if the file is whole, of `owner`'s lists listed from `source`, and well formed. */
export function* decodeListFileSteps(bytes: Buffer | undefined, owner: string, source: string): Steps<ListFileRead> {
  const read = yield* readSealedFileSteps<Header>(bytes, 'list file', LIST_FILE_FORMAT, LIST_FILE_VERSION, (h) => {
    if (h.owner !== owner) return `it is ${String(h.owner)}'s lists`
    if (h.source !== source) return `its catalog was listed from ${String(h.source)}, not ${source}`
    if (typeof h.fetchedAt !== 'number') return 'incomplete header'
    if (h.endianness !== endianness()) return `its arrays are ${String(h.endianness)}, this machine is ${endianness()}`
    return undefined
  })
  if (!read.ok) return read
  /** Per list, per field: its strings, or its typed array's bytes, slice after slice. */
  const lists = new Map<string, Map<string, string[] | Buffer[]>>()
  try {
    for (const record of read.records) {
      const { list, field, slice } = record as Partial<Part>
      if (typeof list !== 'string' || typeof field !== 'string') throw new Error('a line names no list or field')
      let fields = lists.get(list)
      if (fields === undefined) lists.set(list, (fields = new Map()))
      const into = fields.get(field) ?? []
      fields.set(field, into)
      if (typeof slice === 'string') (into as Buffer[]).push(Buffer.from(slice, 'base64'))
      else if (Array.isArray(slice) && slice.every((v) => typeof v === 'string')) {
        for (const v of slice) (into as string[]).push(v)
      } else throw new Error(`${list} ${field}: a slice neither strings nor bytes`)
      yield
    }
    const seeds = new Map<string, ListSeed>()
    for (const [name, fields] of lists) {
      const stringsOf = (field: string) => fields.get(field) as string[] | undefined
      const typedOf = <A extends Uint32Array | Int32Array | Float64Array>(field: string, Kind: ArrayKind<A>) => {
        const slices = fields.get(field) as Buffer[] | undefined
        return slices === undefined ? undefined : concatenated(slices, Kind, `${name} ${field}`)
      }
      const ids = stringsOf('ids')
      if (ids === undefined) throw new Error(`list ${name} has no ids`)
      const orderings = new Map<string, SeededOrdering>()
      for (const field of fields.keys()) {
        if (!field.startsWith('asc:')) continue
        const sort = field.slice('asc:'.length)
        const asc = typedOf(field, Uint32Array) as Uint32Array
        const keys = typedOf(`keys:${sort}`, Float64Array)
        if (keys === undefined) throw new Error(`${name} ${sort}: an ordering without its keys`)
        orderings.set(sort, { asc, keys })
      }
      const raw = stringsOf('raw')
      const texts = stringsOf('texts')
      const grams = typedOf('grams', Float64Array)
      const starts = typedOf('starts', Int32Array)
      const postings = typedOf('postings', Int32Array)
      const whole =
        raw !== undefined &&
        texts !== undefined &&
        grams !== undefined &&
        starts !== undefined &&
        postings !== undefined
      seeds.set(name, { ids, orderings, search: whole ? { raw, texts, grams, starts, postings } : undefined })
      yield
    }
    return { ok: true, seeds: { fetchedAt: read.header.fetchedAt, lists: seeds }, bytes: read.bytes }
  } catch (err) {
    return { ok: false, missing: false, reason: `malformed: ${err instanceof Error ? err.message : String(err)}` }
  }
}

type ArrayKind<A> = { new (length: number): A; readonly BYTES_PER_ELEMENT: number }

/** The typed array of `Kind` whose bytes are `slices`, one after the other. */
function concatenated<A extends Uint32Array | Int32Array | Float64Array>(
  slices: readonly Buffer[],
  Kind: ArrayKind<A>,
  what: string,
): A {
  let bytes = 0
  for (const s of slices) bytes += s.length
  if (bytes % Kind.BYTES_PER_ELEMENT !== 0) throw new Error(`${what}: a partial element`)
  const out = new Kind(bytes / Kind.BYTES_PER_ELEMENT)
  const view = new Uint8Array(out.buffer)
  let at = 0
  for (const s of slices) {
    view.set(s, at)
    at += s.length
  }
  return out
}
