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

const HEX_BYTES = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

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
    // Byte lookup: Number#toString(16) on values above 2^31 takes V8's slow radix path.
    let s = ''
    while (s.length < length) {
      const v = (this.next() * 4294967296) >>> 0
      s +=
        (HEX_BYTES[v >>> 24] as string) + HEX_BYTES[(v >>> 16) & 255] + HEX_BYTES[(v >>> 8) & 255] + HEX_BYTES[v & 255]
    }
    return s.length === length ? s : s.slice(0, length)
  }

  /** Decimal digit string of `length` characters without a leading zero (token ids of 77–78 digits, as one real venue issues). */
  digits(length: number): string {
    let s = String(this.int(1, 9))
    while (s.length < length) s += String(Math.floor(this.next() * 10))
    return s
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
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[rng.int(0, 3)]}${h.slice(17, 20)}-${h.slice(20, 32)}`
}
