import { createHash } from 'node:crypto'
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { Steps } from './slices.js'

/**
 * A file of records that is trusted whole or not at all, for state a restart starts from (the catalog files,
 * src/actors/catalog-file.ts; the matches, src/spreads/matching/match-file.ts):
 *
 * - line 1, a header naming the format and its version (and whatever the owner checks before trusting the rest);
 * - one JSON record per line;
 * - a last line with the SHA-256 of every byte before it.
 *
 * Written to a temporary file, synced and renamed over the old one, so a crash mid-write leaves the previous file.
 * Reading checks the trailer's digest, then the header (the owner's check), before a single record is parsed: a file
 * that fails any check is refused with the reason, never half-read.
 */
export interface SealedHeader {
  readonly format: string
  readonly version: number
}

/** Bytes buffered before a write (the stringify of a chunk of records is the only synchronous work). */
const WRITE_CHUNK_BYTES = 1 << 20
const RECORDS_PER_STEP = 64
const PARSE_STEP_BYTES = 256 << 10
const DIGEST_SLICE_BYTES = 8 << 20

/**
 * Writes `header` and `records` to `path`, atomically; returns the bytes written. `replacer` is JSON.stringify's
 * for the records. Await between chunks of ~1 MB, so a large file does not hold the event loop.
 */
export async function writeSealedFile(
  path: string,
  header: SealedHeader,
  records: Iterable<unknown>,
  replacer?: (key: string, value: unknown) => unknown,
): Promise<number> {
  await mkdir(dirname(path), { recursive: true })
  const temporary = `${path}.${process.pid}.tmp`
  const digest = createHash('sha256')
  const file = await open(temporary, 'w')
  let bytes = 0
  try {
    let pending: string[] = [`${JSON.stringify(header)}\n`]
    let pendingBytes = 0
    const flush = async () => {
      const chunk = Buffer.from(pending.join(''), 'utf8')
      pending = []
      pendingBytes = 0
      digest.update(chunk)
      bytes += chunk.length
      await file.write(chunk)
    }
    for (const record of records) {
      const line = `${JSON.stringify(record, replacer)}\n`
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

/** What a sealed file held: its header and records, or why it was refused (`missing` when there is no file). */
export type SealedRead<H> =
  | { readonly ok: true; readonly header: H; readonly records: unknown[]; readonly bytes: number }
  | { readonly ok: false; readonly missing: boolean; readonly reason: string }

/** Reads the bytes of `path` (a missing file is `undefined`). */
export async function readFileBytes(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
}

/**
 * The header and records in `bytes` if the file is whole, of `format` at `version`, and its header passes `check`
 * (which returns a refusal reason, or undefined to accept); otherwise the reason it is refused. `what` names the
 * file in reasons ("catalog file"); `revive` turns each parsed record into the owner's. The digest is taken and the records parsed in event-loop slices (src/core/
 * slices.ts): a real catalog's file is hundreds of MB.
 */
export function* readSealedFileSteps<H extends SealedHeader>(
  bytes: Buffer | undefined,
  what: string,
  format: string,
  version: number,
  check: (header: Partial<H>) => string | undefined,
  revive: (record: unknown) => unknown = (record) => record,
): Steps<SealedRead<H>> {
  if (bytes === undefined) return { ok: false, missing: true, reason: `no ${what}` }
  const refuse = (reason: string): SealedRead<H> => ({ ok: false, missing: false, reason })
  // The trailer is the last line, ended by its newline like every line; the digest covers every byte before it.
  if (bytes.length === 0 || bytes[bytes.length - 1] !== 0x0a)
    return refuse('cut short or damaged (its last line is not the trailer)')
  const end = bytes.length - 1
  const trailerStart = bytes.lastIndexOf(0x0a, end - 1) + 1
  if (trailerStart <= 0) return refuse(`not a ${what} (no trailer)`)
  let trailer: { sha256?: unknown }
  try {
    trailer = JSON.parse(bytes.subarray(trailerStart, end).toString('utf8')) as { sha256?: unknown }
  } catch {
    return refuse('cut short or damaged (its last line is not the trailer)')
  }
  const body = bytes.subarray(0, trailerStart)
  const digest = createHash('sha256')
  for (let at = 0; at < body.length; at += DIGEST_SLICE_BYTES) {
    digest.update(body.subarray(at, at + DIGEST_SLICE_BYTES))
    yield
  }
  if (trailer.sha256 !== digest.digest('hex')) return refuse('damaged: its digest does not match its contents')
  const headerEnd = body.indexOf(0x0a)
  let header: Partial<H>
  try {
    header = JSON.parse(body.subarray(0, headerEnd).toString('utf8')) as Partial<H>
  } catch {
    return refuse(`not a ${what} (unreadable header)`)
  }
  if (header.format !== format) return refuse(`not a ${what}`)
  if (header.version !== version) return refuse(`format version ${String(header.version)}, this build reads ${version}`)
  const refusal = check(header)
  if (refusal !== undefined) return refuse(refusal)
  const records: unknown[] = []
  let start = headerEnd + 1
  let parsed = 0
  while (start < body.length) {
    const lineEnd = body.indexOf(0x0a, start)
    records.push(revive(JSON.parse(body.subarray(start, lineEnd).toString('utf8'))))
    parsed += lineEnd - start
    start = lineEnd + 1
    // A step ends after RECORDS_PER_STEP records or PARSE_STEP_BYTES of them (a file of large records: list-file.ts).
    if (records.length % RECORDS_PER_STEP === 0 || parsed >= PARSE_STEP_BYTES) (yield, (parsed = 0))
  }
  return { ok: true, header: header as H, records, bytes: bytes.length }
}
