import { cidrsFromConfig } from '../config/cidrs.js'
import { embeddedIpv4, inAnyCidr, inCidr, parseCidr, unmapped, type Cidr, type IpAddress } from '../core/ip.js'

/**
 * Which addresses a webhook may be delivered to. The delivery worker runs inside our network, so a URL chosen by
 * an API user must not make it call our own services (server-side request forgery): the database on loopback, the
 * cloud metadata endpoint that hands out credentials, anything on a private network. So only public unicast
 * addresses are allowed, unless the operator says otherwise (`alerts.webhook` in the config):
 *
 * - `allowedCidrs`: blocks allowed whatever they are (e.g. `10.20.0.0/16` for an internal receiver, or
 *   `127.0.0.0/8` in tests with loopback receivers). The precise switch; it wins over everything below.
 * - `allowPrivateTargets`: every non-public address except the ones no webhook should ever need (`ALWAYS_REFUSED`:
 *   unspecified, link-local, where the metadata services live, multicast and broadcast); those only through
 *   `allowedCidrs`.
 *
 * The special ranges are IANA's special-purpose registries (RFC 6890 and updates). IPv6 outside global unicast
 * (2000::/3) is refused as reserved; an IPv4-mapped address is judged as its IPv4 address, and a NAT64 address
 * (64:ff9b::/96) as the IPv4 address it translates to, since that is where a NAT64 gateway would connect.
 */
export interface TargetPolicyConfig {
  readonly allowPrivateTargets: boolean
  readonly allowedCidrs: readonly string[]
}

export type AddressVerdict = { readonly allowed: true } | { readonly allowed: false; readonly label: string }

interface SpecialRange {
  readonly block: Cidr
  /** What the address is, for messages: "a <label> address". */
  readonly label: string
  /** Refused even with allowPrivateTargets. */
  readonly always: boolean
}

/** First match wins: specific blocks before the blocks containing them. */
const SPECIAL: readonly (readonly [string, string, boolean?])[] = [
  ['0.0.0.0/8', 'unspecified ("this network")', true],
  ['10.0.0.0/8', 'private'],
  ['100.100.100.200/32', 'cloud metadata', true],
  ['100.64.0.0/10', 'shared (carrier-grade NAT)'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.169.254/32', 'cloud metadata', true],
  ['169.254.0.0/16', 'link-local', true],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.192/32', 'cloud metadata', true],
  ['192.0.0.0/24', 'reserved (IETF protocol assignments)'],
  ['192.0.2.0/24', 'reserved (documentation)'],
  ['192.88.99.0/24', 'reserved (6to4 relay anycast)'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'reserved (benchmarking)'],
  ['198.51.100.0/24', 'reserved (documentation)'],
  ['203.0.113.0/24', 'reserved (documentation)'],
  ['224.0.0.0/4', 'multicast', true],
  ['255.255.255.255/32', 'broadcast', true],
  ['240.0.0.0/4', 'reserved'],
  ['::/128', 'unspecified', true],
  ['::1/128', 'loopback'],
  ['64:ff9b:1::/48', 'reserved (local-use NAT64)'],
  ['100::/64', 'reserved (discard-only)'],
  ['fd00:ec2::254/128', 'cloud metadata', true],
  ['fc00::/7', 'unique-local (private)'],
  ['fe80::/10', 'link-local', true],
  ['fec0::/10', 'site-local (deprecated)'],
  ['ff00::/8', 'multicast', true],
  ['2001:db8::/32', 'reserved (documentation)'],
  ['2001::/23', 'reserved (IETF protocol assignments)'],
  ['2002::/16', 'reserved (6to4)'],
  ['3fff::/20', 'reserved (documentation)'],
]

const RANGES: readonly SpecialRange[] = SPECIAL.map(([text, label, always]) => ({
  block: parseCidr(text) as Cidr,
  label,
  always: always === true,
}))
const NAT64 = parseCidr('64:ff9b::/96') as Cidr
const GLOBAL_UNICAST_V6 = parseCidr('2000::/3') as Cidr

export class TargetPolicy {
  readonly #allowPrivate: boolean
  readonly #allowed: readonly Cidr[]

  constructor(config: TargetPolicyConfig) {
    this.#allowPrivate = config.allowPrivateTargets
    this.#allowed = cidrsFromConfig('/alerts/webhook/allowedCidrs', config.allowedCidrs)
  }

  check(ip: IpAddress): AddressVerdict {
    if (inAnyCidr(ip, this.#allowed)) return ALLOWED
    const special = classify(ip)
    if (special === undefined) return ALLOWED
    if (this.#allowPrivate && !special.always) return ALLOWED
    return { allowed: false, label: special.label }
  }
}

const ALLOWED: AddressVerdict = Object.freeze({ allowed: true })

/** The special range an address is in; undefined for a public unicast address. */
export function classify(address: IpAddress): Pick<SpecialRange, 'label' | 'always'> | undefined {
  const ip = unmapped(address)
  if (ip.family === 6 && inCidr(ip, NAT64)) return classify(embeddedIpv4(ip))
  const range = RANGES.find((r) => inCidr(ip, r.block))
  if (range !== undefined) return range
  if (ip.family === 6 && !inCidr(ip, GLOBAL_UNICAST_V6)) return { label: 'reserved', always: false }
  return undefined
}
