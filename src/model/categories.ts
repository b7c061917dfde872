/**
 * Canonical category slugs shared by both venues, so `category=politics` means the same thing everywhere. Each
 * venue labels subjects its own way: one gives every event one category from its list ("Politics",
 * "Climate and Weather", "Financials", …); another gives an event tags, a few of which are its top-level categories
 * ("Politics", "Geopolitics", "Pop Culture", …) while most are topics ("NBA", "Bitcoin", "Fed Rates", "Ukraine").
 *
 * `world`, `finance` and `health` exist because the venues' real vocabularies separate them: category lists name World,
 * Financials/Companies and Health beside Politics and Economics, and tags name World/Geopolitics, Finance/Business
 * and health topics apart from Politics and Economy. `other` is for events with no category word and no known topic.
 */
export const CATEGORY_SLUGS = [
  'politics',
  'world',
  'economics',
  'finance',
  'sports',
  'crypto',
  'culture',
  'tech',
  'climate',
  'health',
  'other',
] as const
export type CategorySlug = (typeof CATEGORY_SLUGS)[number]

/** What each canonical slug covers (published in the API's `category` parameter descriptions and the README). */
export const CATEGORY_SCOPES: Readonly<Record<CategorySlug, string>> = {
  politics: 'elections, governments, courts and officials',
  world: 'geopolitics, wars and international affairs, and world events',
  economics: 'the economy: rates, inflation, jobs, trade and fiscal policy',
  finance: 'markets and companies: stocks, IPOs, business',
  sports: 'sports',
  crypto: 'crypto assets, tokens and chains',
  culture: 'entertainment, celebrities, media and social life',
  tech: 'science and technology, AI, space',
  climate: 'climate and weather',
  health: 'health, medicine and disease',
  other: 'no category known',
}

/**
 * Category words: venues' event categories and top-level category tags (lowercase, dash-separated labels or tag
 * slugs). One of these names a subject of the whole event, so it counts twice as much as a topic tag.
 */
const CATEGORY_WORDS: Readonly<Record<string, CategorySlug>> = {
  politics: 'politics',
  'us-politics': 'politics',
  'u-s-politics': 'politics',
  elections: 'politics',
  'us-election': 'politics',
  'global-elections': 'politics',
  'world-elections': 'politics',
  world: 'world',
  geopolitics: 'world',
  'world-politics': 'world',
  'world-affairs': 'world',
  'world-events': 'world',
  economics: 'economics',
  economy: 'economics',
  'economic-policy': 'economics',
  finance: 'finance',
  financials: 'finance',
  business: 'finance',
  companies: 'finance',
  sports: 'sports',
  crypto: 'crypto',
  cryptocurrency: 'crypto',
  culture: 'culture',
  'pop-culture': 'culture',
  entertainment: 'culture',
  social: 'culture',
  mentions: 'culture', // what a public figure will say
  tech: 'tech',
  technology: 'tech',
  science: 'tech',
  'science-and-technology': 'tech',
  'climate-and-weather': 'climate',
  'climate-weather': 'climate',
  climate: 'climate',
  weather: 'climate',
  health: 'health',
  // Transportation markets are travel and traffic statistics (check-ins, delays, deliveries).
  transportation: 'economics',
}

/**
 * Topic tags (sub-tags below the top-level categories) that belong to one category: leagues and sports, coins and token events, countries
 * and conflicts, policy topics, AI and space.
 */
