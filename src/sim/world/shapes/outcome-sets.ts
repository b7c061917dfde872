import type { Rng } from '../random.js'

/**
 * Which venue lists which outcome of a multi-outcome question. Real candidate lists differ: venuek's 2028
 * presidential event lists 24 people while venuep's lists 128 children (named and placeholders), and each has names
 * the other lacks, so only some outcomes are shared. 40% of questions list the same candidates on both venues;
 * otherwise each candidate after the favourite is on both (60%), only on venuep (20%) or only on venuek (20%).
 */
export function outcomeSides(rng: Rng, n: number): { onVenuep: boolean; onVenuek: boolean }[] {
  const same = rng.chance(0.4)
  return Array.from({ length: n }, (_, i) => {
    if (same || i === 0) return { onVenuep: true, onVenuek: true }
    const r = rng.next()
    return r < 0.6 ? { onVenuep: true, onVenuek: true } : r < 0.8 ? { onVenuep: true, onVenuek: false } : { onVenuep: false, onVenuek: true }
  })
}
