import { createHash } from 'node:crypto'
import type { CatalogSnapshot } from '../../actors/catalog-snapshot.js'
import { readSealedFileSteps, writeSealedFile } from '../../core/sealed-file.js'
import type { Steps } from '../../core/slices.js'
import { nullAsUndefined, undefinedAsNull } from '../../model/catalog-json.js'
import type { CatalogEvent, VenueId } from '../../model/types.js'
import { readingKey, readingsOf } from './contract.js'
import type { EventMatch, MatchExplanation, MatchInput, MatchQuality, OutcomePair, VenueEvent } from './matcher.js'

/**
 * The last matches of one pair of venues, kept beside the catalog files (src/actors/catalog-file.ts) so that a
 * restart prices its pairs at once instead of after the matcher's first full run (about 30 s of CPU at the venues'
 * real size). A sealed file (src/core/sealed-file.ts): a header naming the two venues, where their catalogs were
 * listed from and the overrides the matches were made under; one line per event match; the digest trailer.
 *
 * A match from the file is a hint until the matcher has run, so it is trusted outcome pair by outcome pair, against
 * the catalogs being served: both outcomes must still be listed and, for an automatic pair, both contracts must
 * read as they did when the judge accepted them (`readingFingerprint`: every input of the contract's reading, the
 * matcher's own test of "unchanged"). A pair failing either is dropped. What this cannot see, a new contract that
 * would have made a pair ambiguous, lasts until the full run that follows every seed replaces the seeded matches.
 */
export const MATCH_FILE_FORMAT = 'predmkt-matches'
/** Bumped whenever a record's shape or the meaning of a fingerprint changes: a file of another version is refused. */
export const MATCH_FILE_VERSION = 1

interface Header {
  readonly format: string
  readonly version: number
  readonly venues: readonly [VenueId, VenueId]
  /** Where each venue's catalog was listed from (its base URL): a simulator's matches are never used live. */
  readonly sources: readonly [string, string]
  /** `overridesFingerprint` of the input the matches were made under. */
  readonly overrides: string
  readonly writtenAt: number
  readonly matches: number
}

/** One outcome pair as written: the two outcome ids, and for automatic pairs the two readings' fingerprints. */
interface PairRecord {
  readonly a: string
  readonly b: string
  readonly outcomeKey: string
  readonly quality: MatchQuality
  readonly explanation: MatchExplanation
  readonly read?: readonly [string, string]
}

interface MatchRecord {
  readonly a: VenueEvent
  readonly b: VenueEvent
  readonly strategy: EventMatch['strategy']
  readonly quality: MatchQuality
  readonly outcomes: readonly PairRecord[]
}

/** Where the matches were made: the two venues' catalogs, their sources, and the overrides' fingerprint. */
export interface MatchContext {
  readonly a: CatalogSnapshot
  readonly b: CatalogSnapshot
  readonly sources: readonly [string, string]
  readonly overrides: string
}

/**
 * The overrides a match depends on, as one string: manual matches, deny rules, the calibration weights and the alias
 * file's version. Matches made under other overrides are not seeded (the full run would differ everywhere).
 */
export function overridesFingerprint(input: MatchInput): string {
  const stable = JSON.stringify([input.manual ?? [], input.deny ?? [], input.weights ?? null, input.aliases?.version])
  return createHash('sha256').update(stable).digest('hex')
}

/** Matches between two slice checkpoints. */
const MATCHES_PER_STEP = 64

/**
 * Every input the matcher reads a contract from (contract.ts Reading: texts, end, strike, sides, codes) as a short
 * digest, by outcome id, for the contracts of `event`.
 */
function readingFingerprints(event: CatalogEvent): Map<string, string> {
  const out = new Map<string, string>()
  for (const r of readingsOf(event)) {
    const digest = createHash('sha1')
      .update(`${readingKey(r)}\u0000${r.end ?? ''}`)
      .digest('base64url')
    out.set(r.outcome.outcomeId, digest)
  }
  return out
}

/** The fingerprints of each event's contracts, computed once per event. */
class Fingerprints {
  readonly #byEvent = new Map<string, Map<string, string>>()

  of(event: CatalogEvent, outcomeId: string): string | undefined {
    const key = `${event.venue}\u0000${event.eventId}`
    let known = this.#byEvent.get(key)
    if (known === undefined) this.#byEvent.set(key, (known = readingFingerprints(event)))
    return known.get(outcomeId)
  }
}

/** The records of `matches` as made from `context`'s catalogs, built in slices. */
function* recordsSteps(matches: readonly EventMatch[], context: MatchContext): Steps<MatchRecord[]> {
  const fingerprints = new Fingerprints()
  const records: MatchRecord[] = []
  for (let i = 0; i < matches.length; i++) {
    const m = matches[i] as EventMatch
    const ea = context.a.eventsById.get(m.a.eventId)
    const eb = context.b.eventsById.get(m.b.eventId)
    const outcomes: PairRecord[] = []
    for (const o of m.outcomes) {
      const record = { a: o.a.outcomeId, b: o.b.outcomeId, outcomeKey: o.outcomeKey, quality: o.quality }
      if (o.explanation.manual) {
        outcomes.push({ ...record, explanation: o.explanation })
        continue
      }
      const fa = ea && fingerprints.of(ea, o.a.outcomeId)
      const fb = eb && fingerprints.of(eb, o.b.outcomeId)
      // Not a contract of the catalogs matched (cannot happen for an automatic pair): not worth keeping.
      if (fa === undefined || fb === undefined) continue
      outcomes.push({ ...record, explanation: o.explanation, read: [fa, fb] })
    }
    if (outcomes.length > 0) records.push({ a: m.a, b: m.b, strategy: m.strategy, quality: m.quality, outcomes })
    if (i % MATCHES_PER_STEP === MATCHES_PER_STEP - 1) yield
  }
  return records
}