const TOPIC_WORDS: Readonly<Record<string, CategorySlug>> = {
  ...topics('politics', [
    'trump',
    'trump-presidency',
    'maga',
    'congress',
    'senate',
    'house',
    'midterms',
    'primaries',
    'primary-elections',
    'courts',
    'supreme-court',
    'cabinet',
    'president',
    'us-government',
    'campaign-promises',
    'social-policy',
    'immigration',
  ]),
  ...topics('world', [
    'ukraine',
    'russia',
    'putin',
    'israel',
    'gaza',
    'iran',
    'syria',
    'middle-east',
    'china',
    'india',
    'india-pakistan',
    'nato',
    'foreign-policy',
    'macro-geopolitics',
    'uk',
    'england',
    'france',
    'canada',
    'poland',
    'turkey',
    'hungary',
    'eu',
    'greenland',
    'military-actions',
    'ukraine-peace-deal',
    'ukraine-map',
    'russia-capture',
  ]),
  ...topics('economics', [
    'fed',
    'fed-rates',
    'jerome-powell',
    'tariffs',
    'trade-war',
    'taxes',
    'deficit',
    'debt',
    'treasuries',
    'inflation',
    'gdp',
    'recession',
    'jobs',
    'unemployment',
  ]),
  ...topics('finance', ['stocks', 'ipos', 'ipo', 'big-tech', 'earnings', 'microstrategy']),
  ...topics('sports', [
    'soccer',
    'football',
    'nba',
    'nfl',
    'nhl',
    'mlb',
    'basketball',
    'hockey',
    'baseball',
    'golf',
    'tennis',
    'f1',
    'epl',
    'la-liga',
    'bundesliga',
    'ligue-1',
    'serie-a',
    'champions-league',
    'ucl',
    'uefa-europa-league',
    'europa-league',
    'fifa-world-cup',
    'world-cup',
    '2026-fifa-world-cup',
    'stanley-cup',
    'nba-finals',
    'nba-playoffs',
    'nba-champion',
    'mvp',
    'pga-tour',
    'the-masters',
  ]),
  ...topics('crypto', [
    'crypto-prices',
    'bitcoin',
    'ethereum',
    'solana',
    'xrp',
    'litecoin',
    'ltc',
    'stablecoins',
    'usdt',
    'airdrops',
    'altcoin',
    'pre-market',
    'crypto-policy',
    'megaeth',
    'opensea',
    'fdv',
  ]),
  ...topics('culture', ['music', 'movies', 'celebrities', 'awards', 'tv', 'gta-vi', 'taylor-swift']),
  ...topics('tech', [
    'ai',
    'artificial-intelligence',
    'openai',
    'deepseek',
    'grok',
    'llm',
    'gpt-5',
    'claude-5',
    'spacex',
    'space',
  ]),
  ...topics('health', ['pandemics', 'bird-flu', 'h5n1', 'flu', 'covid', 'vaccine', 'vaccines']),
}

function topics(slug: CategorySlug, words: readonly string[]): Record<string, CategorySlug> {
  return Object.fromEntries(words.map((w) => [w, slug]))
}

/** Lowercase, dash-separated form of a venue label ("Climate and Weather" → "climate-and-weather"). */
export function slugLabel(label: string): string {
  return label
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}

/** One label, or the alternative names of one label (a tag's label and slug): it votes once. */
export type CategoryLabel = string | undefined | readonly (string | undefined)[]

/**
 * Maps an event's venue labels (its category, its tags, in the venue's order) to a canonical slug. An event with tags
 * may carry several category tags at once ("Politics", "Geopolitics", "World") in no meaningful order, so the labels
 * vote: a category word counts 2, a known topic 1, each distinct label once; the slug with the most votes wins and
 * a tie goes to the slug named first. No vote: `other`.
 */
export function canonicalCategory(labels: readonly CategoryLabel[]): CategorySlug {
  const votes = new Map<CategorySlug, { score: number; first: number }>()
  const seen = new Set<string>()
  labels.forEach((label, i) => {
    const vote = voteOf(typeof label === 'string' || label === undefined ? [label] : label, seen)
    if (vote === undefined) return
    const v = votes.get(vote.slug)
    if (v === undefined) votes.set(vote.slug, { score: vote.weight, first: i })
    else v.score += vote.weight
  })
  let best: CategorySlug = 'other'
  let top: { score: number; first: number } | undefined
  for (const [slug, v] of votes) {
    if (top === undefined || v.score > top.score || (v.score === top.score && v.first < top.first)) {
      best = slug
      top = v
    }
  }
  return best
}

/** The vote of one label: its first recognised name, as a category word (2) or a topic (1); repeats do not vote. */
function voteOf(
  names: readonly (string | undefined)[],
  seen: Set<string>,
): { slug: CategorySlug; weight: number } | undefined {
  const slugs = names.filter((n): n is string => n !== undefined && n.length > 0).map(slugLabel)
  if (slugs.some((s) => seen.has(s))) return undefined
  for (const s of slugs) seen.add(s)
  for (const s of slugs) if (CATEGORY_WORDS[s] !== undefined) return { slug: CATEGORY_WORDS[s], weight: 2 }
  for (const s of slugs) if (TOPIC_WORDS[s] !== undefined) return { slug: TOPIC_WORDS[s], weight: 1 }
  return undefined
}
