import type { ContractSpec } from './contract.js'
import { signaturesAllow } from './judge.js'
import { labelKeys, nameKey, type AliasLookup } from './names.js'
import { eachHolder, hold, holderCount, release, type Holders } from './postings.js'

/**
 * The two blocking indexes of the matcher, kept from one catalog version to the next so a change costs what changed,
 * not the catalogs (matcher.ts). Both are by block first, then by word (nested maps: no key string per word). A block
 * is a period key (a day the contract's period can meet another's on, periods.ts) and a threshold bucket (below):
 * a daily price ladder of forty rungs on each venue is forty small blocks, not one of 1,600 candidate pairs.
 *
 * The matcher pairs venue A's contracts with venue B's (matcher.ts), and the judge requires every required word of
 * the A side to be stated around the B side:
 * - `StatedWordIndex` (venue B): each contract under every word stated around it (`allWords`). An A contract's
 *   candidates are the holders of its rarest required word (`candidatesOf`).
 * - `RequiredWordIndex` (venue A): each contract under one of its required words (the rarest among B's contracts
 *   when it was added). A new B contract's candidates are the A contracts indexed under a word it states: the judge
 *   needs every required word of the A side stated around the B side, the indexed one among them.
 *
 * A "required" word of an A contract is one the judge requires the B side to state: its own words but for its
 * label's and the implicit ones (judge.ts `mayMatch`). Labels are compared as names (a short form, a shortened first
 * name, a reviewed alias: no word need be shared), so a candidate list's block is its period and its question's
 * other words. Head-to-heads are blocked apart (contest-index.ts).
 *
 * Both lookups are exact: every pair the judge would accept is among the candidates. Size: one entry per (word,
 * period key) of each contract, so they hold about one catalog's worth of references per venue, no more.
 */
type ByWord = Map<string, Holders<ContractSpec>>

/**
 * The judge pairs two contracts only with no threshold on either side, or equal thresholds (strikes.ts
 * `sameInterval`): the same bounds defined, each equal within 1e-9 relative, after open integer bounds of
 * temperatures are moved in by one degree. So the first defined bound of two paired contracts differs by at most
 * 1.1 when below 1e8: bucketed by 2, a contract's partners are in its bucket or a neighbour. Larger values and
 * intervals without bounds share one bucket per kind.
 */
function thresholdBucket(c: ContractSpec): { readonly kind: string; readonly at: number | undefined } {
  const i = c.interval
  if (i === undefined) return { kind: 'none', at: undefined }
  const v = i.lo ?? i.hi
  const kind = i.lo !== undefined ? 'lo' : 'hi'
  if (v === undefined || !(Math.abs(v) < 1e8)) return { kind: v === undefined ? 'any' : `${kind}+`, at: undefined }
  return { kind, at: Math.floor(v / 2) }
}

/** The blocks a contract is held under: one per period key. */
function blocksOf(c: ContractSpec): string[] {
  const b = thresholdBucket(c)
  const bucket = b.at === undefined ? b.kind : `${b.kind}${b.at}`
  return c.periodKeys.map((m) => `${m}\u0001${bucket}`)
}

/**
 * The blocks a contract's partners can be held under: its own and the neighbouring threshold buckets, and across the
 * 1e8 line both sides of it (a bound just below may equal one just above within the tolerance).
 */
function probesOf(c: ContractSpec): string[] {
  const b = thresholdBucket(c)
  const v = c.interval === undefined ? undefined : (c.interval.lo ?? c.interval.hi)
  const buckets: string[] = []
  if (b.at === undefined) buckets.push(b.kind)
  else for (let d = -1; d <= 1; d++) buckets.push(`${b.kind}${b.at + d}`)
  if (v !== undefined && Math.abs(Math.abs(v) - 1e8) < 4) {
    const kind = c.interval?.lo !== undefined ? 'lo' : 'hi'
    if (b.at === undefined) for (let d = -1; d <= 1; d++) buckets.push(`${kind}${Math.floor(v / 2) + d}`)
    else buckets.push(`${kind}+`)
  }
  const out: string[] = []
  for (const m of c.periodKeys) for (const bucket of buckets) out.push(`${m}\u0001${bucket}`)
  return out
}

export class StatedWordIndex {
  /** Block (period key and threshold bucket) → word → contracts. */
  readonly #byPeriod = new Map<string, ByWord>()
  /** Contracts stating each word (any period key): what "rarest" is measured by. */
  readonly #wordCounts = new Map<string, number>()

  clear(): void {
    this.#byPeriod.clear()
    this.#wordCounts.clear()
  }

