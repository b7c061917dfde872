import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import type { NearMiss } from '../../src/spreads/matching/near-misses.js'

/**
 * A reviewer's decision on a near miss, written to config/matches.json (src/spreads/matching/manual-matches.ts reads
 * it; the running service reloads it): `accept` adds the outcome pair to the manual match of its two events (one entry
 * per event pair, as the file keeps them), `deny` adds a deny rule for the two outcomes. Written whole to a
 * temporary file and renamed over the old one, so the service never reads half a file.
 */
export type Decision = 'accept' | 'deny'

interface Entry {
  [key: string]: unknown
}

interface MatchesFile {
  _comment?: string
  matches: Entry[]
  deny?: Entry[]
}

export function recordDecision(
  path: string,
  miss: NearMiss,
  decision: Decision,
  who: { readonly reviewer?: string; readonly reason?: string },
): string {
  const file = JSON.parse(readFileSync(path, 'utf8')) as MatchesFile
  const a = miss.a.outcome
  const b = miss.b.outcome
  const events = { [`${a.venue}_event`]: a.eventId, [`${b.venue}_event`]: b.eventId }
  const outcome = { [`${a.venue}_outcome`]: a.outcomeId, [`${b.venue}_outcome`]: b.outcomeId }
  const reviewed = {
    reason: who.reason ?? `${decision}ed near miss (${miss.field}: ${miss.reason})`,
    ...(who.reviewer === undefined ? {} : { reviewer: who.reviewer }),
    date: new Date().toISOString().slice(0, 10),
  }
  let said: string
  if (decision === 'accept') {
    const existing = file.matches.find(
      (m) => m[`${a.venue}_event`] === a.eventId && m[`${b.venue}_event`] === b.eventId,
    )
    if (existing !== undefined) {
      const outcomes = (existing.outcomes as Entry[] | undefined) ?? []
      existing.outcomes = [...outcomes, outcome]
      said = `added to the manual match of ${a.eventId} and ${b.eventId}`
    } else {
      file.matches.push({ ...events, outcomes: [outcome], ...reviewed })
      said = `new manual match of ${a.eventId} and ${b.eventId}`
    }
  } else {
    file.deny = [...(file.deny ?? []), { ...events, ...outcome, ...reviewed }]
    said = `deny rule for ${a.outcomeId} and ${b.outcomeId}`
  }
  const tmp = `${path}.tmp-${process.pid}`
  writeFileSync(tmp, `${JSON.stringify(file, null, 2)}\n`)
  renameSync(tmp, path)
  return said
}
