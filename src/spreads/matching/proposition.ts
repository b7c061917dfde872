import type { ContractSpec } from './contract.js'

/**
 * The kind of proposition a contract is, as the evidence and the evaluation name it (docs/spreads.md): a
 * head-to-head's kind and part ("map-winner", "match-winner", "draw", "handicap", "total", "btts", "exact-score"),
 * else what its reading found: a finishing position ("top-n"), a range ("bracket"), a one-sided threshold, a word said
 * ("mention"), a winner by name ("winner"), anything else a "statement".
 */
export function propositionKind(c: ContractSpec): string {
  const contest = c.contest
  if (contest !== undefined) {
    if (contest.kind !== 'winner') return contest.kind
    const unit = contest.segment === 'match' ? 'match' : (contest.segment.split(' ')[0] as string)
    return unit === 'first' ? 'innings-winner' : `${unit}-winner`
  }
  if (c.rank !== undefined) return 'top-n'
  const i = c.interval
  if (i !== undefined) return i.lo !== undefined && i.hi !== undefined && i.lo !== i.hi ? 'bracket' : 'threshold'
  if (c.words.includes('say') || c.words.includes('mention')) return 'mention'
  if (c.words.includes('win')) return 'winner'
  return 'statement'
}
