import type { TriggerType } from './rule-types.js'

/**
 * The per (rule, pair) state machine of each trigger type, as pure functions so it can be tested without a
 * store or an engine. `decide` looks at one spread observation and says what should happen; the evaluator applies
 * it (and holds a `fire` back while the rule cools down: the pair stays armed, so it fires at the first change
 * after the cooldown if the condition still holds).
 *
 * T is the rule's threshold, h its hysteresis band (`hysteresisFor`), s the observed spread:
 *
 * - spread_threshold: armed → fires when s ≥ T (and disarms); disarmed → re-arms when s < T − h. A gap flickering
 *   around T therefore fires once, not on every crossing.
 * - spread_collapse: disarmed → arms when s ≥ T; armed → fires when s < T − h (and disarms).
 * - spread_expansion: keeps a baseline, the lowest s since the last firing (or since evaluation started); fires
 *   when s − baseline ≥ T, and the spread that fired becomes the new baseline.
 * - new_pair: armed → fires once when the pair is new (`PairContext.isNew`) and s ≥ T; never re-arms.
 */
export interface PairState {
  armed: boolean
  /** spread_expansion only. */
  baseline: number | undefined
}

export type Decision = 'none' | 'fire' | 'arm'

export interface PairContext {
  /** new_pair: whether this pair counts as new for the rule (first seen after the rule was created, recently). */
  readonly isNew: boolean
}

/** A trigger's state for a pair it has no stored state for. */
export function initialState(trigger: TriggerType): PairState {
  return { armed: initiallyArmed(trigger), baseline: undefined }
}

/** Armed until it fires (spread_threshold, new_pair, spread_expansion), or armed only once above (spread_collapse). */
export function initiallyArmed(trigger: TriggerType): boolean {
  return trigger !== 'spread_collapse'
}

/** Whether a state differs from the initial one in a way that needs checking when the spread falls. */
export function watchesFall(trigger: TriggerType, state: PairState): boolean {
  if (trigger === 'spread_threshold') return !state.armed
  if (trigger === 'spread_collapse') return state.armed
  return false
}

/**
 * The hysteresis band of a rule: the configured band, but never more than half the threshold (a 0.01 threshold
 * with a 0.005 band re-arms below 0.005, not below zero).
 */
export function hysteresisFor(threshold: number, configured: number): number {
  return Math.min(configured, threshold / 2)
}

/**
 * What one observation `spread` means for the pair. Mutates nothing but the expansion baseline's trough tracking
 * (which is not a transition: it needs no write).
 */
export function decide(
  trigger: TriggerType,
  threshold: number,
  hysteresis: number,
  state: PairState,
  spread: number,
  ctx: PairContext,
): Decision {
  switch (trigger) {
    case 'spread_threshold':
      if (state.armed) return spread >= threshold ? 'fire' : 'none'
      return spread < threshold - hysteresis ? 'arm' : 'none'
    case 'spread_collapse':
      if (!state.armed) return spread >= threshold ? 'arm' : 'none'
      return spread < threshold - hysteresis ? 'fire' : 'none'
    case 'spread_expansion':
      if (state.baseline === undefined || spread < state.baseline) state.baseline = spread
      return spread - state.baseline >= threshold - 1e-9 ? 'fire' : 'none'
    case 'new_pair':
      return state.armed && ctx.isNew && spread >= threshold ? 'fire' : 'none'
  }
}

/** The state after a firing has been recorded. */
export function afterFiring(trigger: TriggerType, state: PairState, spread: number): void {
  if (trigger === 'spread_expansion') state.baseline = spread
  else state.armed = false
}

/** Whether a firing of this trigger disarms the pair (the stored `armed` flag after it). */
export function firingDisarms(trigger: TriggerType): boolean {
  return trigger !== 'spread_expansion'
}
