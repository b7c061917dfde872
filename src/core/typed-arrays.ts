/** `array` if it holds at least `length` elements, else a copy at least twice as long (the new tail zeroed). */
export function atLeast<T extends Float64Array | Int32Array>(array: T, length: number): T {
  if (length <= array.length) return array
  const grown = new (array.constructor as new (length: number) => T)(Math.max(length, array.length * 2))
  grown.set(array)
  return grown
}
