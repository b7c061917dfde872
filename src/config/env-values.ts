/**
 * The entries of `o` that are set and not empty; undefined when none is. How load.ts and the venues' config
 * sections (src/venues/<venue>/module.ts `fromEnv`) turn a group of environment variables into an override.
 */
export function defined(o: Record<string, string | undefined>): Record<string, string> | undefined {
  const entries = Object.entries(o).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== '')
  return entries.length === 0 ? undefined : Object.fromEntries(entries)
}

/** An integer from `name`'s value; a malformed one stays a string so validation reports it with the key's path. */
export function toInt(name: string, value: string): number | string {
  return /^-?\d+$/.test(value) ? Number(value) : `${value} (from ${name})`
}
