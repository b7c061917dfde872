import { isoNoZone } from '../core/time.js'
import type { SpreadRecord } from '../spreads/engine/spread-engine.js'
import { isStale, spreadJson } from '../spreads/engine/spread-json.js'
import type { AlertRule } from './rule-types.js'
import type { DeliveryPayload } from '../store/alert-deliveries-repo.js'

/**
 * The JSON body of a delivery (the webhook POST body; the e-mail renders the same facts). Fixed when the firing
 * is recorded, so every retry sends the same bytes and the signature covers exactly them.
 *
 * ```json
 * {"id":"<delivery id>","event":"alert.fired","test":false,"dedupe_key":"<rule>:<pair>:<episode>",
 *  "fired_at":"2026-11-21T12:00:05.000","rule":{"id","user_id","trigger_type","threshold","cooldown_seconds","scope"},
 *  "spread":{…the spread record exactly as GET /api/v2/spreads returns it…}}
 * ```
 *
 * spread_expansion firings add `baseline_spread` (the low the spread grew from). A test delivery has
 * `event: "alert.test"`, `test: true`, and a current spread in the rule's scope when there is one (else the
 * best-ranked spread, else null).
 */
const FIRED_EVENT = 'alert.fired'
const TEST_EVENT = 'alert.test'

/** `is_stale` in payloads uses the scanner's default cutoff. */
const STALE_CUTOFF_MS = 45 * 60_000

export interface PayloadInput {
  readonly deliveryId: string
  readonly dedupeKey: string
  readonly rule: AlertRule
  readonly record: SpreadRecord | undefined
  readonly firedAt: number
  readonly test: boolean
  readonly baselineSpread?: number | undefined
}

export function deliveryPayload(p: PayloadInput): DeliveryPayload {
  const r = p.rule
  return {
    id: p.deliveryId,
    event: p.test ? TEST_EVENT : FIRED_EVENT,
    test: p.test,
    dedupe_key: p.dedupeKey,
    fired_at: isoNoZone(p.firedAt),
    rule: {
      id: r.id,
      user_id: r.userId,
      trigger_type: r.triggerType,
      threshold: r.threshold,
      cooldown_seconds: r.cooldownSeconds,
      scope: r.scope,
    },
    ...(p.baselineSpread === undefined ? {} : { baseline_spread: p.baselineSpread }),
    spread:
      p.record === undefined
        ? null
        : (JSON.parse(spreadJson(p.record, isStale(p.record, p.firedAt, STALE_CUTOFF_MS))) as Record<string, unknown>),
  }
}

/** The spread fields a delivery log entry shows (a summary of the payload's `spread`). */
export interface SpreadSummary {
  readonly event_slug: string
  readonly outcome_key: string
  readonly outcome_title: string
  readonly platform_a: string
  readonly platform_b: string
  readonly price_a: number
  readonly price_b: number
  readonly spread: number
  readonly spread_bps: number
  readonly confidence: number
}

export function spreadSummary(payload: DeliveryPayload): SpreadSummary | null {
  const s = payload.spread
  if (typeof s !== 'object' || s === null) return null
  const x = s as Record<string, unknown>
  return {
    event_slug: String(x.event_slug),
    outcome_key: String(x.outcome_key),
    outcome_title: String(x.outcome_title),
    platform_a: String(x.platform_a),
    platform_b: String(x.platform_b),
    price_a: Number(x.price_a),
    price_b: Number(x.price_b),
    spread: Number(x.spread),
    spread_bps: Number(x.spread_bps),
    confidence: Number(x.confidence),
  }
}
