import type { DeliveryPayload } from '../store/alert-deliveries-repo.js'

/**
 * The e-mail of a delivery: a subject that says what happened in one line and a plain-text body with the spread's
 * facts and links (no HTML: alerts are read on phones and by filters). Built from the stored payload, so the
 * e-mail and the webhook of a firing say the same thing.
 *
 * Subjects, by trigger (points are probability points, spread × 100):
 *   spread_threshold  "Spread alert: <outcome> (<event>) at 6.5 pts, threshold 5.0"
 *   spread_collapse   "Spread alert: <outcome> (<event>) collapsed to 1.2 pts, below 5.0"
 *   spread_expansion  "Spread alert: <outcome> (<event>) widened to 9.0 pts, up 5.0 from 4.0"
 *   new_pair          "Spread alert: new pair <outcome> (<event>) at 6.5 pts"
 * A test delivery's subject starts with "[test] ".
 */
export interface EmailMessage {
  readonly subject: string
  readonly text: string
}

export function emailMessage(p: DeliveryPayload): EmailMessage {
  const rule = (p.rule ?? {}) as Record<string, unknown>
  const spread = (p.spread ?? null) as Record<string, unknown> | null
  const trigger = String(rule.trigger_type)
  const threshold = Number(rule.threshold)
  const prefix = p.test === true ? '[test] ' : ''
  const lines = [
    p.test === true
      ? `This is a test delivery of alert rule ${String(rule.id)}: nothing fired.`
      : `Alert rule ${String(rule.id)} (${trigger}, threshold ${threshold}) fired at ${String(p.fired_at)} UTC.`,
    '',
  ]
  if (spread === null) {
    lines.push('No spread is available yet.')
    return { subject: `${prefix}Spread alert: rule ${String(rule.id)}`, text: finish(lines, p) }
  }
  const s = Number(spread.spread)
  const what = `${String(spread.outcome_title)} (${String(spread.event_title)})`
  const subject = `${prefix}Spread alert: ${headline(trigger, what, s, threshold, p.baseline_spread)}`
  lines.push(
    `Event:      ${String(spread.event_title)} (${String(spread.event_slug)})`,
    `Outcome:    ${String(spread.outcome_title)} (${String(spread.outcome_key)})`,
    `Spread:     ${s} (${Number(spread.spread_bps)} bps): ${String(spread.platform_a)} ${Number(spread.price_a)}, ${String(spread.platform_b)} ${Number(spread.price_b)}`,
    `Confidence: ${Number(spread.confidence)}`,
    `Updated:    ${String(spread.updated_at)} UTC`,
    `Links:      ${String(spread.platform_a_url)}`,
    `            ${String(spread.platform_b_url)}`,
  )
  return { subject, text: finish(lines, p) }
}

function headline(trigger: string, what: string, spread: number, threshold: number, baseline: unknown): string {
  switch (trigger) {
    case 'spread_collapse':
      return `${what} collapsed to ${pts(spread)} pts, below ${pts(threshold)}`
    case 'spread_expansion': {
      const from = typeof baseline === 'number' ? baseline : spread - threshold
      return `${what} widened to ${pts(spread)} pts, up ${pts(spread - from)} from ${pts(from)}`
    }
    case 'new_pair':
      return `new pair ${what} at ${pts(spread)} pts`
    default:
      return `${what} at ${pts(spread)} pts, threshold ${pts(threshold)}`
  }
}

function pts(x: number): string {
  return (x * 100).toFixed(1)
}

function finish(lines: string[], p: DeliveryPayload): string {
  lines.push('', `Delivery id: ${String(p.id)}`, `Dedupe key:  ${String(p.dedupe_key)}`)
  return `${lines.join('\n')}\n`
}
