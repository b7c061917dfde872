import { withoutThenWith } from './arrays.js'

/**
 * Past this many items taken out of or appended to its base, an edited list is made into an array at once (one copy,
 * and the next edits are over that array): what a list holds pending stays small, and so does each edit's cost.
 */
const MAX_PENDING = 4096

/**
 * An immutable list held as a base array less some of its items (`gone`) and then some items appended (`added`),
 * made into an array only when it is read whole (`array`). A venue view keeps its records' lists so (venue-view-
 * lookups.ts): a refresh that changed one event makes a new version of each list, and at real size a copy of one is
 * 1–2 MB (160,000 outcome records), three lists per view, garbage at the next install. The patched view reads none of
 * them whole (its orderings and search index are patched from the changes, list-index.ts); a whole build, a list
 * file's seed or a search rebuild does, and pays one copy then. Each version stays valid for whoever still reads it.
 *
 * Until a version is made into an array, the records it took out stay reachable through its base (at most
 * MAX_PENDING of them).
 */
export class PatchedList<T> {
  readonly #base: readonly T[]
  /** Items of `#base` taken out. */
  readonly #gone: ReadonlySet<T>
  /** Items appended after `#base`'s, in order. */
  readonly #added: readonly T[]
  #array: readonly T[] | undefined
  readonly length: number

  private constructor(base: readonly T[], gone: ReadonlySet<T>, added: readonly T[]) {
    this.#base = base
    this.#gone = gone
    this.#added = added
    this.length = base.length - gone.size + added.length
    if (gone.size === 0 && added.length === 0) this.#array = base
  }

  /** The list of `items` (not copied: the caller hands the array over and does not change it after). */
  static of<T>(items: readonly T[]): PatchedList<T> {
    return new PatchedList(items, new Set(), [])
  }

  /** This list without the items of `gone` (each an item of this list) and then with `added` appended. */
  edited(gone: ReadonlySet<T>, added: readonly T[]): PatchedList<T> {
    if (gone.size === 0 && added.length === 0) return this
    if (this.#array !== undefined) return PatchedList.#within(this.#array, new Set(gone), added.slice())
    // The same base, with both edits' changes: an item appended by this version and now gone is simply not appended.
    const appended = new Set(this.#added)
    const goneFromBase = new Set(this.#gone)
    let dropped: Set<T> | undefined
    for (const item of gone) {
      if (appended.has(item)) (dropped ??= new Set()).add(item)
      else goneFromBase.add(item)
    }
    const kept = dropped === undefined ? this.#added.slice() : this.#added.filter((x) => !(dropped as Set<T>).has(x))
    for (let i = 0; i < added.length; i++) kept.push(added[i] as T)
    return PatchedList.#within(this.#base, goneFromBase, kept)
  }

  static #within<T>(base: readonly T[], gone: Set<T>, added: T[]): PatchedList<T> {
    if (gone.size + added.length > MAX_PENDING) return PatchedList.of(withoutThenWith(base, gone, added))
    return new PatchedList(base, gone, added)
  }

  /** The list as an array (made once per version, and only when asked for). */
  array(): readonly T[] {
    return (this.#array ??= withoutThenWith(this.#base, this.#gone, this.#added))
  }
}
