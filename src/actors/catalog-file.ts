import type { Steps } from '../core/slices.js'
import { readFileBytes, readSealedFileSteps, writeSealedFile } from '../core/sealed-file.js'
import { nullAsUndefined, undefinedAsNull } from '../model/catalog-json.js'
import type { Catalog, CatalogEvent, CatalogTruncation, VenueId } from '../model/types.js'

/**
 * The last installed catalog of a venue, kept in the data directory so that a restart serves at once instead of
 * listing the venue for minutes (issue 35). A sealed file (src/core/sealed-file.ts: trusted whole or not at all,
 * written atomically):
 *
 * - a header: the format and its version, the venue, where the catalog was listed from (`source`, the venue's base
 *   URL: a catalog of the simulator is never served live, nor one of another deployment's venue), when, its
 *   truncation and its event count;
 * - one line per event (src/model/catalog-json.ts: exactly the model's records);
 * - the digest trailer.
 *
 * Reading checks the digest, format version, venue, source and event count before anything is used: a file that
 * fails any of them is refused with the reason.
 */
export const CATALOG_FILE_FORMAT = 'predmkt-catalog'
/** Bumped whenever the model's records change shape: a file of another version is refused (and replaced). */
export const CATALOG_FILE_VERSION = 1

interface Header {
  readonly format: string
  readonly version: number
  readonly venue: VenueId
  readonly source: string
  readonly fetchedAt: number
  readonly truncation?: CatalogTruncation
  readonly events: number
}

/** Writes `catalog` as listed from `source` to `path`, atomically; returns the bytes written. */
export async function writeCatalogFile(path: string, catalog: Catalog, source: string): Promise<number> {
  const header: Header = {
    format: CATALOG_FILE_FORMAT,
    version: CATALOG_FILE_VERSION,
    venue: catalog.venue,
    source,
    fetchedAt: catalog.fetchedAt,
    ...(catalog.truncation === undefined ? {} : { truncation: catalog.truncation }),
    events: catalog.events.length,
  }
  return writeSealedFile(path, header, catalog.events, undefinedAsNull)
}

/** What a catalog file held: the catalog, or why it was refused (`missing` when there is no file). */
export type CatalogFileRead =
  | { readonly ok: true; readonly catalog: Catalog; readonly bytes: number }
  | { readonly ok: false; readonly missing: boolean; readonly reason: string }

/** Reads the bytes of `path` (a missing file is `undefined`). */
export const readCatalogBytes = readFileBytes

/**
 * The catalog in `bytes` if it is whole and is `venue`'s as listed from `source`; otherwise the reason it is refused.
 * Parsed in event-loop slices (src/core/slices.ts) once every check has passed.
 */
export function* decodeCatalogFileSteps(
  bytes: Buffer | undefined,
  venue: VenueId,
  source: string,
): Steps<CatalogFileRead> {
  const read = yield* readSealedFileSteps<Header>(
    bytes,
    'catalog file',
    CATALOG_FILE_FORMAT,
    CATALOG_FILE_VERSION,
    (header) => {
      if (header.venue !== venue) return `it is ${String(header.venue)}'s catalog`
      if (header.source !== source) return `it was listed from ${String(header.source)}, not ${source}`
      if (typeof header.fetchedAt !== 'number' || typeof header.events !== 'number') return 'incomplete header'
      return undefined
    },
    nullAsUndefined,
  )
  if (!read.ok) return read
  const { header, records } = read
  if (records.length !== header.events)
    return { ok: false, missing: false, reason: `${records.length} events where its header says ${header.events}` }
  const catalog: Catalog = {
    venue,
    events: records as CatalogEvent[],
    fetchedAt: header.fetchedAt,
    ...(header.truncation === undefined ? {} : { truncation: header.truncation }),
  }
  return { ok: true, catalog, bytes: read.bytes }
}
