import type { SpreadChange, SpreadPairSpec, SpreadRecord } from '../../src/spreads/engine/spread-engine.js'
import type { SpreadSource } from '../../src/alerts/evaluator.js'
import { pairIdOf } from '../../src/spreads/engine/pair-id.js'

/**
 * Spread records and a spread source the tests control: `set` publishes a change exactly as the engine's
 * subscribers see it, without venues, books or quotes.
 */
let nextPairId = 1

export function spreadRecord(
  eventSlug: string,
  outcomeKey: string,
  spread: number,
  patch: Partial<SpreadRecord> = {},
): SpreadRecord {
  const priceA = 0.4
  return {
    pairId: nextPairId++,
    id: pairIdOf(`${eventSlug}|${outcomeKey}`),
    version: 1,
    key: `${eventSlug}|${outcomeKey}`,
    eventSlug,
    eventTitle: `Event ${eventSlug}`,
    category: 'politics',
    outcomeTitle: `Outcome ${outcomeKey}`,
    outcomeKey,
    platformA: 'venuep',
    platformB: 'venuek',
    priceA,
    priceB: Math.round((priceA + spread) * 1e6) / 1e6,
    spread,
    spreadBps: Math.round(spread * 10_000 * 1e4) / 1e4,
    confidence: 0.8,
    match: {
      quality: 'auto_high',
      weight: 0.9,
      manual: false,
      a: { venue: 'venuep', outcomeId: 'p', text: [] },
      b: { venue: 'venuek', outcomeId: 'k', text: [] },
      evidence: undefined,
    },
    updatedAt: Date.UTC(2026, 10, 21, 12),
    olderQuoteAt: Date.UTC(2026, 10, 21, 12),
    feedStale: false,
    platformAUrl: `https://venuep.example/${eventSlug}`,
    platformBUrl: `https://venuek.example/${eventSlug}`,
    strategy: 'auto_canonical',
    quality: 'auto_high',
    minVolume: 50_000,
    executable: undefined,
    ...patch,
  }
}

export class FakeSpreadSource implements SpreadSource {
  readonly #listeners = new Set<(changes: readonly SpreadChange[]) => void>()
  readonly records = new Map<string, SpreadRecord>()

  subscribe(listener: (changes: readonly SpreadChange[]) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  eventRecords(eventSlug: string): SpreadRecord[] {
    return [...this.records.values()].filter((r) => r.eventSlug === eventSlug)
  }

  byConfidence(visit: (r: SpreadRecord) => boolean): void {
    for (const r of [...this.records.values()].sort((a, b) => b.confidence - a.confidence)) if (!visit(r)) return
  }

  /** Publishes the pair's new spread (or its removal with `undefined`). */
  set(
    eventSlug: string,
    outcomeKey: string,
    spread: number | undefined,
    patch: Partial<SpreadRecord> = {},
  ): SpreadRecord | undefined {
    const key = `${eventSlug}|${outcomeKey}`
    const record = spread === undefined ? undefined : spreadRecord(eventSlug, outcomeKey, spread, patch)
    if (record === undefined) this.records.delete(key)
    else this.records.set(key, record)
    const spec = { key, eventSlug, outcomeKey } as unknown as SpreadPairSpec
    for (const l of this.#listeners) l([{ spec, record }])
    return record
  }
}
