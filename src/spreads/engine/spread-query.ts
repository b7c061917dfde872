import { topK } from '../../core/top-k.js'
import { NET_EDGE_FLOOR } from './record-ranks.js'
import type { SpreadEngine, SpreadRecord } from './spread-engine.js'

/**
 * Which spread records a list shows and in what order, for /spreads and /spreads/top: a sort key
 * (`net_edge`, `spread`, `confidence`), the executable-edge filters (`executable_only`, `min_net_edge`) and the
 * route's own conditions. Every list has one order: the sort value descending, records without one (`net_edge`
 * of a record with no executable edge) after all others, ties by pair id ascending — the order the engine's
 * indexes keep, and the one pages of /spreads are cut from.
 *
 * What it costs: a sort without an edge filter walks the engine's index for that sort (bucket-index.ts) and stops
 * after `limit` records, as /spreads/top always did by confidence. With an edge filter the candidates come from
 * the net-edge index, which ends where the filter does (executable rows are few: most pairs' cheap ask is above
 * the dear bid less fees); sorted by net edge they are already in order. Another sort first walks its own index
 * a bounded number of records (enough when qualifying rows are common), then takes the best `limit` candidates
 * with a bounded heap (core/top-k.ts). No top list sorts every pair (`benchSpreadLists` in bench/spreads.bench.ts);
 * the scanner, which lists every match anyway, sorts at most the filter's candidates.
 */
export const SPREAD_SORTS = ['net_edge', 'spread', 'confidence'] as const
export type SpreadSort = (typeof SPREAD_SORTS)[number]

/** Conditions on a record's `executable` (null fails any of them). */
export interface EdgeFilter {
  /** `executable.net_edge > 0` and `executable.size > 0`: something can be traded at a profit now. */
  readonly executableOnly: boolean
  /** `executable.net_edge ≥` this. */
  readonly minNetEdge: number | undefined
}

export const NO_EDGE_FILTER: EdgeFilter = { executableOnly: false, minNetEdge: undefined }

function filtersEdge(f: EdgeFilter): boolean {
  return f.executableOnly || f.minNetEdge !== undefined
}

export function passesEdge(r: SpreadRecord, f: EdgeFilter): boolean {
  if (!filtersEdge(f)) return true
  const x = r.executable
  if (x === undefined) return false
  if (f.executableOnly && !(x.netEdge > 0 && x.size > 0)) return false
  return f.minNetEdge === undefined || x.netEdge >= f.minNetEdge
}

/** What `sort` ranks a record by; undefined ranks after every number. */
export function sortValue(r: SpreadRecord, sort: SpreadSort): number | undefined {
  switch (sort) {
    case 'net_edge':
      return r.executable?.netEdge
    case 'spread':
      return r.spread
    case 'confidence':
      return r.confidence
  }
}

/**
 * The order of every list (see above) on sort keys, a missing value as −Infinity: a total order, so a page
 * boundary never splits a tie arbitrarily.
 */
function compareKeys(va: number, ida: number, vb: number, idb: number): number {
  return va === vb ? ida - idb : vb > va ? 1 : -1
}

const keyOf = (r: SpreadRecord, sort: SpreadSort): number => sortValue(r, sort) ?? Number.NEGATIVE_INFINITY

/** The order of every list, on records. */
export function compareBy(sort: SpreadSort): (a: SpreadRecord, b: SpreadRecord) => number {
  return (a, b) => compareKeys(keyOf(a, sort), a.pairId, keyOf(b, sort), b.pairId)
}

/** A record with its sort key read once (a record's getters cost more than the comparison: ~15× on a sort). */
class Keyed {
  constructor(
    readonly record: SpreadRecord,
    readonly value: number,
    readonly id: number,
  ) {}
}

const compareKeyed = (a: Keyed, b: Keyed) => compareKeys(a.value, a.id, b.value, b.id)

/** The first `limit` of `records` in the order of `sort` (all of them with Infinity), by a bounded selection. */
export function inOrder(
  records: readonly SpreadRecord[],
  sort: SpreadSort,
  limit = Number.POSITIVE_INFINITY,
): SpreadRecord[] {
  const keyed = records.map((r) => new Keyed(r, keyOf(r, sort), r.pairId))
  return topK(keyed, limit, compareKeyed).map((k) => k.record)
}

/** What the selection reads of the engine (its three indexes and the records without an edge). */
export type SpreadIndexes = Pick<SpreadEngine, 'byConfidence' | 'bySpread' | 'byNetEdge' | 'withoutEdge'>

export interface SpreadSelection {
  readonly sort: SpreadSort
  readonly edge: EdgeFilter
  /** The route's other conditions (spread, volume, platforms, window). */
  readonly keep: (r: SpreadRecord) => boolean
  /** Records below this spread never pass `keep`: the spread walk stops there. */
  readonly minSpread: number
  /** The most records wanted (Infinity: all). */
  readonly limit: number
}

/**
 * Records a list with an edge filter and another sort reads down its own index before it gives up on it: where
 * qualifying rows are common the list fills within them (a 20-row list: 256 records).
 */
const INDEX_WALK_BUDGET = 256

/** The records of `s`, in its order, at most `s.limit`. */
export function selectSpreads(engine: SpreadIndexes, s: SpreadSelection): SpreadRecord[] {
  const out: SpreadRecord[] = []
  if (s.limit <= 0) return out
  const take = (r: SpreadRecord): boolean => {
    if (s.keep(r) && passesEdge(r, s.edge)) out.push(r)
    return out.length < s.limit
  }
  if (!filtersEdge(s.edge)) {
    walk(engine, s.sort, s.minSpread, take)
    return out
  }
  // Only records with an edge can pass: the net-edge index, down to the filter's floor, holds every candidate.
  const floor = Math.max(s.edge.minNetEdge ?? NET_EDGE_FLOOR, s.edge.executableOnly ? 0 : NET_EDGE_FLOOR)
  if (s.sort === 'net_edge') {
    engine.byNetEdge(floor, take)
    return out
  }
  if (Number.isFinite(s.limit)) {
    // Another order: first a bounded walk of the sort's own index, which fills a short list when qualifying
    // rows are common...
    let visited = 0
    const budget = Math.max(INDEX_WALK_BUDGET, 8 * s.limit)
    walk(engine, s.sort, s.minSpread, (r) => take(r) && ++visited < budget)
    if (out.length >= s.limit) return out
    out.length = 0
  }
  // ...else (the usual case: few rows can be traded) every candidate, and the best `limit` of them.
  engine.byNetEdge(floor, (r) => {
    if (s.keep(r) && passesEdge(r, s.edge)) out.push(r)
  })
  return inOrder(out, s.sort, s.limit)
}

/** The engine's index for `sort`, in its order, while `visit` returns true. */
function walk(engine: SpreadIndexes, sort: SpreadSort, minSpread: number, visit: (r: SpreadRecord) => boolean): void {
  switch (sort) {
    case 'confidence':
      return engine.byConfidence(visit)
    case 'spread':
      return engine.bySpread(minSpread, visit)
    case 'net_edge': {
      // Records with an edge, then those without one (by id).
      let more = true
      engine.byNetEdge(NET_EDGE_FLOOR, (r) => (more = visit(r)))
      if (more) engine.withoutEdge(visit)
    }
  }
}
