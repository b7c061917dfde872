import assert from 'node:assert/strict'
import { test } from 'node:test'
import { PageCache } from '../../src/views/page-cache.js'

/** Pages are valid for the view that built them; a replaced view's pages are dropped with it, others kept. */
test('forget drops the pages of replaced views and keeps the rest', () => {
  const cache = new PageCache()
  const oldView = {}
  const currentView = {}
  const items = [{}, {}]
  cache.set('a', oldView, items, [1, 1], '{"a":1}')
  cache.set('b', currentView, items, [1, 1], '{"b":1}')
  cache.forget(new Set([oldView]))
  assert.equal(cache.get('a', oldView, items, [1, 1]), undefined)
  assert.equal(Buffer.from(cache.get('b', currentView, items, [1, 1]) as Uint8Array).toString(), '{"b":1}')
  assert.deepEqual({ hits: cache.hits, misses: cache.misses }, { hits: 1, misses: 1 })
})
