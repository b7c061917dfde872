import type { ServiceStatus } from '../../model/types.js'

/**
 * venuek market statuses (venuek.md §3.3) → service status. Trading and paused markets are active; a market
 * past its close time without a result, or under dispute, is closed; once a result is determined (amended or
 * finalized included) it is resolved. Unknown words count as closed: never advertise an unknown market as
 * tradable.
 */
const MAP: Record<string, ServiceStatus> = {
  initialized: 'active',
  active: 'active',
  inactive: 'active',
  closed: 'closed',
  disputed: 'closed',
  determined: 'resolved',
  amended: 'resolved',
  finalized: 'resolved',
  settled: 'resolved',
}

export function serviceStatusOf(raw: string | undefined): ServiceStatus {
  return (raw === undefined ? undefined : MAP[raw]) ?? 'closed'
}
