import { lookup } from 'node:dns/promises'
import { formatIp, parseIp } from '../core/ip.js'
import { TargetPolicy, type TargetPolicyConfig } from './target-policy.js'

/**
 * Where a webhook URL leads, and whether we may go there: the one check behind rule creation (422 when refused)
 * and every delivery attempt (DNS can change between the two, and between attempts).
 *
 * The host is taken from the WHATWG URL parser, the same one the delivery uses, so every spelling it normalizes
 * (`http://2130706433/`, `http://0x7f.1/`, `http://0177.0.0.1/`, `http://[::ffff:7f00:1]/`) is judged as the
 * address it means. An IP literal is judged as it is; `localhost` and `*.localhost` are loopback by definition
 * (RFC 6761) and never looked up; any other name is resolved (all its addresses, IPv4 and IPv6) and allowed only
 * if *every* address is, since the connection may go to any of them. A delivery then connects only to the
 * addresses checked here (pinned-post.ts), so a DNS answer that changes after the check (rebinding) is never used.
 *
 * The resolver is injectable: tests never use real DNS.
 */
export interface ResolvedAddress {
  readonly address: string
  readonly family: 4 | 6
}

/** All addresses of a host name, like `dns.lookup(name, { all: true })`; rejects with the resolver's error code. */
export type HostResolver = (hostname: string) => Promise<readonly ResolvedAddress[]>

const systemResolver: HostResolver = async (hostname) => {
  const found = await lookup(hostname, { all: true, verbatim: true })
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }))
}

export type TargetCheck =
  | { readonly ok: true; readonly url: URL; readonly host: string; readonly addresses: readonly ResolvedAddress[] }
  /** `refused`: an address is not allowed; `unresolvable`: the name has no address (NXDOMAIN); `dns_failed`: try later. */
  | {
      readonly ok: false
      readonly kind: 'invalid' | 'refused' | 'unresolvable' | 'dns_failed'
      readonly host: string
      readonly reason: string
    }

export interface WebhookTargetsOptions {
  readonly policy: TargetPolicy
  readonly resolve: HostResolver
  /** A lookup that takes longer has failed (`dns_failed`). */
  readonly resolveTimeoutMs: number
}

export interface WebhookTargetConfig extends TargetPolicyConfig {
  readonly resolveTimeoutMs: number
}

/** Resolver error codes that mean "this name has no address" rather than "could not ask". */
const NO_SUCH_NAME = new Set(['ENOTFOUND', 'ENODATA', 'EAI_NONAME', 'EAI_NODATA'])

export class WebhookTargets {
  readonly #o: WebhookTargetsOptions

  constructor(options: WebhookTargetsOptions) {
    this.#o = options
  }

  static fromConfig(config: WebhookTargetConfig, resolve: HostResolver = systemResolver): WebhookTargets {
    return new WebhookTargets({ policy: new TargetPolicy(config), resolve, resolveTimeoutMs: config.resolveTimeoutMs })
  }

  async check(target: string, signal?: AbortSignal): Promise<TargetCheck> {
    let url: URL
    try {
      url = new URL(target)
    } catch {
      return { ok: false, kind: 'invalid', host: '', reason: 'not a valid URL' }
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return { ok: false, kind: 'invalid', host: url.host, reason: 'not an http(s) URL' }
    // IPv6 literals come bracketed; a trailing dot names the same host.
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname.replace(/\.$/, '')
    const literal = parseIp(host)
    let addresses: readonly ResolvedAddress[]
    if (literal !== undefined) addresses = [{ address: formatIp(literal), family: literal.family }]
    else if (host === 'localhost' || host.endsWith('.localhost')) addresses = LOCALHOST
    else {
      const found = await this.#resolve(host, signal)
      if (!found.ok) return { ok: false, kind: found.kind, host, reason: found.reason }
      addresses = found.addresses
    }
    for (const a of addresses) {
      const ip = parseIp(a.address)
      const verdict = ip === undefined ? { allowed: false as const, label: 'unparseable' } : this.#o.policy.check(ip)
      if (!verdict.allowed) {
        const what = literal !== undefined ? `${host} is` : `${host} resolves to`
        return {
          ok: false,
          kind: 'refused',
          host,
          reason: `${what} a ${verdict.label} address; webhooks are delivered only to public addresses`,
        }
      }
    }
    return { ok: true, url, host, addresses }
  }

  async #resolve(host: string, signal: AbortSignal | undefined): Promise<Lookup> {
    let timer: ReturnType<typeof setTimeout> | undefined
    let onAbort: (() => void) | undefined
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(Object.assign(new Error('timeout'), { code: 'ETIMEOUT' })),
        this.#o.resolveTimeoutMs,
      )
      onAbort = () => reject(Object.assign(new Error('aborted'), { code: 'ABORTED' }))
      signal?.addEventListener('abort', onAbort, { once: true })
    })
    try {
      if (signal?.aborted === true) throw Object.assign(new Error('aborted'), { code: 'ABORTED' })
      const found = await Promise.race([this.#o.resolve(host), deadline])
      if (found.length === 0)
        return { ok: false, kind: 'unresolvable', reason: `${host} does not resolve to any address` }
      return { ok: true, addresses: found }
    } catch (err) {
      const code = typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : 'EUNKNOWN'
      if (NO_SUCH_NAME.has(code))
        return { ok: false, kind: 'unresolvable', reason: `${host} does not resolve to any address (${code})` }
      return { ok: false, kind: 'dns_failed', reason: `the address of ${host} could not be looked up (${code})` }
    } finally {
      clearTimeout(timer)
      if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort)
    }
  }
}

type Lookup =
  | { readonly ok: true; readonly addresses: readonly ResolvedAddress[] }
  | { readonly ok: false; readonly kind: 'unresolvable' | 'dns_failed'; readonly reason: string }

const LOCALHOST: readonly ResolvedAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
]
