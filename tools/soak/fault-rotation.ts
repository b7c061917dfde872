import type { Simulator } from '../../src/sim/simulator.js'

/**
 * The faults the soak injects, one every FAULT_EVERY_MS (the first after FIRST_FAULT_MS), rotating through the
 * kinds and, independently, the venues (five kinds, two venues: ten faults cover every pairing), except that a
 * sequence skip always goes to venuek, the venue whose frames carry sequence numbers (on venuep it would do nothing).
 * Each is a direct call on the in-process simulator's fault plan (src/sim/faults.ts).
 */
export const FIRST_FAULT_MS = 30_000
export const FAULT_EVERY_MS = 60_000
export const STALL_MS = 5_000
export const HTTP_FAIL_MS = 10_000
const VENUES = ['venuep', 'venuek'] as const

export type FaultKind = 'drop sockets' | 'stall 5 s' | 'skip sequence' | 'malformed frame' | 'REST 503 for 10 s'
export const FAULT_KINDS: readonly FaultKind[] = [
  'drop sockets',
  'stall 5 s',
  'skip sequence',
  'malformed frame',
  'REST 503 for 10 s',
]

export interface InjectedFault {
  readonly atMs: number
  readonly venue: string
  readonly kind: FaultKind
}

export interface FaultRotation {
  readonly injected: InjectedFault[]
  stop(): void
}

export function startFaultRotation(sim: Simulator, t0: number, say: (line: string) => void): FaultRotation {
  const injected: InjectedFault[] = []
  const timers = new Set<NodeJS.Timeout>()
  const later = (ms: number, fn: () => void): void => {
    const t = setTimeout(() => {
      timers.delete(t)
      fn()
    }, ms)
    timers.add(t)
  }
  let n = 0
  const inject = (): void => {
    const kind = FAULT_KINDS[n % FAULT_KINDS.length] as FaultKind
    const venue = kind === 'skip sequence' ? 'venuek' : (VENUES[n % VENUES.length] as (typeof VENUES)[number])
    n++
    const faults = sim[venue].faults
    switch (kind) {
      case 'drop sockets':
        faults.dropSockets()
        break
      case 'stall 5 s':
        faults.stall()
        later(STALL_MS, () => faults.resume())
        break
      case 'skip sequence':
        faults.skipSequence()
        break
      case 'malformed frame':
        faults.sendMalformedFrame()
        break
      case 'REST 503 for 10 s':
        faults.failHttp({ status: 503, count: Number.POSITIVE_INFINITY })
        later(HTTP_FAIL_MS, () => faults.clearHttpFaults())
        break
    }
    const atMs = Date.now() - t0
    injected.push({ atMs, venue, kind })
    say(`${(atMs / 1000).toFixed(0)} s: fault ${kind} on ${venue}`)
    later(FAULT_EVERY_MS, inject)
  }
  later(FIRST_FAULT_MS, inject)
  return {
    injected,
    stop() {
      for (const t of timers) clearTimeout(t)
      timers.clear()
      for (const v of VENUES) {
        sim[v].faults.resume()
        sim[v].faults.clearHttpFaults()
      }
    },
  }
}
