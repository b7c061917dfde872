/**
 * IP addresses and CIDR blocks as numbers, for the checks that decide where the service may connect (webhook
 * targets) and whom it throttles (client addresses). Parsing is strict and total: dotted-quad IPv4 without leading
 * zeros, IPv6 in any RFC 4291 text form (compressed, full as uWS prints it, with a trailing dotted quad, with a
 * `%zone` that is ignored); anything else is undefined, never a guess.
 *
 * IPv4-mapped IPv6 addresses (`::ffff:127.0.0.1`, `::ffff:7f00:1`) are the IPv4 address for every purpose here
 * (`unmapped`): a socket to one reaches the other, so a check must not see two different addresses.
 */
export type IpAddress = { readonly family: 4; readonly value: number } | { readonly family: 6; readonly value: bigint }

export interface Cidr {
  readonly family: 4 | 6
  /** The network address (host bits cleared). */
  readonly base: IpAddress
  readonly bits: number
}

export function parseIp(text: string): IpAddress | undefined {
  return parseIpv4(text) ?? parseIpv6(text)
}

function parseIpv4(text: string): { family: 4; value: number } | undefined {
  const parts = text.split('.')
  if (parts.length !== 4) return undefined
  let value = 0
  for (const p of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(p)) return undefined
    const n = Number(p)
    if (n > 255) return undefined
    value = value * 256 + n
  }
  return { family: 4, value }
}

function parseIpv6(text: string): { family: 6; value: bigint } | undefined {
  const zone = text.indexOf('%')
  const s = zone === -1 ? text : text.slice(0, zone)
  if (!s.includes(':')) return undefined
  const halves = s.split('::')
  if (halves.length > 2) return undefined
  const head = groups(halves[0] as string)
  const tail = halves.length === 2 ? groups(halves[1] as string) : []
  if (head === undefined || tail === undefined) return undefined
  const count = head.length + tail.length
  if (halves.length === 1 ? count !== 8 : count > 7) return undefined
  const all = [...head, ...new Array<number>(8 - count).fill(0), ...tail]
  let value = 0n
  for (const g of all) value = (value << 16n) | BigInt(g)
  return { family: 6, value }
}

/** Colon-separated 16-bit groups; a trailing dotted quad counts as two. Empty text is no groups. */
function groups(text: string): number[] | undefined {
  if (text === '') return []
  const parts = text.split(':')
  const out: number[] = []
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i] as string
    if (i === parts.length - 1 && p.includes('.')) {
      const v4 = parseIpv4(p)
      if (v4 === undefined) return undefined
      out.push(Math.floor(v4.value / 65_536), v4.value % 65_536)
    } else {
      if (!/^[0-9a-fA-F]{1,4}$/.test(p)) return undefined
      out.push(parseInt(p, 16))
    }
  }
  return out
}

/** `::ffff:a.b.c.d` is a.b.c.d; every other address is itself. */
export function unmapped(ip: IpAddress): IpAddress {
  if (ip.family === 6 && ip.value >> 32n === 0xffffn) return { family: 4, value: Number(ip.value & 0xffff_ffffn) }
  return ip
}

/** The IPv4 address in the low 32 bits of an IPv6 address (NAT64 and mapped forms). */
export function embeddedIpv4(ip: { family: 6; value: bigint }): { family: 4; value: number } {
  return { family: 4, value: Number(ip.value & 0xffff_ffffn) }
}

/** Canonical text: dotted quad, or RFC 5952 IPv6 (lowercase, longest zero run compressed). */
export function formatIp(ip: IpAddress): string {
  if (ip.family === 4) return [24, 16, 8, 0].map((shift) => Math.floor(ip.value / 2 ** shift) % 256).join('.')
  const g: number[] = []
  for (let i = 7; i >= 0; i--) g.push(Number((ip.value >> BigInt(i * 16)) & 0xffffn))
  let bestStart = -1
  let bestLen = 1
  for (let i = 0; i < 8;) {
    if (g[i] !== 0) {
      i++
      continue
    }
    let j = i
    while (j < 8 && g[j] === 0) j++
    if (j - i > bestLen) {
      bestStart = i
      bestLen = j - i
    }
    i = j
  }
  const hex = g.map((n) => n.toString(16))
  if (bestStart === -1) return hex.join(':')
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`
}

/**
 * `10.0.0.0/8`, `fc00::/7`, or a bare address (a block of one). Host bits are cleared. An IPv4-mapped IPv6 block
 * of /96 or longer is the IPv4 block it maps (addresses are compared unmapped).
 */
export function parseCidr(text: string): Cidr | undefined {
  const slash = text.indexOf('/')
  const ip = parseIp(slash === -1 ? text : text.slice(0, slash))
  if (ip === undefined) return undefined
  const max = ip.family === 4 ? 32 : 128
  let bits = max
  if (slash !== -1) {
    const b = text.slice(slash + 1)
    if (!/^(0|[1-9]\d{0,2})$/.test(b) || Number(b) > max) return undefined
    bits = Number(b)
  }
  if (ip.family === 6 && bits >= 96 && ip.value >> 32n === 0xffffn) return cidr(unmapped(ip), bits - 96)
  return cidr(ip, bits)
}

function cidr(ip: IpAddress, bits: number): Cidr {
  if (ip.family === 4) {
    const size = 2 ** (32 - bits)
    return { family: 4, base: { family: 4, value: Math.floor(ip.value / size) * size }, bits }
  }
  const host = 128n - BigInt(bits)
  return { family: 6, base: { family: 6, value: (ip.value >> host) << host }, bits }
}

export function inCidr(ip: IpAddress, block: Cidr): boolean {
  if (ip.family !== block.family) return false
  if (ip.family === 4) {
    const size = 2 ** (32 - block.bits)
    return Math.floor(ip.value / size) * size === block.base.value
  }
  const host = 128n - BigInt(block.bits)
  return (ip.value >> host) << host === block.base.value
}

/** Whether `ip` (compared unmapped) is in any of `blocks`. */
export function inAnyCidr(ip: IpAddress, blocks: readonly Cidr[]): boolean {
  const u = unmapped(ip)
  return blocks.some((b) => inCidr(u, b))
}
