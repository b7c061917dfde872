import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { TopViews } from '../../src/stream/sources/spreads/top-view.js'
import { minSpreadOf, NO_FILTERS, viewKey } from '../../src/dashboard/web/view-key.js'

describe('top view keys', () => {
  const views = new TopViews(['venuep', 'venuek'])

  test('the page writes the key the server prints (so frames, snapshots and resumes find their stream)', () => {
    for (const minSpreadBps of [undefined, 0, 1, 3, 7, 150, 200, 333, 10_000]) {
      const key = viewKey({ ...NO_FILTERS, minSpreadBps })
      const parsed = views.parse(key)
      assert.ok(!('code' in parsed), `${key}: ${'reason' in parsed ? parsed.reason : ''}`)
      assert.equal(parsed.key, key, 'canonical as written')
    }
    assert.equal(viewKey(NO_FILTERS), 'limit=50&window=24&sort=confidence&executable_only=false')
    assert.equal(
      viewKey({ minSpreadBps: 200, category: '', search: '' }),
      'limit=50&window=24&sort=confidence&executable_only=false&min_spread=0.02',
    )
  })

  test('category and search follow as the server prints them: lowercased, whitespace collapsed, encoded', () => {
    const filters = [
      { minSpreadBps: undefined, category: 'Economics', search: '  Fed   CUT, April & more ' },
      { minSpreadBps: 150, category: 'sports', search: 'Ünïcode 50% "quoted"' },
      { minSpreadBps: undefined, category: '', search: 'trump' },
    ]
    for (const f of filters) {
      const key = viewKey(f)
      const parsed = views.parse(key)
      assert.ok(!('code' in parsed), `${key}: ${'reason' in parsed ? parsed.reason : ''}`)
      assert.equal(parsed.key, key, 'canonical as written')
    }
    assert.equal(
      viewKey(filters[0] as (typeof filters)[0]),
      'limit=50&window=24&sort=confidence&executable_only=false&category=economics&search=fed%20cut,%20april%20%26%20more',
    )
    assert.equal(viewKey({ minSpreadBps: undefined, category: ' ', search: '   ' }), viewKey(NO_FILTERS))
    const refused = views.parse(viewKey({ ...NO_FILTERS, search: 'x'.repeat(101) }))
    assert.ok('code' in refused && /search/.test(refused.reason), 'a search the server refuses has its reason')
  })

  test('the min-spread box: empty or not a number is no filter; numbers are kept as typed (the server judges them)', () => {
    assert.equal(minSpreadOf(''), undefined)
    assert.equal(minSpreadOf('  '), undefined)
    assert.equal(minSpreadOf('abc'), undefined)
    assert.equal(minSpreadOf('200'), 200)
    assert.equal(minSpreadOf('-5'), -5)
    const refused = views.parse(viewKey({ ...NO_FILTERS, minSpreadBps: 20_000 }))
    assert.ok('code' in refused && refused.code === 'BAD_REQUEST', 'out of bounds: refused with a reason to show')
  })
})
