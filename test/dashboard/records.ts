import type { SpreadRow } from '../../src/dashboard/web/spread-row.js'

/** A spread record as the stream sends it (src/http/routes/spreads.ts's schema), with `changes` applied. */
export function spreadRow(changes: Partial<SpreadRow> = {}): SpreadRow {
  return {
    id: '0123456789abcdef',
    event_slug: 'fed-april',
    event_title: 'Fed decision in April?',
    outcome_title: 'Cut 25 bps',
    outcome_key: 'text:cut 25 bps',
    platform_a: 'venuek',
    platform_b: 'venuep',
    price_a: 0.42,
    price_b: 0.455,
    spread: 0.035,
    spread_bps: 350,
    confidence: 0.873,
    is_stale: false,
    updated_at: '2026-11-21T12:00:00.000',
    match_quality: 'auto_high',
    match: {
      quality: 'auto_high',
      weight: 0.97,
      manual: false,
      venuep_outcome_id: '7116902775',
      venuek_outcome_id: 'KXFED-27APR-C25',
      evidence: {
        kind: 'winner',
        compared: ['subject: cut fed', 'outcome: Cut 25 bps = 25 bps cut', 'period: month 2027-04'],
        shared_words: ['fed', 'cut'],
        implicit_words: ['us'],
        period: 'April 2027',
        strike: null,
      },
      venuep_text: ['Cut 25 bps', 'Fed decision in April?'],
      venuek_text: ['25 bps cut'],
    },
    executable: {
      buy_platform: 'venuek',
      buy_price: 0.43,
      sell_platform: 'venuep',
      sell_price: 0.45,
      edge: 0.02,
      net_edge: 0.012,
      size: 1234,
      cost_dollars: 530.62,
      profit_dollars: 14.81,
    },
    ...changes,
  }
}
