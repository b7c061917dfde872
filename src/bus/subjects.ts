/**
 * The bus contract's subjects (docs/SCALE-OUT.md, and `/api/v2/bus-asyncapi.json`). Every subject is built here, so
 * what the ingest publishes and what an edge subscribes to cannot drift apart.
 *
 * - `md.<ch>.<venue>.<key>`: one stream's frames, byte for byte what `/api/v2/stream` sends, with the `(epoch, seq)`
 *   the owning actor assigned. `<venue>` is the venue the key names (`quote`, `book`, `venue`), `x` for a
 *   cross-venue stream (`spread`). JetStream stream `MD` keeps them for the resume window.
 * - `feed.<venue>`: the feed events a venue actor applied, in order (edges apply the same, so their books, quotes and
 *   everything read from them equal the ingest's); `feed.<venue>.snapshot`: request for the books now.
 * - `catalog.<venue>`: a new catalog version is in the object store bucket `catalogs` under `<venue>`.
 * - `alerts.fired`: each alert firing the ingest's outbox committed (edges serve the `alerts` channel from them).
 *
 * A subject token may not hold `.`, `*`, `>` or whitespace, and keys can (a venuek ticker may hold a dot, a spread
 * key a space), so a key is one token with every byte outside `[A-Za-z0-9_:|-]` written as `%XX`.
 */
export const MD_STREAM = 'MD'
export const CATALOG_BUCKET = 'catalogs'
export const CROSS_VENUE = 'x'
/** Alert firings, as the ingest's outbox commits them (alert-firings.ts). */
export const ALERT_FIRINGS_SUBJECT = 'alerts.fired'

export function mdSubject(ch: string, venue: string, key: string): string {
  return `md.${ch}.${venue}.${subjectToken(key)}`
}

export function feedSubject(venue: string): string {
  return `feed.${venue}`
}

export function feedSnapshotSubject(venue: string): string {
  return `feed.${venue}.snapshot`
}

export function catalogSubject(venue: string): string {
  return `catalog.${venue}`
}

const SAFE = /^[A-Za-z0-9_:|-]$/

/** `key` as one subject token (see above); `tokenKey` reverses it. */
export function subjectToken(key: string): string {
  let out = ''
  for (const ch of key) {
    if (SAFE.test(ch)) out += ch
    else for (const b of Buffer.from(ch, 'utf8')) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`
  }
  return out
}

export function tokenKey(token: string): string {
  return decodeURIComponent(token)
}
