import assert from 'node:assert/strict'
import { test } from 'node:test'
import { leadingIndex, type LeadCandidate } from '../../src/views/leading.js'

/** The leading-outcome rule shared by /events' leading_outcome and the venuep proxies' event slugs. */
const c = (id: string, probability: number | undefined, volume: number | undefined, open = true): LeadCandidate => ({
  id,
  probability,
  volume,
  open,
})

test('the highest probability leads', () => {
  assert.equal(leadingIndex([c('a', 0.2, 900), c('b', 0.55, 10), c('c', 0.25, 500)]), 1)
})

test('ties: the higher volume as printed (cents), then the lower id', () => {
  assert.equal(leadingIndex([c('a', 0.4, 100), c('b', 0.4, 250), c('c', 0.1, 9e9)]), 1)
  assert.equal(leadingIndex([c('b', 0.4, 250), c('a', 0.4, 250)]), 1, 'equal volume: the lower id')
  assert.equal(leadingIndex([c('b', 0.4, 250.004), c('a', 0.4, 249.996)]), 1, 'volumes that print alike (250.00) tie')
  assert.equal(leadingIndex([c('a', 0.4, undefined), c('b', 0.4, 1)]), 1, 'an unknown volume ranks last')
})

test('only open outcomes compete while any is open; otherwise all do', () => {
  assert.equal(leadingIndex([c('a', 1, 5, false), c('b', 0.3, 5), c('c', 0.2, 5)]), 1)
  assert.equal(leadingIndex([c('a', 0, 5, false), c('b', 1, 5, false), c('c', 0, 5, false)]), 1)
})

test('an unknown probability ranks last but is still a choice; none is -1', () => {
  assert.equal(leadingIndex([c('a', undefined, 999), c('b', 0.01, 1)]), 1)
  assert.equal(leadingIndex([c('b', undefined, 1), c('a', undefined, 1)]), 1)
  assert.equal(leadingIndex([]), -1)
})
