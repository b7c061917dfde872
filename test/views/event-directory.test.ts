import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { buildCatalogSnapshot } from '../../src/actors/catalog-snapshot.js'
import type { CatalogEvent, VenueId } from '../../src/model/types.js'
import { runToEnd } from '../../src/core/slices.js'
import { EventDirectory, eventOn, type EventLink } from '../../src/views/event-directory.js'

/** Service events over any number of venues: groups, slugs and aliases follow registry order. */
function event(venue: VenueId, eventId: string, title: string, volumeTotal: number): CatalogEvent {
  return {
    venue,
    eventId,
    title,
    subtitle: undefined,
    category: 'other',
    status: 'active',
    rawStatus: 'open',
    url: `https://${venue}.example/${eventId}`,
    mutuallyExclusive: false,
    createdAt: 1_000,
    updatedAt: 2_000,
    endTime: 3_000,
    volumeTotal,
    volume24h: undefined,
    liquidity: undefined,
    openInterest: undefined,
    markets: [],
  }
}

const catalog = (venue: VenueId, events: CatalogEvent[]) => buildCatalogSnapshot({ venue, events, fetchedAt: 0 }, 1)
const link = (a: [VenueId, string], b: [VenueId, string]): EventLink => ({
  a: { venue: a[0], eventId: a[1] },
  b: { venue: b[0], eventId: b[1] },
})

describe('EventDirectory over three venues', () => {
  const venues = [
    {
      venue: 'va',
      catalog: catalog('va', [event('va', 'a1', 'One', 10), event('va', 'a2', 'Two', 20)]),
      eventSlug: (e: Pick<CatalogEvent, 'eventId'>) => e.eventId,
    },
    {
      venue: 'vb',
      catalog: catalog('vb', [event('vb', 'b1', 'One', 1), event('vb', 'b2', 'Three', 2)]),
      eventSlug: (e: Pick<CatalogEvent, 'eventId'>) => `b-${e.eventId}`,
    },
    {
      venue: 'vc',
      catalog: catalog('vc', [event('vc', 'c1', 'One', 5), event('vc', 'c2', 'Three', 6)]),
      eventSlug: (e: Pick<CatalogEvent, 'eventId'>) => `c-${e.eventId}`,
    },
  ]

  test('linked events are one service event, led by the earliest venue; a link that would give a venue two events in one is ignored', () => {
    const links = [
      link(['va', 'a1'], ['vb', 'b1']),
      link(['vb', 'b1'], ['vc', 'c1']),
      // b1 is already with a1: a2 cannot join it, nor c2 (c1 is there).
      link(['va', 'a2'], ['vb', 'b1']),
      link(['vb', 'b1'], ['vc', 'c2']),
      link(['vb', 'b2'], ['vc', 'c2']),
      // Unknown events are ignored.
      link(['va', 'gone'], ['vc', 'c2']),
    ]
    const d = EventDirectory.create(venues, links, 7)
    const rows = d.events.map((e) => [
      e.slug,
      e.aliases,
      e.platforms,
      e.members.map((m) => m.eventId),
      e.title,
      e.volumeTotal,
    ])
    assert.deepEqual(rows, [
      ['a1', ['b-b1', 'c-c1'], ['va', 'vb', 'vc'], ['a1', 'b1', 'c1'], 'One', 16],
      ['a2', [], ['va'], ['a2'], 'Two', 20],
      ['b-b2', ['c-c2'], ['vb', 'vc'], ['b2', 'c2'], 'Three', 8],
    ])
    assert.equal(d.version, 7)
    assert.deepEqual(
      [
        ['va', 'a1'],
        ['vb', 'b1'],
        ['vc', 'c1'],
        ['vb', 'b2'],
        ['vc', 'c2'],
      ].map(([v, id]) => d.slugOf(v!, id!)),
      ['a1', 'a1', 'a1', 'b-b2', 'b-b2'],
    )
    // Aliases resolve to their event; eventOn finds each venue's member.
    assert.equal(d.bySlug('c-c1'), d.bySlug('a1'))
    assert.deepEqual(
      ['va', 'vb', 'vc'].map((v) => eventOn(d.bySlug('b-b2'), v)?.eventId),
      [undefined, 'b2', 'c2'],
    )
  })

  test('a venue without a catalog yet lists nothing and links to it are ignored', () => {
    const d = EventDirectory.create(
      [venues[0]!, { ...venues[1]!, catalog: undefined }, venues[2]!],
      [link(['va', 'a1'], ['vb', 'b1']), link(['va', 'a1'], ['vc', 'c1'])],
      1,
    )
    assert.deepEqual(
      d.events.map((e) => [e.slug, e.aliases]),
      [
        ['a1', ['c-c1']],
        ['a2', []],
        ['c-c2', []],
      ],
    )
  })

  test('a rebuild keeps the service events whose members are the same objects, and equals a build from nothing', () => {
    const links = [link(['va', 'a1'], ['vb', 'b1']), link(['vb', 'b2'], ['vc', 'c2'])]
    const first = EventDirectory.create(venues, links, 1)
    // vc's catalog refreshed: c2 changed (a new object), c1 the same object.
    const [c1, c2] = venues[2]!.catalog.events
    const refreshed = [
      venues[0]!,
      venues[1]!,
      { ...venues[2]!, catalog: catalog('vc', [c1!, { ...c2!, volumeTotal: 60 }]) },
    ]
    const rebuilt = runToEnd(EventDirectory.build(refreshed, links, 2, first))
    const fresh = EventDirectory.create(refreshed, links, 2)
    assert.deepEqual(rebuilt.events, fresh.events)
    const slugs = ['a1', 'a2', 'b-b2', 'c-c1']
    assert.deepEqual(
      slugs.map((slug) => rebuilt.bySlug(slug)?.slug),
      slugs.map((slug) => fresh.bySlug(slug)?.slug),
    )
    assert.equal(rebuilt.bySlug('a1'), first.bySlug('a1'), 'a1, b1 unchanged: the same record')
    assert.equal(rebuilt.bySlug('c-c1'), first.bySlug('c-c1'))
    assert.notEqual(rebuilt.bySlug('b-b2'), first.bySlug('b-b2'), 'c2 changed: made again')
    assert.equal(rebuilt.bySlug('b-b2')?.volumeTotal, 62)
    assert.equal(rebuilt.slugOf('vc', 'c2'), 'b-b2')
  })
})
