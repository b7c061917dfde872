import type { ContestFacts } from './contest.js'
import type { ContractSpec } from './contract.js'
import type { AliasLookup } from './names.js'

/**
 * The blocking index of head-to-head contracts (contest.ts), one per venue, kept between catalog versions like the
 * word indexes (contract-index.ts). The contest judge (contest-judge.ts) pairs two contests only with the same kind
 * and part, on the same game day or a day apart (the start's UTC day), or with end times within a day when a day is
 * missing, and with one participant agreeing strongly: the same name, one name inside the other, the same person,
 * equal codes, or names a reviewer made aliases. Each of those shares a word's first letter (or the alias group), so
 * a contract is held under (kind and part, day or end day, letter), and a contract's candidates are the holders of
 * one of its letters on the days it can meet: exact, every pair the judge accepts is a candidate, and a busy day
 * splits into small blocks.
 */
const DAY_MS = 86_400_000

type ByLetter = Map<string, ContractSpec[]>

export class ContestIndex {
  readonly #blocks = new Map<string, ByLetter>()
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
    const contest = c.contest as ContestFacts
    const letters = lettersOf(contest, this.#aliases)
    for (const block of blocksOf(c, false)) {
      let byLetter = this.#blocks.get(block)
      if (byLetter === undefined) this.#blocks.set(block, (byLetter = new Map()))
      for (const l of letters) {
        const list = byLetter.get(l)
        if (list === undefined) byLetter.set(l, [c])
        else list.push(c)
      }
    }
  }

  remove(c: ContractSpec): void {
    const letters = lettersOf(c.contest as ContestFacts, this.#aliases)
    for (const block of blocksOf(c, false)) {
      const byLetter = this.#blocks.get(block)
      if (byLetter === undefined) continue
      for (const l of letters) {
        const list = byLetter.get(l)
        if (list === undefined) continue
        const i = list.indexOf(c)
        if (i === -1) continue
        list[i] = list[list.length - 1] as ContractSpec
        list.pop()
        if (list.length === 0) byLetter.delete(l)
      }
      if (byLetter.size === 0) this.#blocks.delete(block)
    }
  }

  /** The other venue's contests `c` may pair with. */
  candidatesOf(c: ContractSpec): ContractSpec[] {
    const out = new Set<ContractSpec>()
    const letters = lettersOf(c.contest as ContestFacts, this.#aliases)
    for (const block of blocksOf(c, true)) {
      const byLetter = this.#blocks.get(block)
      if (byLetter === undefined) continue
      for (const l of letters) for (const x of byLetter.get(l) ?? []) out.add(x)
    }
    return [...out]
  }
}

/**
 * The blocks a contest is held under (`probe` false) or looked up in (`probe` true): its kind and part with its day
 * (and, probing, the days either side), and with its end's UTC day (and the days either side).
 */
function blocksOf(c: ContractSpec, probe: boolean): string[] {
  const contest = c.contest as ContestFacts
  const what = `${contest.kind}|${contest.segment}`
  const out: string[] = []
  const spread = probe ? [-1, 0, 1] : [0]
  if (contest.day !== undefined) {
    const at = Date.parse(`${contest.day}T00:00:00Z`)
    if (Number.isFinite(at)) for (const k of spread) out.push(`${what}|d${isoDay(at + k * DAY_MS)}`)
  }
  if (c.end !== undefined) for (const k of spread) out.push(`${what}|e${isoDay(c.end + k * DAY_MS)}`)
  return out
}

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10)
}

/** First letters of every word and code of both participants' names, and their alias groups. */
function lettersOf(contest: ContestFacts, aliases: AliasLookup): Set<string> {
  const out = new Set<string>()
  for (const p of contest.participants) {
    // Every word's letter, organisation words included (a code may be built from them: "TL" for "Team Liquid").
    for (const w of p.key.text.toLowerCase().split(/[^a-z0-9]+/)) if (w !== '') out.add(w[0] as string)
    for (const t of p.key.tokens) out.add(t[0] as string)
    if (p.key.initials !== '') out.add(p.key.initials[0] as string)
    for (const code of p.codes) if (code !== '') out.add(code[0] as string)
    const group = aliases.groupOf(p.key)
    if (group !== undefined) out.add(`#${group}`)
  }
  return out
}
