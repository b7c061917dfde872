/**
 * CRC-32 (IEEE 802.3, the polynomial zlib uses), in plain TypeScript so the client's protocol logic also runs in a
 * browser, where `zlib.crc32` does not exist. Its result equals `zlib.crc32(text)` for the UTF-8 bytes of `text`
 * (a test checks this against Node's zlib).
 */
const TABLE = buildTable()

function buildTable(): Uint32Array {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
}

const encoder = new TextEncoder()

/** CRC-32 of the UTF-8 encoding of `text`, as an unsigned 32-bit integer. */
export function crc32(text: string): number {
  let crc = 0xffffffff
  for (const byte of encoder.encode(text)) crc = (TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}
