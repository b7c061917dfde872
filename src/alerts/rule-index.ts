import type { AlertRule } from './rule-types.js'

/**
 * Active alert rules indexed by scope, so a spread change checks only the rules that can match it.
 *
 * Rules sit in one of four buckets by what their scope pins down: nothing (global), `event_slug`, `outcome_key`,
 * or both. A change of pair (event, outcome) looks at four buckets only. Inside a bucket, rules whose firing or
 * arming needs the spread to reach their threshold (spread_threshold, spread_collapse, new_pair) are sorted by
 * threshold, and a visit stops at the first threshold above the spread; spread_expansion rules track a baseline,
 * so every observation in scope reaches them.
 *
 * What the index does not cover: pairs already past a rule's threshold that must be watched on the way down
 * (a fired threshold rule re-arming, an armed collapse rule firing). The evaluator keeps those per pair.
 *
 * @example
 * const index = new RuleIndex<{ rule: AlertRule }>()
 * index.add({ rule })
 * index.forCandidates('fed-dec', 'text:yes', 0.07, (e) => check(e))
 */
export interface IndexedRule {
  readonly rule: AlertRule
}

interface Bucket<E> {
  /** Ascending threshold. */
  readonly byThreshold: E[]
  readonly always: E[]
}

export class RuleIndex<E extends IndexedRule> {
  readonly #entries = new Map<string, E>()
  readonly #global: Bucket<E> = newBucket()
  readonly #byEvent = new Map<string, Bucket<E>>()
  readonly #byOutcome = new Map<string, Bucket<E>>()
  readonly #byPair = new Map<string, Map<string, Bucket<E>>>()

  get size(): number {
    return this.#entries.size
  }

  get(ruleId: string): E | undefined {
    return this.#entries.get(ruleId)
  }

  values(): IterableIterator<E> {
    return this.#entries.values()
  }

  /** Adds a rule, replacing any entry with its id. */
  add(entry: E): void {
    this.remove(entry.rule.id)
    this.#entries.set(entry.rule.id, entry)
    const bucket = this.#bucketFor(entry.rule, true) as Bucket<E>
    if (entry.rule.triggerType === 'spread_expansion') {
      bucket.always.push(entry)
      return
    }
    const list = bucket.byThreshold
    list.splice(upperBound(list, entry.rule.threshold), 0, entry)
  }

  remove(ruleId: string): E | undefined {
    const entry = this.#entries.get(ruleId)
    if (entry === undefined) return undefined
    this.#entries.delete(ruleId)
    const bucket = this.#bucketFor(entry.rule, false)
    if (bucket !== undefined) {
      for (const list of [bucket.byThreshold, bucket.always]) {
        const i = list.indexOf(entry)
        if (i >= 0) list.splice(i, 1)
      }
      if (bucket.byThreshold.length === 0 && bucket.always.length === 0) this.#dropBucket(entry.rule)
    }
    return entry
  }

  /**
   * Visits every rule whose scope admits pair (`eventSlug`, `outcomeKey`) and that this spread can concern:
   * threshold-sorted rules with threshold ≤ `spread`, and every spread_expansion rule. Scope filters on platforms,
   * volume and confidence are the caller's (rule-scope.ts).
   */
  forCandidates(eventSlug: string, outcomeKey: string, spread: number, visit: (entry: E) => void): void {
    visitBucket(this.#global, spread, visit)
    const event = this.#byEvent.get(eventSlug)
    if (event !== undefined) visitBucket(event, spread, visit)
    const outcome = this.#byOutcome.get(outcomeKey)
    if (outcome !== undefined) visitBucket(outcome, spread, visit)
    const pair = this.#byPair.get(eventSlug)?.get(outcomeKey)
    if (pair !== undefined) visitBucket(pair, spread, visit)
  }

  #bucketFor(rule: AlertRule, create: boolean): Bucket<E> | undefined {
    const { event_slug: event, outcome_key: outcome } = rule.scope
    if (event === undefined && outcome === undefined) return this.#global
    if (outcome === undefined) return lookup(this.#byEvent, event as string, create)
    if (event === undefined) return lookup(this.#byOutcome, outcome, create)
    let outcomes = this.#byPair.get(event)
    if (outcomes === undefined) {
      if (!create) return undefined
      this.#byPair.set(event, (outcomes = new Map()))
    }
    return lookup(outcomes, outcome, create)
  }

  /** Forgets an empty bucket, so scopes of deleted rules do not accumulate. */
  #dropBucket(rule: AlertRule): void {
    const { event_slug: event, outcome_key: outcome } = rule.scope
    if (event === undefined && outcome === undefined) return
    if (outcome === undefined) this.#byEvent.delete(event as string)
    else if (event === undefined) this.#byOutcome.delete(outcome)
    else {
      const outcomes = this.#byPair.get(event)
      outcomes?.delete(outcome)
      if (outcomes?.size === 0) this.#byPair.delete(event)
    }
  }
}

function newBucket<E>(): Bucket<E> {
  return { byThreshold: [], always: [] }
}

function lookup<E>(map: Map<string, Bucket<E>>, key: string, create: boolean): Bucket<E> | undefined {
  let bucket = map.get(key)
  if (bucket === undefined && create) map.set(key, (bucket = newBucket()))
  return bucket
}

function visitBucket<E extends IndexedRule>(bucket: Bucket<E>, spread: number, visit: (entry: E) => void): void {
  for (const e of bucket.byThreshold) {
    if (e.rule.threshold > spread) break
    visit(e)
  }
  for (const e of bucket.always) visit(e)
}

/** First index whose threshold is greater than `threshold` (equal thresholds keep insertion order). */
function upperBound<E extends IndexedRule>(list: readonly E[], threshold: number): number {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((list[mid] as E).rule.threshold <= threshold) lo = mid + 1
    else hi = mid
  }
  return lo
}
