import type { Rng } from '../random.js'

/**
 * Which venue lists which outcome of a multi-outcome question. Real candidate lists differ: venuek's 2028
 * presidential event lists 24 people while venuep's lists 128 children (named and placeholders), and each has names
 * the other lacks, so only some outcomes are shared. Half the questions list the same candidates on both venues;
 * otherwise each candidate after the first two is on both (70%), only on venuep (15%) or only on venuek (15%).
 */
export function outcomeSides(rng: Rng, n: number): { onVenuep: boolean; onVenuek: boolean }[] {
  const same = rng.chance(0.5)
  return Array.from({ length: n }, (_, i) => {
    if (same || i < 2) return { onVenuep: true, onVenuek: true }
    const r = rng.next()
    return r < 0.7 ? { onVenuep: true, onVenuek: true } : r < 0.85 ? { onVenuep: true, onVenuek: false } : { onVenuep: false, onVenuek: true }
  })
}