/** Writes `matches`, made from `context`'s catalogs, to `path` atomically; returns the bytes written. */
export async function writeMatchFile(
  path: string,
  matches: readonly EventMatch[],
  context: MatchContext,
  now: number,
  runSteps: <T>(steps: Steps<T>) => Promise<T>,
): Promise<number> {
  const records = await runSteps(recordsSteps(matches, context))
  const header: Header = {
    format: MATCH_FILE_FORMAT,
    version: MATCH_FILE_VERSION,
    venues: [context.a.venue, context.b.venue],
    sources: context.sources,
    overrides: context.overrides,
    writtenAt: now,
    matches: records.length,
  }
  // Explanations carry unknown values as `undefined`, written as null and read back (src/model/catalog-json.ts).
  return writeSealedFile(path, header, records, undefinedAsNull)
}

/** What a match file gave: the matches still true of the served catalogs, or why none were used. */
export type MatchFileRead =
  | {
      readonly ok: true
      readonly matches: EventMatch[]
      /** Outcome pairs kept and dropped (an outcome gone, or a contract that reads otherwise now). */
      readonly kept: number
      readonly dropped: number
      readonly writtenAt: number
    }
  | { readonly ok: false; readonly missing: boolean; readonly reason: string }

const RANK: Readonly<Record<MatchQuality, number>> = { manual: 2, auto_high: 1, auto_medium: 0 }

/**
 * The matches in `bytes` that hold for the catalogs of `context` (see the file's comment), if the file is whole
 * and was written for the same venues, sources and overrides; otherwise the reason it is refused.
 */
export function* readMatchFileSteps(bytes: Buffer | undefined, context: MatchContext): Steps<MatchFileRead> {
  const check = (h: Partial<Header>): string | undefined => {
    const venues = [context.a.venue, context.b.venue]
    if (h.venues?.[0] !== venues[0] || h.venues[1] !== venues[1])
      return `it matches ${String(h.venues?.join('+'))}, not ${venues.join('+')}`
    if (h.sources?.[0] !== context.sources[0] || h.sources[1] !== context.sources[1])
      return `its catalogs were listed from ${String(h.sources?.join(' and '))}`
    if (h.overrides !== context.overrides) return 'made under other manual matches, deny rules, weights or aliases'
    if (typeof h.writtenAt !== 'number' || typeof h.matches !== 'number') return 'incomplete header'
    return undefined
  }
  const read = yield* readSealedFileSteps<Header>(
    bytes,
    'match file',
    MATCH_FILE_FORMAT,
    MATCH_FILE_VERSION,
    check,
    nullAsUndefined,
  )
  if (!read.ok) return read
  if (read.records.length !== read.header.matches)
    return {
      ok: false,
      missing: false,
      reason: `${read.records.length} matches where its header says ${read.header.matches}`,
    }
  const fingerprints = new Fingerprints()
  const matches: EventMatch[] = []
  let kept = 0
  let dropped = 0
  for (let i = 0; i < read.records.length; i++) {
    if (i % MATCHES_PER_STEP === MATCHES_PER_STEP - 1) yield
    const r = read.records[i] as MatchRecord
    const ea = context.a.eventsById.get(r.a.eventId)
    const eb = context.b.eventsById.get(r.b.eventId)
    const outcomes: OutcomePair[] = []
    for (const o of r.outcomes) {
      const x = context.a.outcomesById.get(o.a)
      const y = context.b.outcomesById.get(o.b)
      const holds =
        ea !== undefined &&
        eb !== undefined &&
        x !== undefined &&
        y !== undefined &&
        x.eventId === ea.eventId &&
        y.eventId === eb.eventId &&
        (o.read === undefined || (fingerprints.of(ea, o.a) === o.read[0] && fingerprints.of(eb, o.b) === o.read[1]))
      if (!holds) {
        dropped++
        continue
      }
      kept++
      outcomes.push({ a: x, b: y, outcomeKey: o.outcomeKey, quality: o.quality, explanation: o.explanation })
    }
    if (outcomes.length === 0) continue
    // The weakest quality among the pairs kept (the match's quality, as the matcher grades it).
    let quality = (outcomes[0] as OutcomePair).quality
    for (const o of outcomes) if (RANK[o.quality] < RANK[quality]) quality = o.quality
    matches.push({ a: r.a, b: r.b, strategy: r.strategy, quality, outcomes })
  }
  return { ok: true, matches, kept, dropped, writtenAt: read.header.writtenAt }
}
