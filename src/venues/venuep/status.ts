import type { ServiceStatus } from '../../model/types.js'
import type { GammaMarket } from './wire.js'

/**
 * venuep has no single status field: a market is open while `closed` is false, and resolved once UMA's
 * resolution is final (`umaResolutionStatus: "resolved"`, outcomePrices at 1/0). The raw status we report is
 * the most specific venue word available: the UMA status when there is one, else closed/active/inactive.
 */
export function rawStatusOf(m: GammaMarket): string {
  if (m.closed === true) return m.umaResolutionStatus ?? 'closed'
  return m.active === false ? 'inactive' : 'active'
}

export function serviceStatusOf(m: GammaMarket): ServiceStatus {
  if (m.closed !== true) return 'active'
  if (m.umaResolutionStatus === 'resolved') return 'resolved'
  // Listings that omit the UMA status (real captures do) still show a settled market: Gamma sets its prices to
  // exactly 1 and 0 on resolution, which a trading market's midpoints never are.
  return m.umaResolutionStatus === undefined && settledPrices(m.outcomePrices) ? 'resolved' : 'closed'
}

function settledPrices(value: unknown): boolean {
  let v = value
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v)
    } catch {
      return false
    }
  }
  if (!Array.isArray(v) || v.length !== 2) return false
  const [a, b] = v.map(Number)
  return (a === 1 && b === 0) || (a === 0 && b === 1)
}
