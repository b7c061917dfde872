import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { renderDashboardPage } from '../../src/dashboard/page.js'

const ids = (html: string) => [...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1])

describe('dashboard page', () => {
  test('live venues and auth off: no banner, the page knows it needs no key', () => {
    const html = renderDashboardPage({
      simulated: false,
      sourceDescription: 'live venues',
      authRequired: false,
      venues: ['venuep', 'venuek'],
    })
    assert.ok(!html.includes('sim-banner'))
    assert.match(html, /<html lang="en" data-simulated="false" data-auth-required="false" data-venues="venuep,venuek">/)
  })

  test('simulated: the banner says so, with the source escaped', () => {
    const html = renderDashboardPage({
      simulated: true,
      sourceDescription: 'seed <42> & "more"',
      authRequired: true,
      venues: ['venuep'],
    })
    assert.match(html, /<div id="sim-banner" role="note">/)
    assert.ok(html.includes('seed &#60;42&#62; &#38; &#34;more&#34;'))
  })

  test('every id of the DOM contract is there, once; one strip per venue', () => {
    const html = renderDashboardPage({
      simulated: true,
      sourceDescription: 's',
      authRequired: true,
      venues: ['a', 'b'],
    })
    const all = ids(html)
    for (const id of [
      'top-table',
      'f-min-spread',
      'f-category',
      'f-search',
      'view-error',
      'pair',
      'pair-title',
      'pair-chart',
      'book-a',
      'book-b',
      'evidence',
      'venues',
      'auth-dialog',
      'api-key',
      'api-key-save',
      'signup-email',
      'signup-company',
      'signup-use-case',
      'signup-submit',
      'auth-error',
      'sim-banner',
    ])
      assert.equal(all.filter((x) => x === id).length, 1, id)
    assert.equal(new Set(all).size, all.length, 'ids are unique')
    assert.deepEqual(
      [...html.matchAll(/class="venue" data-venue="([^"]+)"/g)].map((m) => m[1]),
      ['a', 'b'],
    )
    assert.deepEqual(
      [...html.matchAll(/<th scope="col" data-col="([^"]+)"/g)].map((m) => m[1]),
      ['rank', 'event', 'outcome', 'price-a', 'price-b', 'spread-bps', 'edge', 'size', 'confidence', 'stale'],
    )
    assert.deepEqual(
      [...html.matchAll(/data-range="([^"]+)"/g)].map((m) => m[1]),
      ['1d', '1w', '1m', 'all'],
    )
  })
})
