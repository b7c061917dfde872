import type { Rng } from '../random.js'

/**
 * Which venue lists which outcome of a multi-outcome question. Real candidate lists differ: the ticker style's 2028
 * presidential event lists 24 people while the slug style's lists 128 children (named and placeholders), and each has names
 * the other lacks, so only some outcomes are shared. 40% of questions list the same candidates on both venues;
 * otherwise each candidate after the favourite is on both (60%), only in the slug style (20%) or only in the ticker style (20%).
 */
export function outcomeSides(rng: Rng, n: number): { onSlugs: boolean; onTickers: boolean }[] {
  const same = rng.chance(0.4)
  return Array.from({ length: n }, (_, i) => {
    if (same || i === 0) return { onSlugs: true, onTickers: true }
    const r = rng.next()
    return r < 0.6
      ? { onSlugs: true, onTickers: true }
      : r < 0.8
        ? { onSlugs: true, onTickers: false }
        : { onSlugs: false, onTickers: true }
  })
}
