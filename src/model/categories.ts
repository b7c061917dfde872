/**
 * Canonical category slugs shared by both venues, so `category=politics` means the same thing everywhere.
 * Each venue labels categories its own way (venuep tag slugs, venuek series category labels); unknown labels
 * map to `other` rather than being guessed.
 */
export const CATEGORY_SLUGS = ['politics', 'economics', 'sports', 'crypto', 'culture', 'tech', 'climate', 'other'] as const
export type CategorySlug = (typeof CATEGORY_SLUGS)[number]

const ALIASES: Record<string, CategorySlug> = {
  politics: 'politics',
  elections: 'politics',
  'us-politics': 'politics',
  'world-politics': 'politics',
  geopolitics: 'politics',
  economics: 'economics',
  economy: 'economics',
  finance: 'economics',
  'fed-rates': 'economics',
  business: 'economics',
  companies: 'economics',
  sports: 'sports',
  crypto: 'crypto',
  cryptocurrency: 'crypto',
  'pop-culture': 'culture',
  culture: 'culture',
  entertainment: 'culture',
  'world-events': 'culture',
  tech: 'tech',
  technology: 'tech',
  'science-and-technology': 'tech',
  science: 'tech',
  ai: 'tech',
  'climate-weather': 'climate',
  'climate-and-weather': 'climate',
  climate: 'climate',
  weather: 'climate',
}

/** Lowercase, dash-separated form of a venue label ("Climate and Weather" → "climate-and-weather"). */
export function slugLabel(label: string): string {
  return label
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}

/** Maps venue category labels or tag slugs (first recognised wins) to a canonical slug. */
export function canonicalCategory(labels: readonly (string | undefined)[]): CategorySlug {
  for (const label of labels) {
    if (label === undefined || label.length === 0) continue
    const hit = ALIASES[slugLabel(label)]
    if (hit !== undefined) return hit
  }
  return 'other'
}
