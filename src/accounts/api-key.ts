import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/**
 * API key values: `<prefix><43 base62 characters>`, e.g. `pmk_live_3kTq…` (the prefix is config
 * `auth.keyPrefix`). The secret part encodes 32 random bytes (256 bits) from the OS CSPRNG; base62 keeps the key one
 * "word" for double-click selection and URL/header safe.
 *
 * Only `hashKey(key)` is stored: SHA-256, unsalted, fast. Salts and slow KDFs (bcrypt, scrypt, argon2) exist to
 * protect low-entropy secrets (passwords) against precomputed tables and guessing; a 256-bit random key cannot be
 * guessed or tabled, so they would add nothing but cost. A deterministic hash is also what lets authentication
 * find a key by an indexed lookup (a per-row salt would mean hashing against every row).
 */
export const SECRET_LENGTH = 43
const SECRET_BYTES = 32
/** Characters of the secret shown in `key_prefix` (4 base62 characters: 24 of 256 bits, harmless to show). */
const DISPLAY_SECRET_CHARS = 4
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const BASE = BigInt(ALPHABET.length)
const SECRET_CHARS = /^[0-9A-Za-z]+$/

export interface NewApiKey {
  /** The full key: shown to the client once, never stored. */
  readonly value: string
  /** SHA-256 of `value`, hex: the only form stored. */
  readonly hash: string
  /** `<prefix><first 4 secret characters>…`, what listings show. */
  readonly displayPrefix: string
}

export function generateApiKey(prefix: string): NewApiKey {
  const value = prefix + toBase62(randomBytes(SECRET_BYTES))
  return { value, hash: hashKey(value), displayPrefix: displayPrefix(prefix, value) }
}

export function hashKey(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex')
}

export function displayPrefix(prefix: string, value: string): string {
  return `${prefix}${value.slice(prefix.length, prefix.length + DISPLAY_SECRET_CHARS)}…`
}

/**
 * Whether `value` can be one of our keys at all (prefix, length, alphabet). Anything else is rejected without
 * touching the cache or the database, so garbage in `X-API-Key` costs nothing.
 */
export function looksLikeApiKey(prefix: string, value: string): boolean {
  return (
    value.length === prefix.length + SECRET_LENGTH &&
    value.startsWith(prefix) &&
    SECRET_CHARS.test(value.slice(prefix.length))
  )
}

/**
 * Constant-time comparison of two hex digests. Lookups go by hash, so what the database compares is a digest of
 * the attacker's input, not the secret; this check on the row found keeps the final comparison free of
 * data-dependent timing as well.
 */
export function sameDigest(aHex: string, bHex: string): boolean {
  const a = Buffer.from(aHex, 'hex')
  const b = Buffer.from(bHex, 'hex')
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b)
}

/** Big-endian bytes → base62, left-padded to SECRET_LENGTH so every key has the same length. */
function toBase62(bytes: Buffer): string {
  let n = BigInt(`0x${bytes.toString('hex')}`)
  let out = ''
  while (n > 0n) {
    out = (ALPHABET[Number(n % BASE)] as string) + out
    n /= BASE
  }
  return out.padStart(SECRET_LENGTH, '0')
}
