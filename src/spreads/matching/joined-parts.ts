/** Every pair of venues' array of something (links, spread specs) as one array, with the parts it was joined from. */
export interface Joined<T> {
  readonly parts: readonly (readonly T[])[]
  /** One pair's array itself, or the parts concatenated in pair order. */
  readonly all: readonly T[]
}

/** What left and came between two arrays. */
export interface PartsDelta<T> {
  readonly removed: readonly T[]
  readonly added: readonly T[]
}

/**
 * `parts` joined (cross-venue.ts hands the read models every pair's links, and the engine every pair's specs, as one
 * array): `last` itself when every part is the last's (`same`: its readers tell it unchanged by identity), else a new
 * one, with what changed since `last.all` when each part's change since its part in `last` is known (`deltas[i]`;
 * undefined: not known, and then neither is the whole's).
 */
export function joinParts<T>(
  last: Joined<T> | undefined,
  parts: readonly (readonly T[])[],
  deltas: readonly (PartsDelta<T> | undefined)[],
): { readonly joined: Joined<T>; readonly same: boolean; readonly delta: PartsDelta<T> | undefined } {
  const aligned = last !== undefined && last.parts.length === parts.length
  if (aligned && parts.every((p, i) => p === last.parts[i]))
    return { joined: last, same: true, delta: { removed: [], added: [] } }
  const all = parts.length === 1 ? (parts[0] as readonly T[]) : parts.flat()
  const known = aligned && deltas.every((d) => d !== undefined)
  const delta = known
    ? { removed: deltas.flatMap((d) => d?.removed ?? []), added: deltas.flatMap((d) => d?.added ?? []) }
    : undefined
  return { joined: { parts, all }, same: false, delta }
}
