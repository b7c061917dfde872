import type { LabelledPair } from '../../src/spreads/matching/evaluation.js'

/** A pair of test/fixtures/real-venues/labels-dev.json as the file writes it (its FORMAT.md): each venue's side. */
export interface RealLabel extends LabelledPair {
  readonly venuep: {
    readonly event_slug: string
    readonly market_slug: string
    readonly outcome_title: string
    readonly question: string
  }
  readonly venuek: {
    readonly event_ticker: string
    readonly market_ticker: string
    readonly title: string
    readonly yes_sub_title: string
  }
}