  add(b: ContractSpec): void {
    for (const m of blocksOf(b)) {
      const byWord = nested(this.#byPeriod, m)
      for (const w of b.allWords) hold(byWord, w, b)
    }
    for (const w of b.allWords) this.#wordCounts.set(w, (this.#wordCounts.get(w) ?? 0) + 1)
  }

  remove(b: ContractSpec): void {
    for (const m of blocksOf(b)) {
      const byWord = this.#byPeriod.get(m)
      if (byWord === undefined) continue
      for (const w of b.allWords) release(byWord, w, b)
      if (byWord.size === 0) this.#byPeriod.delete(m)
    }
    for (const w of b.allWords) {
      const n = (this.#wordCounts.get(w) ?? 1) - 1
      if (n === 0) this.#wordCounts.delete(w)
      else this.#wordCounts.set(w, n)
    }
  }

  /** How many contracts state `w` (0 when none). */
  count(w: string): number {
    return this.#wordCounts.get(w) ?? 0
  }

  /**
   * The contracts that can pass the judge with the A contract `a`: on a day `a`'s period can meet theirs on, they
   * state its rarest required word.
   */
  candidatesOf(a: ContractSpec): ContractSpec[] {
    const out = new Set<ContractSpec>()
    for (const m of probesOf(a)) {
      const byWord = this.#byPeriod.get(m)
      if (byWord === undefined) continue
      let best: Holders<ContractSpec> | undefined
      for (const w of a.blocking) {
        const holders = byWord.get(w)
        if (holders === undefined) {
          best = undefined
          break
        }
        if (best === undefined || holderCount(holders) < holderCount(best)) best = holders
      }
      // The signatures drop most holders before the set sees them (a busy day holds thousands).
      eachHolder(best, (b) => {
        if (signaturesAllow(a, b)) out.add(b)
      })
    }
    return [...out]
  }
}

export class RequiredWordIndex {
  /** Block (period key and threshold bucket) → word → contracts. */
  readonly #byPeriod = new Map<string, ByWord>()
  /** The word each contract is indexed under (fixed when it was added, so removal finds it). */
  readonly #wordOf = new Map<ContractSpec, string>()

  clear(): void {
    this.#byPeriod.clear()
    this.#wordOf.clear()
  }

  /** Indexes `a` under its rarest required word among `stated`'s contracts; false when it has none (it pairs with nothing). */
  add(a: ContractSpec, stated: StatedWordIndex): boolean {
    let word: string | undefined
    let fewest = Infinity
    for (const w of a.blocking) {
      const n = stated.count(w)
      if (n < fewest || (n === fewest && word !== undefined && w < word)) {
        fewest = n
        word = w
      }
    }
    if (word === undefined) return false
    this.#wordOf.set(a, word)
    for (const m of blocksOf(a)) hold(nested(this.#byPeriod, m), word, a)
    return true
  }

  remove(a: ContractSpec): void {
    const word = this.#wordOf.get(a)
    if (word === undefined) return
    this.#wordOf.delete(a)
    for (const m of blocksOf(a)) {
      const byWord = this.#byPeriod.get(m)
      if (byWord === undefined) continue
      release(byWord, word, a)
      if (byWord.size === 0) this.#byPeriod.delete(m)
    }
  }

  /** The contracts indexed under a word the B contract `b` states, on a day both periods can meet on. */
  candidatesOf(b: ContractSpec): ContractSpec[] {
    const out = new Set<ContractSpec>()
    for (const m of probesOf(b)) {
      const byWord = this.#byPeriod.get(m)
      if (byWord === undefined) continue
      for (const w of b.allWords)
        eachHolder(byWord.get(w), (a) => {
          if (signaturesAllow(a, b)) out.add(a)
        })
    }
    return [...out]
  }
}

function nested(map: Map<string, ByWord>, key: string): ByWord {
  let inner = map.get(key)
  if (inner === undefined) map.set(key, (inner = new Map()))
  return inner
}

/**
 * Labelled contracts whose labels name the same one without sharing their first word (names.ts sameLabelName: the
 * same person with a shortened first name, one alias group, words equal once organisation words are left out), by
 * block and label key (names.ts labelKeys), one per venue: the word indexes block a labelled contract by its label's
 * first word, which such labels need not share. A contract's candidates here are the other venue's holders of one of
 * its label keys in the blocks its period and threshold can meet.
 */
export class LabelIndex {
  readonly #byBlock = new Map<string, ByWord>()
  #aliases: AliasLookup

  constructor(aliases: AliasLookup) {
    this.#aliases = aliases
  }

  clear(aliases: AliasLookup): void {
    this.#byBlock.clear()
    this.#aliases = aliases
  }

  add(c: ContractSpec): void {
    const keys = this.#keys(c)
    if (keys.length === 0) return
    for (const m of blocksOf(c)) {
      const byKey = nested(this.#byBlock, m)
      for (const k of keys) hold(byKey, k, c)
    }
  }

  remove(c: ContractSpec): void {
    const keys = this.#keys(c)
    for (const m of blocksOf(c)) {
      const byKey = this.#byBlock.get(m)
      if (byKey === undefined) continue
      for (const k of keys) release(byKey, k, c)
      if (byKey.size === 0) this.#byBlock.delete(m)
    }
  }

  candidatesOf(c: ContractSpec): ContractSpec[] {
    const keys = this.#keys(c)
    if (keys.length === 0) return []
    const out = new Set<ContractSpec>()
    for (const m of probesOf(c)) {
      const byKey = this.#byBlock.get(m)
      if (byKey === undefined) continue
      for (const k of keys) eachHolder(byKey.get(k), (x) => out.add(x))
    }
    return [...out]
  }

  #keys(c: ContractSpec): string[] {
    return c.labelWords.length === 0 ? [] : labelKeys(nameKey(c.outcome.title), this.#aliases)
  }
}
