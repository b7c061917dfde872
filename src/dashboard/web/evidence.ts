import { percent } from './format.js'
import type { SpreadRow } from './spread-row.js'

/**
 * Why the matcher paired the two outcomes (a record's `match`), as the terms and descriptions of a definition
 * list: quality, weight, manual, each venue's contract, what the automatic matcher found the same, and the texts
 * each venue's side was read from. Pure (test/dashboard/evidence.test.ts).
 */
export interface Entry {
  readonly term: string
  readonly values: readonly string[]
}

export function evidenceEntries(r: Pick<SpreadRow, 'platform_a' | 'platform_b' | 'match'>): Entry[] {
  const m = r.match
  const venues = [r.platform_a, r.platform_b]
  const out: Entry[] = [
    { term: 'Match quality', values: [m.quality] },
    { term: 'Weight', values: [`${percent(m.weight)} (measured share of such pairs that were the same contract)`] },
    { term: 'Manual', values: [m.manual ? 'yes: a reviewer paired them' : 'no: the automatic matcher paired them'] },
  ]
  for (const v of venues) {
    const id = m[`${v}_outcome_id`]
    if (typeof id === 'string') out.push({ term: `${v} contract`, values: [id] })
  }
  const e = m.evidence
  if (e === null) out.push({ term: 'Evidence', values: ['none recorded (a manual match)'] })
  else {
    out.push({ term: 'Proposition', values: [e.kind] })
    out.push({ term: 'Fields compared', values: e.compared.length === 0 ? ['none'] : [...e.compared] })
    out.push({ term: 'Shared words', values: [listOrNone(e.shared_words)] })
    out.push({ term: 'Implicit words', values: [listOrNone(e.implicit_words)] })
    out.push({ term: 'Period', values: [e.period] })
    out.push({ term: 'Strike', values: [e.strike ?? 'none'] })
  }
  for (const v of venues) {
    const texts = m[`${v}_text`]
    if (Array.isArray(texts) && texts.length > 0)
      out.push({ term: `${v} texts`, values: texts.filter((t): t is string => typeof t === 'string') })
  }
  return out
}

function listOrNone(words: readonly string[]): string {
  return words.length === 0 ? 'none' : words.join(', ')
}
