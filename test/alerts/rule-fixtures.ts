import { randomUUID } from 'node:crypto'
import type { AlertRule, AlertScope, TriggerType } from '../../src/alerts/rule-types.js'

/** An in-memory AlertRule for unit tests (stored rules come from AlertRuleRepository). */
export function alertRule(
  trigger: TriggerType,
  threshold: number,
  scope: AlertScope = {},
  patch: Partial<AlertRule> = {},
): AlertRule {
  return {
    id: randomUUID(),
    accountId: null,
    userId: 'user-1',
    triggerType: trigger,
    threshold,
    channel: 'webhook',
    target: 'https://hooks.example.com/x',
    scope,
    cooldownSeconds: 60,
    status: 'active',
    version: 1,
    createdAt: 0,
    updatedAt: 0,
    ...patch,
  }
}
