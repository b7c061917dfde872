import type { Steps } from '../../core/slices.js'
import { nullAsUndefined, undefinedAsNull } from '../../model/catalog-json.js'
import type { Catalog, CatalogEvent, CatalogTruncation } from '../../model/types.js'

/**
 * A catalog as bytes for the object store, and back, exactly (src/model/catalog-json.ts).
 *
 * One line per event after a header line, so both directions run in event-loop slices (a catalog of 20,000 events is
 * tens of MB of JSON: in one block, the ingest's feed and the edge's requests would wait behind it).
 */
interface Header {
  readonly venue: string
  readonly fetchedAt: number
  readonly truncation?: CatalogTruncation
  readonly events: number
}

const EVENTS_PER_STEP = 64

export function* encodeCatalogSteps(catalog: Catalog): Steps<Uint8Array> {
  const header: Header = {
    venue: catalog.venue,
    fetchedAt: catalog.fetchedAt,
    ...(catalog.truncation === undefined ? {} : { truncation: catalog.truncation }),
    events: catalog.events.length,
  }
  const lines = [JSON.stringify(header)]
  let n = 0
  for (const e of catalog.events) {
    lines.push(JSON.stringify(e, undefinedAsNull))
    if (++n % EVENTS_PER_STEP === 0) yield
  }
  return Buffer.from(lines.join('\n'), 'utf8')
}

export function* decodeCatalogSteps(bytes: Uint8Array): Steps<Catalog> {
  // JSON never holds a raw newline (it escapes them in strings), so lines are records.
  const lines = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8').split('\n')
  const header = JSON.parse(lines[0] ?? '') as Header
  if (typeof header.venue !== 'string' || lines.length - 1 !== header.events)
    throw new Error(`catalog object unreadable: header says ${header.events} events, ${lines.length - 1} lines follow`)
  const events: CatalogEvent[] = []
  for (let i = 1; i < lines.length; i++) {
    events.push(nullAsUndefined(JSON.parse(lines[i] as string)) as CatalogEvent)
    if (i % EVENTS_PER_STEP === 0) yield
  }
  return {
    venue: header.venue,
    events,
    fetchedAt: header.fetchedAt,
    ...(header.truncation === undefined ? {} : { truncation: header.truncation }),
  }
}
