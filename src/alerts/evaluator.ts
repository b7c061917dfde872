import { randomUUID } from 'node:crypto'
import type { Clock } from '../core/clock.js'
import type { Logger } from '../core/logger.js'
import type { SpreadChange, SpreadRecord } from '../spreads/engine/spread-engine.js'
import { snapshotRecord } from '../spreads/engine/spread-record.js'
import type { AlertRule, TriggerType } from './rule-types.js'
import { firingDedupeKey, type FiringOutcome, type RuleEvaluationState } from '../store/alert-state-repo.js'
import { deliveryPayload } from './delivery-payload.js'
import type { OutboxWriter } from './outbox-writer.js'
import { RuleIndex } from './rule-index.js'
import { inScope, passesFilters } from './rule-scope.js'
import {
  afterFiring,
  decide,
  firingDisarms,
  hysteresisFor,
  initiallyArmed,
  initialState,
  watchesFall,
  type PairContext,
  type PairState,
} from './trigger-machine.js'

/**
 * Alert evaluation, in process. Subscribed to the spread engine, it sees every spread change; per change it does
 * only in-memory work proportional to the rules that can match (rule-index.ts, plus the rules watching this pair
 * on the way down) and hands decisions to the OutboxWriter, which writes them to the store off the hot path.
 *
 * Semantics (trigger-machine.ts has the state machines):
 * - Only live records are observations: a record whose feed is stale, or a pair without a price on both venues,
 *   changes nothing (a reconnecting venue does not re-fire every rule). Nor does a record outside the rule's scope.
 * - Cooldown is per rule: after a rule fires, none of its pairs fires again for `cooldown_seconds`. A crossing
 *   inside the cooldown is held back, not dropped: the pair stays armed and fires at its first change after the
 *   cooldown if the condition still holds.
 * - The store decides: a firing is a compare-and-set there (AlertStateRepository.fire). The in-memory state is
 *   updated when the decision is queued and put back if the store refuses it (another replica fired first: kept
 *   disarmed; cooling down or a failed write: re-armed).
 * - A rule is evaluated against the engine's current records when it is installed, so a rule created while its
 *   gap is already open fires at once rather than at the pair's next quote.
 */
export interface SpreadSource {
  subscribe(listener: (changes: readonly SpreadChange[]) => void): () => void
  eventRecords(eventSlug: string): SpreadRecord[]
  byConfidence(visit: (r: SpreadRecord) => boolean): void
}

export interface EvaluatorOptions {
  readonly source: SpreadSource
  readonly writer: OutboxWriter
  readonly clock: Clock
  readonly log: Logger
  /** Hysteresis band in probability points (capped per rule at half its threshold). */
  readonly hysteresis: number
  /** new_pair: how long after its first sighting a pair counts as new. */
  readonly newPairWindowMs: number
  /** new_pair: pairs first seen this soon after the deployment's first sighting are the initial catalog. */
  readonly newPairSettleMs: number
}

interface RuleRuntime {
  readonly rule: AlertRule
  readonly hysteresis: number
  readonly cooldownMs: number
  /** Pairs whose state differs from the trigger's initial state (and every tracked expansion baseline). */
  readonly pairs: Map<string, PairState>
  lastFiredAt: number | undefined
  /** The observation this rule last checked (a rule can be reached twice for one change). */
  stamp: number
}

export interface EvaluatorCounters {
  /** Live spread records observed. */
  observations: number
  /** Rule checks (scope filter + state machine) done for them. */
  checks: number
  /** Firings queued, and those held back by the rule's cooldown. */
  firings: number
  deferredByCooldown: number
  /** Decisions the writer refused (full queue) and put back. */
  refused: number
}

/** Read-only initial states (decide() mutates a state only for spread_expansion, which never uses these). */
const INITIAL: Readonly<Record<TriggerType, PairState>> = {
  spread_threshold: Object.freeze(initialState('spread_threshold')),
  spread_expansion: Object.freeze(initialState('spread_expansion')),
  spread_collapse: Object.freeze(initialState('spread_collapse')),
  new_pair: Object.freeze(initialState('new_pair')),
}
const NOT_NEW: PairContext = { isNew: false }
const IS_NEW: PairContext = { isNew: true }

export class AlertEvaluator {
  readonly #o: EvaluatorOptions
  readonly #index = new RuleIndex<RuleRuntime>()
  /** Pair key → rules that must see this pair's spread fall (fired threshold rules, armed collapse rules). */
  readonly #watching = new Map<string, Set<RuleRuntime>>()
  /** Pair key → when the deployment first saw it priced on both venues. */
  #seen = new Map<string, number>()
  #firstSighting: number | undefined
  #stamp = 0
  #unsubscribe: (() => void) | undefined
  readonly counters: EvaluatorCounters = { observations: 0, checks: 0, firings: 0, deferredByCooldown: 0, refused: 0 }

  constructor(options: EvaluatorOptions) {
    this.#o = options
  }

