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
  return m.umaResolutionStatus === 'resolved' ? 'resolved' : 'closed'
}
