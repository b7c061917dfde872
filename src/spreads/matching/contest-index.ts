import type { ContestFacts } from './contest.js'
import type { ContractSpec } from './contract.js'
import { heldKeys, probeKeys, type AliasLookup } from './names.js'
import { eachHolder, hold, lastHolder, release, type Holders } from './postings.js'

/**
 * The blocking index of head-to-head contracts (contest.ts), one per venue, kept between catalog versions like the
 * word indexes (contract-index.ts). The contest judge (contest-judge.ts) pairs two contests only with the same kind
 * and part, on the same game day or a day apart (the start's UTC day), or with end times within a day when a day is
 * missing, with both participants agreeing strongly (the same name, one name inside the other, the same person, a
 * city told apart by a letter, equal codes, or names a reviewer made aliases). Two names that agree strongly meet on
 * a key (names.ts `heldKeys` / `probeKeys`: whole names, names inside longer ones, persons, initials, codes, alias
 * groups). So each participant of a contract is held under (kind and part, day or end day, key), and a contract's
 * candidates are the holders met by BOTH of its participants' probe keys on the days it can meet: exact, every pair
 * the judge accepts is a candidate, and on a busy day each probe finds the listings of one matchup.
 */
const DAY_MS = 86_400_000

type ByKey = Map<string, Holders<ContractSpec>>

export class ContestIndex {
  readonly #blocks = new Map<string, ByKey>()
  /**
   * Contracts held without a game day: only for them must a contract with a day look in the end-day blocks too (the
   * judge compares end times only when a day is missing), so while there are none the lookups skip those blocks.
   */
  #dayless = 0
  /** Alias groups as of the last `clear` (the matcher rebuilds the index when they change). */
  #aliases: AliasLookup

  constructor(aliases: AliasLookup) {
    this.#aliases = aliases
  }

  clear(aliases: AliasLookup): void {
    this.#blocks.clear()
    this.#aliases = aliases
  }

  add(c: ContractSpec): void {
    if ((c.contest as ContestFacts).dayNumber === undefined) this.#dayless++
    const keys = this.#held(c)
    for (const block of blocksOf(c, false)) {
      let byKey = this.#blocks.get(block)
      if (byKey === undefined) this.#blocks.set(block, (byKey = new Map()))
      // A contract's keys can repeat (a name and its alias group): it is held once under each.
      for (const k of keys) if (lastHolder(byKey.get(k)) !== c) hold(byKey, k, c)
    }
  }

  remove(c: ContractSpec): void {
    const keys = this.#held(c)
    let held = false
    for (const block of blocksOf(c, false)) {
      const byKey = this.#blocks.get(block)
      if (byKey === undefined) continue
      for (const k of keys) if (release(byKey, k, c)) held = true
      if (byKey.size === 0) this.#blocks.delete(block)
    }
    if (held && (c.contest as ContestFacts).dayNumber === undefined) this.#dayless--
  }

  /** The other venue's contests `c` may pair with: met by both of its participants. */
  candidatesOf(c: ContractSpec): ContractSpec[] {
    const [p, q] = (c.contest as ContestFacts).participants
    const blocks = blocksOf(c, true, this.#dayless > 0)
    const first = new Set<ContractSpec>()
    this.#meet(blocks, probeKeys(p.key, p.codes, this.#aliases), (x) => first.add(x))
    if (first.size === 0) return []
    const out = new Set<ContractSpec>()
    this.#meet(blocks, probeKeys(q.key, q.codes, this.#aliases), (x) => {
      if (first.has(x)) out.add(x)
    })
    return [...out]
  }

  /** Calls `found` for each holder of one of `keys` in `blocks` (repeats included). */
  #meet(blocks: readonly string[], keys: readonly string[], found: (c: ContractSpec) => void): void {
    for (const block of blocks) {
      const byKey = this.#blocks.get(block)
      if (byKey === undefined) continue
      for (const k of keys) eachHolder(byKey.get(k), found)
    }
  }

  #held(c: ContractSpec): Set<string> {
    const out = new Set<string>()
    for (const p of (c.contest as ContestFacts).participants)
      for (const k of heldKeys(p.key, p.codes, this.#aliases)) out.add(k)
    return out
  }
}

/**
 * The blocks a contest is held under (`probe` false) or looked up in (`probe` true): its kind and part with its day
 * (and, probing, the days either side), and with its end's UTC day (and the days either side; a probe with a day
 * looks there only while some contract without a day is held, `daylessHeld`).
 */
function blocksOf(c: ContractSpec, probe: boolean, daylessHeld = true): string[] {
  const contest = c.contest as ContestFacts
  const what = `${contest.kind}|${contest.segment}`
  const out: string[] = []
  const lo = probe ? -1 : 0
  const hi = probe ? 1 : 0
  const day = contest.dayNumber
  if (day !== undefined && Number.isFinite(day)) for (let k = lo; k <= hi; k++) out.push(`${what}|d${day + k}`)
  // A probe with a day meets a contract without one only in the end-day blocks (none held: nothing to meet there).
  if (c.end !== undefined && (!probe || day === undefined || daylessHeld)) {
    const end = Math.floor(c.end / DAY_MS)
    for (let k = lo; k <= hi; k++) out.push(`${what}|e${end + k}`)
  }
  return out
}
