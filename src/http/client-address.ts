import { formatIp, inAnyCidr, parseIp, unmapped, type Cidr, type IpAddress } from '../core/ip.js'

/**
 * Who a request comes from, for per-client limits on public endpoints (signup).
 *
 * The peer address of the connection, unless that peer is a proxy the operator trusts (`http.trustedProxies`):
 * then `X-Forwarded-For` is read from the right, skipping trusted proxies, and the first other address is the
 * client. Entries further left were written by the client itself and prove nothing. Without trusted proxies
 * (the default) the header is ignored: anyone can send it.
 *
 * The key is an IPv4 address, or an IPv6 /64: one subscriber usually holds a whole /64, so limiting single IPv6
 * addresses would let one client rotate through 2^64 of them. IPv4-mapped IPv6 (uWS prints IPv4 peers that way on
 * a dual-stack socket) is the IPv4 address.
 */
export function clientKey(
  remoteAddress: string | undefined,
  forwardedFor: string | undefined,
  trustedProxies: readonly Cidr[],
): string {
  const peer = remoteAddress === undefined ? undefined : parseIp(remoteAddress)
  if (peer === undefined) return remoteAddress ?? 'unknown'
  if (trustedProxies.length === 0 || forwardedFor === undefined || !inAnyCidr(peer, trustedProxies)) return keyOf(peer)
  const hops = forwardedFor.split(',').map((h) => h.trim())
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] as string
    const ip = parseIp(hop)
    // A hop that is not an address was still written by a trusted proxy (it is right of every untrusted hop).
    if (ip === undefined) return hop.slice(0, 64)
    if (!inAnyCidr(ip, trustedProxies)) return keyOf(ip)
  }
  // Every hop is a trusted proxy: the leftmost is the closest thing to a client.
  const first = parseIp(hops[0] ?? '')
  return first === undefined ? keyOf(peer) : keyOf(first)
}

function keyOf(address: IpAddress): string {
  const ip = unmapped(address)
  if (ip.family === 4) return formatIp(ip)
  return `${formatIp({ family: 6, value: (ip.value >> 64n) << 64n })}/64`
}
