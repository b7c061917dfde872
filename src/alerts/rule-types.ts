/**
 * What an alert rule is: its trigger types, channels, states, scope and owner. The store persists rules of this
 * shape (src/store/alert-rules-repo.ts) and the evaluator, senders and HTTP schemas read them; the types live
 * with the alerts so that the store depends on them, not the other way round.
 */
export const TRIGGER_TYPES = ['spread_threshold', 'spread_expansion', 'spread_collapse', 'new_pair'] as const
export const CHANNELS = ['email', 'webhook'] as const
/** States a client can set; `deleted` exists only as a tombstone in the change feed. */
export const RULE_STATES = ['active', 'paused'] as const

export type TriggerType = (typeof TRIGGER_TYPES)[number]
export type Channel = (typeof CHANNELS)[number]
export type RuleState = (typeof RULE_STATES)[number]
export type RuleStatus = RuleState | 'deleted'

/** Which spreads a rule watches; absent keys do not restrict. */
export interface AlertScope {
  readonly event_slug?: string
  readonly outcome_key?: string
  /** Venue ids (the registered venues': the HTTP schema checks them). */
  readonly platforms?: readonly string[]
  readonly min_volume?: number
  readonly min_confidence?: number
}

export interface RuleOwner {
  readonly accountId: string | null
  readonly userId: string
}

export interface NewAlertRule {
  readonly triggerType: TriggerType
  readonly threshold: number
  readonly channel: Channel
  readonly target: string
  readonly scope: AlertScope
  readonly cooldownSeconds: number
}

export interface AlertRule extends NewAlertRule {
  readonly id: string
  readonly accountId: string | null
  readonly userId: string
  readonly status: RuleStatus
  readonly version: number
  readonly createdAt: number
  readonly updatedAt: number
}