  get ruleCount(): number {
    return this.#index.size
  }

  hasRule(ruleId: string): boolean {
    return this.#index.get(ruleId) !== undefined
  }

  /** Starts listening to the engine, knowing which pairs the deployment has seen before (new_pair). */
  start(seen: ReadonlyMap<string, number>): void {
    this.#seen = new Map(seen)
    for (const at of seen.values())
      if (this.#firstSighting === undefined || at < this.#firstSighting) this.#firstSighting = at
    this.#unsubscribe ??= this.#o.source.subscribe((changes) => this.#onChanges(changes))
  }

  stop(): void {
    this.#unsubscribe?.()
    this.#unsubscribe = undefined
  }

  /** Adds (or replaces) an active rule with its stored state, then checks it against the current records. */
  install(rule: AlertRule, stored: RuleEvaluationState): void {
    this.remove(rule.id)
    const rt: RuleRuntime = {
      rule,
      hysteresis: hysteresisFor(rule.threshold, this.#o.hysteresis),
      cooldownMs: rule.cooldownSeconds * 1_000,
      pairs: new Map(),
      lastFiredAt: stored.lastFiredAt,
      stamp: 0,
    }
    for (const p of stored.pairs) {
      rt.pairs.set(p.pairKey, { armed: p.armed, baseline: p.baseline ?? undefined })
      this.#updateWatch(rt, p.pairKey)
    }
    this.#index.add(rt)
    if (this.#unsubscribe === undefined) return
    const now = this.#o.clock.now()
    for (const r of this.#currentRecords(rule)) if (!r.feedStale) this.#check(rt, r, now, ++this.#stamp)
  }

  /** Stops evaluating a rule (paused or deleted) at once. */
  remove(ruleId: string): void {
    const rt = this.#index.remove(ruleId)
    if (rt === undefined) return
    for (const pairKey of rt.pairs.keys()) this.#watching.get(pairKey)?.delete(rt)
  }

  /** The current record a test delivery shows: the best-ranked one in the rule's scope, else the best-ranked. */
  sampleRecord(rule: AlertRule): SpreadRecord | undefined {
    let best: SpreadRecord | undefined
    if (rule.scope.event_slug !== undefined) {
      for (const r of this.#o.source.eventRecords(rule.scope.event_slug))
        if (inScope(rule.scope, r) && (best === undefined || r.confidence > best.confidence)) best = r
      if (best !== undefined) return best
    }
    let first: SpreadRecord | undefined
    this.#o.source.byConfidence((r) => {
      first ??= r
      if (!inScope(rule.scope, r)) return true
      best = r
      return false
    })
    return best ?? first
  }

  #onChanges(changes: readonly SpreadChange[]): void {
    const now = this.#o.clock.now()
    for (const c of changes) {
      const r = c.record
      if (r === undefined || r.feedStale) continue
      this.counters.observations++
      if (!this.#seen.has(r.key)) this.#noteFirstSighting(r.key, now)
      const stamp = ++this.#stamp
      const watchers = this.#watching.get(r.key)
      // A copy: a check can move the rule out of (or into) the set.
      if (watchers !== undefined && watchers.size > 0) for (const rt of [...watchers]) this.#check(rt, r, now, stamp)
      this.#index.forCandidates(r.eventSlug, r.outcomeKey, r.spread, (rt) => this.#check(rt, r, now, stamp))
    }
  }

  #check(rt: RuleRuntime, r: SpreadRecord, now: number, stamp: number): void {
    if (rt.stamp === stamp) return
    rt.stamp = stamp
    this.counters.checks++
    if (!passesFilters(rt.rule.scope, r)) return
    const { triggerType: trigger, threshold } = rt.rule
    let state = rt.pairs.get(r.key)
    // Expansion baselines are tracked for every pair in scope; other states are stored only once they change, and
    // a pair in its initial state is read from a shared constant (no allocation per check).
    if (state === undefined && trigger === 'spread_expansion') rt.pairs.set(r.key, (state = initialState(trigger)))
    const ctx = trigger === 'new_pair' && this.#isNew(r.key, rt.rule, now) ? IS_NEW : NOT_NEW
    const decision = decide(trigger, threshold, rt.hysteresis, state ?? INITIAL[trigger], r.spread, ctx)
    if (decision === 'none') return
    state ??= initialState(trigger)
    if (decision === 'arm') this.#arm(rt, r.key, state)
    else this.#fire(rt, r, state, now)
  }

  #arm(rt: RuleRuntime, pairKey: string, state: PairState): void {
    state.armed = true
    this.#store(rt, pairKey, state)
    const queued = this.#o.writer.enqueue({
      kind: 'arm',
      change: { ruleId: rt.rule.id, pairKey, armed: true },
      failed: () => {
        state.armed = false
        this.#store(rt, pairKey, state)
      },
    })
    if (!queued) {
      this.counters.refused++
      state.armed = false
      this.#store(rt, pairKey, state)
    }
  }

  #fire(rt: RuleRuntime, r: SpreadRecord, state: PairState, now: number): void {
    if (rt.lastFiredAt !== undefined && now - rt.lastFiredAt < rt.cooldownMs) {
      this.counters.deferredByCooldown++
      return
    }
    const rule = rt.rule
    const trigger = rule.triggerType
    const before: PairState = { ...state }
    const lastFiredBefore = rt.lastFiredAt
    const baselineSpread = trigger === 'spread_expansion' ? state.baseline : undefined
    afterFiring(trigger, state, r.spread)
    this.#store(rt, r.key, state)
    // Optimistic: the rule's other pairs are cooling down from now, while the store confirms.
    rt.lastFiredAt = now
    const revert = () => {
      state.armed = before.armed
      state.baseline = before.baseline
      this.#store(rt, r.key, state)
    }
    const deliveryId = randomUUID()
    // The payload is built when the outbox writer records the firing, later: it shows the record as it fired.
    const shown = snapshotRecord(r)
    const queued = this.#o.writer.enqueue({
      kind: 'fire',
      accountId: rule.accountId,
      request: {
        ruleId: rule.id,
        pairKey: r.key,
        firedAt: now,
        cooldownMs: rt.cooldownMs,
        disarm: firingDisarms(trigger),
        baseline: trigger === 'spread_expansion' ? r.spread : null,
        delivery: (episode) => {
          const dedupeKey = firingDedupeKey(rule.id, r.key, episode)
          const payload = deliveryPayload({
            deliveryId,
            dedupeKey,
            rule,
            record: shown,
            firedAt: now,
            test: false,
            baselineSpread,
          })
          return {
            id: deliveryId,
            ruleId: rule.id,
            pairKey: r.key,
            dedupeKey,
            test: false,
            channel: rule.channel,
            target: rule.target,
            payload,
            createdAt: now,
          }
        },
      },
      done: (outcome) => this.#settled(rt, outcome, revert, lastFiredBefore),
    })
    if (queued) {
      this.counters.firings++
      return
    }
    this.counters.refused++
    revert()
    rt.lastFiredAt = lastFiredBefore
  }

  #settled(
    rt: RuleRuntime,
    outcome: FiringOutcome | Error,
    revert: () => void,
    lastFiredBefore: number | undefined,
  ): void {
    if (outcome instanceof Error) {
      revert()
      rt.lastFiredAt = lastFiredBefore
      return
    }
    switch (outcome.kind) {
      case 'fired':
      case 'inactive':
        return
      case 'cooldown':
        revert()
        rt.lastFiredAt = outcome.lastFiredAt
        return
      case 'already_fired':
      case 'duplicate':
        // Another replica recorded this crossing: the pair is disarmed there too; the rule cools down from then.
        return
    }
  }

  /** Keeps `rt.pairs` and the per-pair watch sets in step with a state. */
  #store(rt: RuleRuntime, pairKey: string, state: PairState): void {
    const trigger = rt.rule.triggerType
    if (trigger !== 'spread_expansion' && state.armed === initiallyArmed(trigger)) rt.pairs.delete(pairKey)
    else rt.pairs.set(pairKey, state)
    this.#updateWatch(rt, pairKey)
  }

  #updateWatch(rt: RuleRuntime, pairKey: string): void {
    const state = rt.pairs.get(pairKey)
    const watch = state !== undefined && watchesFall(rt.rule.triggerType, state)
    let set = this.#watching.get(pairKey)
    if (watch) {
      if (set === undefined) this.#watching.set(pairKey, (set = new Set()))
      set.add(rt)
    } else if (set !== undefined) {
      set.delete(rt)
      if (set.size === 0) this.#watching.delete(pairKey)
    }
  }

  #noteFirstSighting(pairKey: string, now: number): void {
    this.#seen.set(pairKey, now)
    this.#firstSighting ??= now
    // Best effort: a refused sighting is recorded at the next boot's first sighting instead.
    this.#o.writer.enqueue({ kind: 'seen', pairKey, at: now })
  }

  /** new_pair: first seen after the rule was created, not part of the initial catalog, and recently. */
  #isNew(pairKey: string, rule: AlertRule, now: number): boolean {
    const first = this.#seen.get(pairKey)
    if (first === undefined || first < rule.createdAt) return false
    if (this.#firstSighting !== undefined && first < this.#firstSighting + this.#o.newPairSettleMs) return false
    return now - first <= this.#o.newPairWindowMs
  }

  #currentRecords(rule: AlertRule): SpreadRecord[] {
    const { event_slug: event, outcome_key: outcome } = rule.scope
    const out: SpreadRecord[] = []
    if (event !== undefined) {
      for (const r of this.#o.source.eventRecords(event))
        if (outcome === undefined || r.outcomeKey === outcome) out.push(r)
    } else {
      this.#o.source.byConfidence((r) => {
        if (outcome === undefined || r.outcomeKey === outcome) out.push(r)
        return true
      })
    }
    return out
  }
}
