import { crc32 } from 'node:zlib'

/** A printed level: `[price, size]` as the stream sends it. */
export type PrintedLevel = readonly [price: string, size: string]

/** Levels the checksum covers per side (the protocol's "top 10", whatever the stream's depth). */
export const CRC_LEVELS = 10

/**
 * The book checksum of the protocol: CRC32 of the top 10 asks (ascending) then the top 10 bids (descending), each
 * `price:size` in the strings sent, joined with `,`, the sides separated by `|`. Levels come best first.
 */
export function bookCrc(asks: readonly PrintedLevel[], bids: readonly PrintedLevel[]): number {
  return crc32(`${side(asks)}|${side(bids)}`)
}

function side(levels: readonly PrintedLevel[]): string {
  let out = ''
  const n = Math.min(levels.length, CRC_LEVELS)
  for (let i = 0; i < n; i++) {
    const [price, size] = levels[i] as PrintedLevel
    out += i === 0 ? `${price}:${size}` : `,${price}:${size}`
  }
  return out
}
