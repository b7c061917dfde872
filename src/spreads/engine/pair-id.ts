import { createHash } from 'node:crypto'

/**
 * A pair's public id: the first 16 hex digits (64 bits) of the SHA-256 of its key (`eventSlug|outcomeKey`).
 * The key is what identifies a pair across restarts and catalog refreshes (history and alerts use it), but it holds
 * `|`, spaces and any text a venue wrote, so it is awkward in a URL and long in a list; the id is short, URL and
 * JSON safe, and the same wherever the key is. The engine's numeric `pairId` is neither: it is dense per process.
 * At 20,000 pairs the chance of two keys sharing an id is about 10⁻¹¹.
 */
export function pairIdOf(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16)
}

/** Whether `s` has the shape of a pair id (cheap check before a lookup). */
export function looksLikePairId(s: string): boolean {
  return /^[0-9a-f]{16}$/.test(s)
}
