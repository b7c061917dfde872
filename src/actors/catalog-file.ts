import { createHash } from 'node:crypto'
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { Steps } from '../core/slices.js'
import { nullAsUndefined, undefinedAsNull } from '../model/catalog-json.js'
import type { Catalog, CatalogEvent, CatalogTruncation, VenueId } from '../model/types.js'

/**
 * The last installed catalog of a venue, kept in the data directory so that a restart serves at once instead of
 * listing the venue for minutes (issue 35). The file is trusted whole or not at all:
 *
 * - line 1, a header: the format and its version, the venue, where the catalog was listed from (`source`, the
 *   venue's base URL: a catalog of the simulator is never served live, nor one of another deployment's venue), when,
 *   its truncation and its event count;
 * - one line per event (src/model/catalog-json.ts: exactly the model's records);
 * - a last line with the SHA-256 of every byte before it.
 *
 * It is written to a temporary file, synced and renamed over the old one, so a crash mid-write leaves the previous
 * file. Reading checks the format version, venue, source, event count and digest before anything is used: a file
 * that fails any of them is refused with the reason, never half-read.
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

/** Bytes buffered before a write (the stringify of a chunk of events is the only synchronous work). */
const WRITE_CHUNK_BYTES = 1 << 20
const EVENTS_PER_STEP = 64
const DIGEST_SLICE_BYTES = 8 << 20

/** Writes `catalog` as listed from `source` to `path`, atomically (a temporary file renamed over it). */
export async function writeCatalogFile(path: string, catalog: Catalog, source: string): Promise<number> {
  await mkdir(dirname(path), { recursive: true })
  const temporary = `${path}.${process.pid}.tmp`
  const digest = createHash('sha256')
  const file = await open(temporary, 'w')
  let bytes = 0
  try {
    let pending: string[] = []
    let pendingBytes = 0
    const flush = async () => {
      const chunk = Buffer.from(pending.join(''), 'utf8')
      pending = []
      pendingBytes = 0
      digest.update(chunk)
      bytes += chunk.length
      await file.write(chunk)
    }
    const header: Header = {
      format: CATALOG_FILE_FORMAT,
      version: CATALOG_FILE_VERSION,
      venue: catalog.venue,
      source,
      fetchedAt: catalog.fetchedAt,
      ...(catalog.truncation === undefined ? {} : { truncation: catalog.truncation }),
      events: catalog.events.length,
    }
    pending.push(`${JSON.stringify(header)}\n`)
    for (const event of catalog.events) {
      const line = `${JSON.stringify(event, undefinedAsNull)}\n`
      pending.push(line)
      pendingBytes += line.length
      if (pendingBytes >= WRITE_CHUNK_BYTES) await flush()
    }
    await flush()
    const trailer = Buffer.from(`${JSON.stringify({ sha256: digest.digest('hex') })}\n`, 'utf8')
    await file.write(trailer)
    bytes += trailer.length
    await file.sync()
  } catch (err) {
    await file.close()
    await rm(temporary, { force: true })
    throw err
  }
  await file.close()
  await rename(temporary, path)
  return bytes
}

/** What a catalog file held: the catalog, or why it was refused (`missing` when there is no file). */
export type CatalogFileRead =
  | { readonly ok: true; readonly catalog: Catalog; readonly bytes: number }
  | { readonly ok: false; readonly missing: boolean; readonly reason: string }

/** Reads the bytes of `path` (a missing file is `undefined`). */
export async function readCatalogBytes(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
}

/**
 * The catalog in `bytes` if it is whole and is `venue`'s as listed from `source`; otherwise the reason it is refused.
 * Parsed in event-loop slices (src/core/slices.ts) once every check has passed.
 */
export function* decodeCatalogFileSteps(
  bytes: Buffer | undefined,
  venue: VenueId,
  source: string,
): Steps<CatalogFileRead> {
  if (bytes === undefined) return { ok: false, missing: true, reason: 'no catalog file' }
  const refuse = (reason: string): CatalogFileRead => ({ ok: false, missing: false, reason })
  // The trailer is the last line, ended by its newline like every line; the digest covers every byte before it.
  if (bytes.length === 0 || bytes[bytes.length - 1] !== 0x0a)
    return refuse('cut short or damaged (its last line is not the trailer)')
  const end = bytes.length - 1
  const trailerStart = bytes.lastIndexOf(0x0a, end - 1) + 1
  if (trailerStart <= 0) return refuse('not a catalog file (no trailer)')
  let trailer: { sha256?: unknown }
  try {
    trailer = JSON.parse(bytes.subarray(trailerStart, end).toString('utf8')) as { sha256?: unknown }
  } catch {
    return refuse('cut short or damaged (its last line is not the trailer)')
  }
  const body = bytes.subarray(0, trailerStart)
  // Hashed in slices: a real catalog's file is hundreds of MB, over a second of hashing in one block.
  const digest = createHash('sha256')
  for (let at = 0; at < body.length; at += DIGEST_SLICE_BYTES) {
    digest.update(body.subarray(at, at + DIGEST_SLICE_BYTES))
    yield
  }
  if (trailer.sha256 !== digest.digest('hex')) return refuse('damaged: its digest does not match its contents')
  const headerEnd = body.indexOf(0x0a)
  let header: Partial<Header>
  try {
    header = JSON.parse(body.subarray(0, headerEnd).toString('utf8')) as Partial<Header>
  } catch {
    return refuse('not a catalog file (unreadable header)')
  }
  if (header.format !== CATALOG_FILE_FORMAT) return refuse('not a catalog file')
  if (header.version !== CATALOG_FILE_VERSION)
    return refuse(`format version ${String(header.version)}, this build reads ${CATALOG_FILE_VERSION}`)
  if (header.venue !== venue) return refuse(`it is ${String(header.venue)}'s catalog`)
  if (header.source !== source) return refuse(`it was listed from ${String(header.source)}, not ${source}`)
  if (typeof header.fetchedAt !== 'number' || typeof header.events !== 'number') return refuse('incomplete header')
  const events: CatalogEvent[] = []
  let start = headerEnd + 1
  while (start < body.length) {
    const lineEnd = body.indexOf(0x0a, start)
    events.push(nullAsUndefined(JSON.parse(body.subarray(start, lineEnd).toString('utf8'))) as CatalogEvent)
    start = lineEnd + 1
    if (events.length % EVENTS_PER_STEP === 0) yield
  }
  if (events.length !== header.events) return refuse(`${events.length} events where its header says ${header.events}`)
  const catalog: Catalog = {
    venue,
    events,
    fetchedAt: header.fetchedAt,
    ...(header.truncation === undefined ? {} : { truncation: header.truncation }),
  }
  return { ok: true, catalog, bytes: bytes.length }
}
