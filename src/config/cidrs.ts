import { parseCidr, type Cidr } from '../core/ip.js'
import { ConfigError } from './load.js'

/**
 * A config list of CIDR blocks (`10.0.0.0/8`, `::1`, …) parsed once at boot; a malformed entry fails the boot
 * with its key, like every other bad setting (the schema can only say "a string").
 */
export function cidrsFromConfig(key: string, entries: readonly string[]): Cidr[] {
  const problems: string[] = []
  const blocks = entries.flatMap((text, i) => {
    const block = parseCidr(text.trim())
    if (block === undefined) problems.push(`${key}/${i}: "${text}" is not an IP address or CIDR block`)
    return block === undefined ? [] : [block]
  })
  if (problems.length > 0) throw new ConfigError(problems)
  return blocks
}
