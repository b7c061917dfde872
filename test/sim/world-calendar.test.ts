import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { loadConfig } from '../../src/config/load.js'
import { WORLD_CALENDAR_MS } from '../../src/sim/world/calendar.js'
import { generateWorld, type World } from '../../src/sim/world/generate.js'
import { LADDER_SERIES } from '../../src/sim/venuek/ladders.js'
import { venuepOf } from '../../src/sim/venuep/state.js'
import { venuekOf } from '../../src/sim/venuek/state.js'

/**
 * The generated world is laid out on a fixed calendar (src/sim/world/calendar.ts), never around the start: the same
 * seed gives the same events, markets, identifiers, titles and dates at every start, a day, 37 days or 400 days
 * later. Started later, the world has aged: a question past its end is closed or resolved, never still open. The
 * venuek-only ladders are recurring series listed from the start on, each observation's event the same whenever listed.
 */
const DAY = 86_400_000
const HOUR = 3_600_000
const START = WORLD_CALENDAR_MS
const LATER = [START + 7 * HOUR + 13 * 60_000, START + 37 * DAY, START + 400 * DAY]
const SIZE = { questions: 400, wallets: 10, seed: 11 }

/** Everything a user can save or read as a name: ids, slugs, condition and token ids, tickers and titles, whole lists. */
function names(w: World) {
  return {
    vpEvents: venuepOf(w).events.map((e) => [e.id, e.slug, e.title, e.negRiskMarketId ?? null]),
    vpMarkets: venuepOf(w).markets.map((m) => [
      m.id,
      m.slug,
      m.event.slug,
      m.question,
      m.conditionId,
      m.questionHash ?? null,
      m.tokenIds[0],
      m.tokenIds[1],
      m.groupItemTitle ?? null,
      m.outcomes.join('/'),
    ]),
    vkSeries: [...venuekOf(w).series.values()].map((s) => [s.ticker, s.title ?? null]),
    vkEvents: venuekOf(w).events.map((e) => [e.eventTicker, e.series.ticker, e.title, e.subTitle]),
    vkMarkets: venuekOf(w).markets.map((m) => [
      m.ticker,
      m.marketId,
      m.event.eventTicker,
      m.title,
      m.yesSubTitle,
      m.noSubTitle,
      m.strikeType ?? null,
      m.floorStrike ?? null,
      m.capStrike ?? null,
    ]),
    questions: w.questions.map((q) => [q.id, q.subject, q.contracts.map((c) => c.label).join('|')]),
    truth: w.truth,
  }
}

/** The dates a question's listings carry while it is open (they are its end once it has ended, as on the venues). */
function openDates(w: World, questionId: string) {
  const q = w.questionsById.get(questionId)!
  return {
    created: q.createdAt,
    end: q.endTime,
    vp: venuepOf(w)
      .events.filter((e) => e.question === q)
      .map((e) => [e.startDate, e.endDate, e.markets.map((m) => m.endDate ?? null)]),
    vk:
      venuekOf(w)
        .questionEvents.get(q.id)
        ?.markets.map((m) => [m.openTime, m.closeTime, m.expectedExpiration ?? null]) ?? [],
  }
}

