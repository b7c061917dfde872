import type { HostResolver, ResolvedAddress } from '../../src/alerts/webhook-target.js'

/**
 * A DNS stand-in for webhook hosts: no test resolves a real name. Answers are set per host (addresses, or an error
 * code such as ENOTFOUND / EAI_AGAIN); an unknown host is ENOTFOUND. Every question is recorded in `calls`.
 */
export class FakeResolver {
  readonly calls: string[] = []
  readonly #answers = new Map<string, readonly ResolvedAddress[] | string>()

  constructor(hosts: Readonly<Record<string, readonly string[]>> = DEFAULT_HOSTS) {
    for (const [host, addresses] of Object.entries(hosts)) this.set(host, ...addresses)
  }

  /** `host` resolves to these addresses from now on. */
  set(host: string, ...addresses: string[]): this {
    this.#answers.set(
      host,
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    )
    return this
  }

  /** Lookups of `host` fail with this resolver error code from now on. */
  fail(host: string, code: string): this {
    this.#answers.set(host, code)
    return this
  }

  readonly resolve: HostResolver = async (host) => {
    this.calls.push(host)
    const answer = this.#answers.get(host) ?? 'ENOTFOUND'
    if (typeof answer === 'string') throw Object.assign(new Error(`getaddrinfo ${answer} ${host}`), { code: answer })
    return answer
  }
}

/** Public addresses (never connected to: tests that deliver use loopback receivers). */
export const DEFAULT_HOSTS: Readonly<Record<string, readonly string[]>> = {
  'hooks.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
}
