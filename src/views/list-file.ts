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
export const LIST_FILE_VERSION = 1

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

type Part =
  | { readonly list: string; readonly ids: string[] }
  | { readonly list: string; readonly sort: string; readonly asc: string; readonly keys: string }
  | { readonly list: string; readonly raw: string[] }
  | { readonly list: string; readonly texts: string[] }
  | { readonly list: string; readonly grams: string; readonly starts: string; readonly postings: string }

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
    yield { list, ids: [...seed.ids] }
    for (const [sort, { asc, keys }] of seed.orderings) yield { list, sort, asc: base64(asc), keys: base64(keys) }
    const s = seed.search
    // The search index in three lines: a restart parses each line in one step of the event loop.
    if (s !== undefined) {
      yield { list, raw: [...s.raw] }
      yield { list, texts: [...s.texts] }
      yield { list, grams: base64(s.grams), starts: base64(s.starts), postings: base64(s.postings) }
    }
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
  const lists = new Map<string, { ids?: string[]; orderings: Map<string, SeededOrdering>; search: Partial<Search> }>()
  try {
    for (const record of read.records) {
      const part = record as Part
      if (typeof part.list !== 'string') throw new Error('a part names no list')
      let list = lists.get(part.list)
      if (list === undefined) lists.set(part.list, (list = { orderings: new Map(), search: {} }))
      if ('ids' in part) list.ids = strings(part.ids)
      else if ('sort' in part)
        list.orderings.set(part.sort, {
          asc: fromBase64(part.asc, Uint32Array),
          keys: fromBase64(part.keys, Float64Array),
        })
      else if ('raw' in part) list.search.raw = strings(part.raw)
      else if ('texts' in part) list.search.texts = strings(part.texts)
      else if ('postings' in part) {
        list.search.grams = fromBase64(part.grams, Float64Array)
        list.search.starts = fromBase64(part.starts, Int32Array)
        list.search.postings = fromBase64(part.postings, Int32Array)
      } else throw new Error('a part of no known kind')
      yield
    }
  } catch (err) {
    return { ok: false, missing: false, reason: `malformed: ${err instanceof Error ? err.message : String(err)}` }
  }
  const seeds = new Map<string, ListSeed>()
  for (const [name, { ids, orderings, search }] of lists) {
    if (ids === undefined) return { ok: false, missing: false, reason: `malformed: list ${name} has no ids` }
    const { raw, texts, grams, starts, postings } = search
    const whole =
      raw !== undefined && texts !== undefined && grams !== undefined && starts !== undefined && postings !== undefined
    seeds.set(name, { ids, orderings, search: whole ? { raw, texts, grams, starts, postings } : undefined })
  }
  return { ok: true, seeds: { fetchedAt: read.header.fetchedAt, lists: seeds }, bytes: read.bytes }
}

type Search = { -readonly [K in keyof SearchSeed]: SearchSeed[K] }

function base64(a: Uint32Array | Int32Array | Float64Array): string {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64')
}

function fromBase64<A extends Uint32Array | Int32Array | Float64Array>(
  text: unknown,
  Kind: { new (length: number): A; readonly BYTES_PER_ELEMENT: number },
): A {
  if (typeof text !== 'string') throw new Error('an array is not a string')
  const bytes = Buffer.from(text, 'base64')
  if (bytes.length % Kind.BYTES_PER_ELEMENT !== 0) throw new Error('an array of a partial element')
  const out = new Kind(bytes.length / Kind.BYTES_PER_ELEMENT)
  new Uint8Array(out.buffer).set(bytes)
  return out
}

function strings(value: unknown): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw new Error('not a list of strings')
  return value as string[]
}
