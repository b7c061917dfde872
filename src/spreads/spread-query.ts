import { topK } from '../core/top-k.js'
import { NET_EDGE_FLOOR, type SpreadEngine, type SpreadRecord } from './spread-engine.js'

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
 * the dear bid less fees); sorted by net edge they are already in order, otherwise the best `limit` of them are
 * selected with a bounded heap (core/top-k.ts). No request sorts every pair.
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

/** The order of every list (see above): a total order, so a page boundary never splits a tie arbitrarily. */
export function compareBy(sort: SpreadSort): (a: SpreadRecord, b: SpreadRecord) => number {
  return (a, b) => {
    const va = sortValue(a, sort)
    const vb = sortValue(b, sort)
    if (va !== vb) {
      if (va === undefined) return 1
      if (vb === undefined) return -1
      return vb - va
    }
    return a.pairId - b.pairId
  }
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

/** The records of `s`, in its order, at most `s.limit`. */
export function selectSpreads(engine: SpreadIndexes, s: SpreadSelection): SpreadRecord[] {
  const out: SpreadRecord[] = []
  if (s.limit <= 0) return out
  const take = (r: SpreadRecord): boolean => {
    if (s.keep(r) && passesEdge(r, s.edge)) out.push(r)
    return out.length < s.limit
  }
  if (filtersEdge(s.edge)) {
    // Only records with an edge can pass: walk the net-edge index down to the filter's floor.
    const floor = Math.max(s.edge.minNetEdge ?? NET_EDGE_FLOOR, s.edge.executableOnly ? 0 : NET_EDGE_FLOOR)
    if (s.sort === 'net_edge') {
      engine.byNetEdge(floor, take)
      return out
    }
    // Another order: every candidate, then the best `limit` of them.
    engine.byNetEdge(floor, (r) => {
      if (s.keep(r) && passesEdge(r, s.edge)) out.push(r)
    })
    return topK(out, s.limit, compareBy(s.sort))
  }
  switch (s.sort) {
    case 'confidence':
      engine.byConfidence(take)
      break
    case 'spread':
      engine.bySpread(s.minSpread, take)
      break
    case 'net_edge': {
      let more = true
      engine.byNetEdge(NET_EDGE_FLOOR, (r) => (more = take(r)))
      if (more) engine.withoutEdge(take)
      break
    }
  }
  return out
}
