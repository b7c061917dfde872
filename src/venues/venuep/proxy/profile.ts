import { upstreamCall, type ProxyContext } from './context.js'
import { TTL } from './ttl.js'
import { parseProfile, parseValue, type ProfileWire } from './wire.js'

/** A wallet's Gamma public profile (venuep.md §1.7), cached; null when the venue has none (its 404). */
export function fetchProfile(ctx: ProxyContext, wallet: string): Promise<ProfileWire | null> {
  return upstreamCall(
    'gamma',
    ctx.upstreams.gamma.get<ProfileWire | null>({
      path: '/public-profile',
      query: { address: wallet },
      parse: parseProfile,
      notFound: () => null,
      ttlMs: (p) => (p === null ? TTL.profileMissingMs : TTL.profileMs),
    }),
  )
}

/** A wallet's portfolio value from Data `/value`; null when the venue reports none. */
export function fetchValue(ctx: ProxyContext, wallet: string): Promise<number | null> {
  return upstreamCall(
    'data',
    ctx.upstreams.data.get<number | null>({
      path: '/value',
      query: { user: wallet },
      parse: (b, url) => parseValue(b, url) ?? null,
      ttlMs: () => TTL.valueMs,
    }),
  )
}
