/**
 * Deterministic randomness for the simulated world. Everything the simulator produces derives from one seed,
 * so a test can regenerate the same world and compare against its ground truth.
 */

/** 32-bit integer hash of any number of integers (a murmur3-style finalizer over a running mix). */
export function hashInts(...values: number[]): number {
  let h = 0x9e3779b9
  for (const v of values) {
    h = Math.imul(h ^ (v | 0), 0x85ebca6b)
    h ^= h >>> 13
    h = Math.imul(h, 0xc2b2ae35)
    h ^= h >>> 16
    // Mix the high bits of large numbers (timestamps) too.
    const hi = Math.floor(v / 4294967296) | 0
    if (hi !== 0) {
      h = Math.imul(h ^ hi, 0x27d4eb2f)
      h ^= h >>> 15
    }
  }
  return h >>> 0
}

/** 32-bit hash of a string (FNV-1a), for deriving sub-seeds from names. */
export function hashString(s: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/** Uniform in [0, 1) from integers. */
export function unit(...values: number[]): number {
  return hashInts(...values) / 4294967296
}

/** One flat string of these character codes: an id's few dozen, passed as arguments in one call. */
function fromCodes(codes: readonly number[]): string {
  return String.fromCharCode.apply(null, codes as number[])
}

const HEX_CODES = Array.from('0123456789abcdef', (c) => c.charCodeAt(0))
const DASH = '-'.charCodeAt(0)
const ZERO = '0'.charCodeAt(0)
const FOUR = '4'.charCodeAt(0)

/** A small, fast seeded PRNG (mulberry32). Not for cryptography. */
export class Rng {
  #state: number

  constructor(seed: number) {
    this.#state = seed >>> 0
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.#state = (this.#state + 0x6d2b79f5) >>> 0)
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }

  /** Integer in [min, max] inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list')
    return items[Math.floor(this.next() * items.length)] as T
  }

  chance(p: number): boolean {
    return this.next() < p
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = Math.max(this.next(), 1e-12)
    const v = this.next()
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v)
  }

  /** Log-normal with the given median and log-space sigma. */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal())
  }

  /** Hex string of `length` characters. */
  hex(length: number): string {
    // Eight digits per draw, most significant first. Made from character codes in one call, not appended: an id
    // built by `+=` stays a tree of string pieces in V8 (about 450 bytes for a uuid against 56 flat), and the
    // world keeps millions of them (trade ids).
    const codes = new Array<number>(length)
    for (let i = 0; i < length; i += 8) {
      const v = (this.next() * 4294967296) >>> 0
      for (let k = 0; k < 8 && i + k < length; k++) codes[i + k] = HEX_CODES[(v >>> (28 - 4 * k)) & 15] as number
    }
    return fromCodes(codes)
  }

  /** Decimal digit string of `length` characters without a leading zero (token ids of 77–78 digits, as one real venue issues). */
  digits(length: number): string {
    // One flat string from character codes (see hex()): appended digit by digit, a 78-digit id was ~1.4 KB of pieces.
    const codes = new Array<number>(Math.max(1, length))
    codes[0] = ZERO + this.int(1, 9)
    for (let i = 1; i < length; i++) codes[i] = ZERO + Math.floor(this.next() * 10)
    return fromCodes(codes)
  }

  /** A child generator whose stream does not depend on how much this one is used later. */
  fork(label: number): Rng {
    return new Rng(hashInts(this.#state, label))
  }

  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1))
      const tmp = items[i] as T
      items[i] = items[j] as T
      items[j] = tmp
    }
    return items
  }
}

/** A version-4 UUID drawn from `rng` (market ids, trade ids). */
export function uuid(rng: Rng): string {
  const h = rng.hex(32)
  const variant = '89ab'.charCodeAt(rng.int(0, 3))
  // 8-4-4-4-12 digits, version 4, the variant drawn: one flat string (see hex()).
  const codes = new Array<number>(36)
  for (let i = 0, at = 0; i < 32; i++) {
    if (i === 8 || i === 12 || i === 16 || i === 20) codes[at++] = DASH
    codes[at++] = i === 12 ? FOUR : i === 16 ? variant : h.charCodeAt(i)
  }
  return fromCodes(codes)
}
