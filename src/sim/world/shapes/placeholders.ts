import type { Rng } from '../random.js'
import type { ContractSpec, QuestionSpec } from '../templates/types.js'

/**
 * The slug style lists inactive placeholder children in open candidate groups, to add real names later without a new
 * event: "Will Person K win …?", "Will Party H win …?", "Will Team AM win the 2026 FIFA World Cup?", "Company D",
 * "Placeholder 13", "another person" — `active: false`, no orders (`bestAsk` 1, no bid, no volume). 41 of the real
 * catalog's 108 grouped events carry them, up to 20 of 26 children (Hungary's next prime minister) or 13 of 15
 * (which party wins 2028). the ticker style never lists them, so they never pair.
 */
const PLACEHOLDER_SHARE = 0.38
/** A placeholder's logit in a multi-outcome model: no share at all (fair.ts skips it), never the winner. */
const PLACEHOLDER_BASE = Number.NEGATIVE_INFINITY
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'

function labels(rng: Rng, noun: string, count: number): string[] {
  const out: string[] = []
  const start = rng.int(0, 12)
  for (let i = 0; i < count; i++) {
    const n = start + i
    // Teams run past Z in two letters ("Team AM"); "Placeholder" is numbered.
    if (noun === 'Placeholder') out.push(`Placeholder ${n + 1}`)
    else if (noun === 'Team') out.push(`Team ${LETTERS[Math.floor(n / 26)]}${LETTERS[n % 26]}`)
    else out.push(`${noun} ${LETTERS[n % 26]}`)
  }
  if (rng.chance(0.3)) out.push(noun === 'Party' ? 'another party' : 'another person')
  return out
}

/**
 * Adds placeholder children to some multi-outcome specs that allow them: slug-style-only contracts whose markets
 * list inactive. Other specs come back unchanged.
 */
export function withPlaceholders(spec: QuestionSpec, rng: Rng): QuestionSpec {
  const ph = spec.slugs.placeholders
  if (
    ph === undefined ||
    spec.model.kind !== 'multi' ||
    spec.slugs.outcomes !== undefined ||
    !rng.chance(PLACEHOLDER_SHARE)
  )
    return spec
  const names = labels(rng, ph.noun, rng.chance(0.3) ? rng.int(8, 20) : rng.int(1, 6))
  const n = spec.contracts.length
  const extra: ContractSpec[] = names.map((label, i) => ({
    label,
    onSlugs: true,
    onTickers: false,
    slugsLabel: label,
    tickersLabel: label,
    tickersSuffix: `PH${i}`,
    placeholder: true,
  }))
  const question = spec.slugs.marketQuestion
  const title = spec.slugs.groupItemTitle
  return {
    ...spec,
    contracts: [...spec.contracts, ...extra],
    model: { kind: 'multi', bases: [...spec.model.bases, ...names.map(() => PLACEHOLDER_BASE)] },
    slugs: {
      ...spec.slugs,
      marketQuestion: (i) => (i < n ? question(i) : ph.question(names[i - n] as string)),
      groupItemTitle: title === undefined ? undefined : (i) => (i < n ? title(i) : (names[i - n] as string)),
    },
  }
}
