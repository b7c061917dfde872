/**
 * The bus contract's subjects (docs/SCALE-OUT.md, and `/api/v2/bus-asyncapi.json`). Every subject is built here, so
 * what the ingest publishes and what an edge subscribes to cannot drift apart.
 *
 * - `md.<ch>.<venue>.<stream>`: one stream's frames, byte for byte what `/api/v2/stream` sends, with the
 *   `(epoch, seq)` the owning actor assigned. `<ch>` is the channel (`top` for `spreads.top`: a token holds no dot);
 *   `<venue>` the venue the key names (`quote`, `book`, `venue`), `x` for a stream of no one venue (`spread`,
 *   `spreads.top`, `alerts`); `<stream>` the key, and for a book `<key>|<depth>` (the depth is part of the stream but
 *   not of its frames). JetStream stream `MD` keeps them for the resume window.
 * - `lease.open` (request) and `lease.renew`: an edge asks the ingest to hold streams open that it keeps only on
 *   demand (every channel but `venue`), and keeps asking while its clients hold them; `lease.ask`: an ingest started
 *   and wants every lease renewed now; `lease.closed`: the ingest closed one nobody renewed (stream/leases.ts).
 * - `feed.<venue>`: the feed events a venue actor applied, in order (edges apply the same, so their books, quotes and
 *   everything read from them equal the ingest's); `feed.<venue>.snapshot`: request for the books now.
 * - `catalog.<venue>`: a new catalog version is in the object store bucket `catalogs` under `<venue>`.
 *
 * A subject token may not hold `.`, `*`, `>` or whitespace, and keys can (a venuek ticker may hold a dot, a spread
 * key a space), so a key is one token with every byte outside `[A-Za-z0-9_:|-]` written as `%XX`.
 */
export const MD_STREAM = 'MD'
export const CATALOG_BUCKET = 'catalogs'
export const CROSS_VENUE = 'x'

/** Where edges ask the ingest to open leased streams (request/reply), and renew the leases they hold. */
export const LEASE_OPEN_SUBJECT = 'lease.open'
export const LEASE_RENEW_SUBJECT = 'lease.renew'
/** An ingest (re)started: edges renew every lease they hold at once, so it reopens what their clients follow. */
export const LEASE_ASK_SUBJECT = 'lease.ask'
/** The ingest closed a leased stream no edge renewed: edges forget what they hold of it. */
export const LEASE_CLOSED_SUBJECT = 'lease.closed'

/** A channel's subject token: its name, but `top` for `spreads.top`. */
const CHANNEL_TOKENS: Readonly<Record<string, string>> = { 'spreads.top': 'top' }
const TOKEN_CHANNELS: Readonly<Record<string, string>> = { top: 'spreads.top' }

/** The subject of a stream: `stream` is its topic after `<ch>|` (the key, and `|<depth>` for a book). */
export function mdSubject(ch: string, venue: string, stream: string): string {
  return `md.${CHANNEL_TOKENS[ch] ?? ch}.${venue}.${subjectToken(stream)}`
}

/** The sequencer topic (`<ch>|<stream>`, see `streamId`) a `md` subject carries; undefined for any other subject. */
export function topicOfMdSubject(subject: string): string | undefined {
  const parts = subject.split('.')
  if (parts.length !== 4 || parts[0] !== 'md') return undefined
  const token = parts[1] as string
  try {
    return `${TOKEN_CHANNELS[token] ?? token}|${tokenKey(parts[3] as string)}`
  } catch {
    return undefined // not %-encoding as subjectToken writes it
  }
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