describe('a world on a fixed calendar', () => {
  const first = generateWorld({ ...SIZE, anchorMs: START })
  const later = LATER.map((anchorMs) => generateWorld({ ...SIZE, anchorMs }))

  test('the same seed gives the same identifiers, slugs, tickers, titles and truth at every start', () => {
    const expected = names(first)
    assert.ok(expected.vpMarkets.length > 500 && expected.vkMarkets.length > 500, 'a world of some size')
    for (const [i, w] of later.entries())
      assert.deepEqual(names(w), expected, `start ${new Date(LATER[i]!).toISOString()}`)
    // Another seed is another world.
    assert.notDeepEqual(names(generateWorld({ ...SIZE, seed: 12, anchorMs: START })).vpMarkets, expected.vpMarkets)
  })

  test('dates do not slide: a question still open at a later start carries the dates it had at the first', () => {
    for (const w of later) {
      const open = w.questions.filter((q) => q.lifecycle === 'active')
      assert.ok(open.length > 0)
      for (const q of open) assert.deepEqual(openDates(w, q.id), openDates(first, q.id), q.id)
    }
  })

  test('started later, the world has aged: every open question ends after the start, every ended one is closed or resolved', () => {
    for (const [i, w] of later.entries()) {
      const now = LATER[i]!
      for (const q of w.questions) {
        const before = first.questionsById.get(q.id)!
        if (q.lifecycle === 'active') {
          assert.ok(q.endTime > now, `${q.id} open past its end`)
          assert.equal(before.lifecycle, 'active', `${q.id} reopened`)
        } else if (q.lifecycle === 'resolved') {
          assert.ok(q.resolvedAt! <= now && q.resolvedAt! > q.endTime - DAY, `${q.id} resolved at ${q.resolvedAt}`)
          assert.ok(
            q.contracts.every((c) => c.won !== undefined),
            `${q.id} has its winners drawn`,
          )
        } else {
          assert.ok(q.endTime <= now && q.resolvedAt === undefined, `${q.id} closed`)
        }
        // No open venue book for an ended question.
        for (const m of venuepOf(w).markets.filter((m) => m.canonical === q))
          assert.equal(venuepOf(w).books.has(m.conditionId), q.lifecycle === 'active', m.slug)
      }
    }
    const count = (w: World, lifecycle: string) => w.questions.filter((q) => q.lifecycle === lifecycle).length
    assert.ok(
      count(later[2]!, 'active') < count(later[1]!, 'active') && count(later[1]!, 'active') < count(first, 'active'),
      'fewer open questions as the calendar ages',
    )
  })

  test('a question resolves once, the same way, whenever the world is started after it did', () => {
    const [, month, year] = later as [World, World, World]
    const resolved = month.questions.filter(
      (q) => q.lifecycle === 'resolved' && first.questionsById.get(q.id)!.lifecycle !== 'resolved',
    )
    assert.ok(resolved.length > 10, 'questions that ended during the month')
    for (const q of resolved) {
      const again = year.questionsById.get(q.id)!
      assert.deepEqual(
        [again.lifecycle, again.resolvedAt, again.contracts.map((c) => c.won)],
        ['resolved', q.resolvedAt, q.contracts.map((c) => c.won)],
        q.id,
      )
    }
  })

  test("sim.calendar (SIM_CALENDAR) lays out another world; unset, the calendar is calendar.ts's", () => {
    assert.equal(loadConfig({ env: {} }).sim.calendar, undefined)
    assert.equal(loadConfig({ env: { SIM_CALENDAR: '2027-03-01' } }).sim.calendar, '2027-03-01')
    assert.throws(() => loadConfig({ env: { SIM_CALENDAR: 'next tuesday' } }), /sim\/calendar/)
    const other = generateWorld({ ...SIZE, anchorMs: Date.UTC(2027, 2, 1), calendarMs: Date.UTC(2027, 2, 1) })
    assert.notDeepEqual(names(other).vpMarkets, names(first).vpMarkets)
    assert.deepEqual(names(generateWorld({ ...SIZE, anchorMs: START, calendarMs: WORLD_CALENDAR_MS })), names(first))
  })
})

describe('venuek-only ladders: recurring series listed from the start', () => {
  const ladderSeries = new Set(LADDER_SERIES.map((s) => `KXSIM${s.code}`))
  const ladders = (w: World) => venuekOf(w).events.filter((e) => ladderSeries.has(e.series.ticker))
  const ladderNames = (w: World) =>
    new Map(
      ladders(w).map((e) => [
        e.eventTicker,
        JSON.stringify([
          e.title,
          e.subTitle,
          e.markets.map((m) => [
            m.ticker,
            m.marketId,
            m.title,
            m.floorStrike ?? null,
            m.capStrike ?? null,
            m.closeTime,
          ]),
        ]),
      ]),
    )

  test('each start lists the next observations; an observation listed by two starts is the same event', () => {
    const a = generateWorld({ ...SIZE, questions: 20, ownLadders: { venuek: 60 }, anchorMs: START + 30 * DAY })
    const b = generateWorld({
      ...SIZE,
      questions: 20,
      ownLadders: { venuek: 60 },
      anchorMs: START + 30 * DAY + 3 * HOUR,
    })
    const [x, y] = [ladderNames(a), ladderNames(b)]
    assert.equal(x.size, 60)
    let shared = 0
    for (const [ticker, event] of y) {
      if (!x.has(ticker)) continue
      shared++
      assert.equal(event, x.get(ticker), ticker)
    }
    assert.ok(shared >= 30, `${shared} observations listed by both starts`)
    for (const [w, now] of [
      [a, START + 30 * DAY],
      [b, START + 30 * DAY + 3 * HOUR],
    ] as const) {
      for (const e of ladders(w)) {
        assert.equal(e.question!.lifecycle, 'active')
        assert.ok(
          e.markets.every((m) => m.closeTime > now && m.openTime < now),
          e.eventTicker,
        )
      }
    }
  })
})
