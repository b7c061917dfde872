/** A map of lists (each key's values, in the order added), kept by the two helpers below. */

/** Appends `value` to `key`'s list in `map`, making the list on first use. */
export function addTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else list.push(value)
}

/** Takes `value` (its first place) out of `key`'s list in `map`; the key goes with its last value. */
export function removeFrom<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key)
  const i = list?.indexOf(value) ?? -1
  if (list === undefined || i < 0) return
  if (list.length === 1) map.delete(key)
  else list.splice(i, 1)
}
