import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { RuleIndex } from '../../src/alerts/rule-index.js'
import type { AlertRule } from '../../src/alerts/rule-types.js'
import { alertRule } from './rule-fixtures.js'

/** The scope index: a change reaches exactly the rules whose scope and threshold can concern it. */
function candidates(index: RuleIndex<{ rule: AlertRule }>, event: string, outcome: string, spread: number): string[] {
  const out: string[] = []
  index.forCandidates(event, outcome, spread, (e) => out.push(e.rule.id))
  return out.sort()
}

describe('RuleIndex', () => {
  test('buckets by scope: global, event, outcome, event + outcome', () => {
    const index = new RuleIndex<{ rule: AlertRule }>()
    const global = alertRule('spread_threshold', 0.01)
    const event = alertRule('spread_threshold', 0.01, { event_slug: 'fed' })
    const outcome = alertRule('spread_threshold', 0.01, { outcome_key: 'text:yes' })
    const pair = alertRule('spread_threshold', 0.01, { event_slug: 'fed', outcome_key: 'text:yes' })
    const elsewhere = alertRule('spread_threshold', 0.01, { event_slug: 'cpi', outcome_key: 'text:yes' })
    for (const rule of [global, event, outcome, pair, elsewhere]) index.add({ rule })
    assert.deepEqual(candidates(index, 'fed', 'text:yes', 0.5), [global.id, event.id, outcome.id, pair.id].sort())
    assert.deepEqual(candidates(index, 'fed', 'text:no', 0.5), [global.id, event.id].sort())
    assert.deepEqual(candidates(index, 'gdp', 'text:yes', 0.5), [global.id, outcome.id].sort())
    assert.deepEqual(candidates(index, 'gdp', 'text:no', 0.5), [global.id])
    assert.equal(index.size, 5)
  })

  test('threshold-sorted rules stop at the first threshold above the spread; expansion rules always match', () => {
    const index = new RuleIndex<{ rule: AlertRule }>()
    const rules = [0.08, 0.02, 0.05, 0.05, 0.2].map((t) => alertRule('spread_threshold', t))
    const collapse = alertRule('spread_collapse', 0.03)
    const fresh = alertRule('new_pair', 0.04)
    const expansion = alertRule('spread_expansion', 0.5)
    for (const rule of [...rules, collapse, fresh, expansion]) index.add({ rule })
    const thresholds = (spread: number) => {
      const seen: number[] = []
      index.forCandidates('e', 'o', spread, (e) => seen.push(e.rule.threshold))
      return seen
    }
    assert.deepEqual(thresholds(0.01), [0.5])
    assert.deepEqual(thresholds(0.05), [0.02, 0.03, 0.04, 0.05, 0.05, 0.5], 'ascending, equal thresholds included')
    assert.deepEqual(thresholds(0.3), [0.02, 0.03, 0.04, 0.05, 0.05, 0.08, 0.2, 0.5])
  })

  test('remove and re-add: a removed rule is never visited; an update replaces, never duplicates', () => {
    const index = new RuleIndex<{ rule: AlertRule }>()
    const a = alertRule('spread_threshold', 0.01, { event_slug: 'fed' })
    const b = alertRule('spread_expansion', 0.01, { event_slug: 'fed' })
    index.add({ rule: a })
    index.add({ rule: b })
    index.add({ rule: { ...a, threshold: 0.02 } })
    assert.deepEqual(candidates(index, 'fed', 'x', 0.5), [a.id, b.id].sort())
    assert.equal(index.remove(a.id)?.rule.threshold, 0.02)
    assert.deepEqual(candidates(index, 'fed', 'x', 0.5), [b.id])
    index.remove(b.id)
    assert.equal(index.remove(b.id), undefined)
    assert.deepEqual(candidates(index, 'fed', 'x', 0.5), [])
    assert.equal(index.size, 0)
  })

  test("with 10,000 event-scoped rules a change visits only its event's rules", () => {
    const index = new RuleIndex<{ rule: AlertRule }>()
    for (let i = 0; i < 10_000; i++)
      index.add({ rule: alertRule('spread_threshold', 0.01, { event_slug: `event-${i % 1_000}` }) })
    let visited = 0
    index.forCandidates('event-7', 'o', 0.5, () => visited++)
    assert.equal(visited, 10)
  })
})
