import { slugLabel } from '../../../model/categories.js'
import { hashString, type Rng } from '../random.js'
import type { Category, EventTag } from '../types.js'

/**
 * Categories as the venues really label them (README "Categories", src/model/categories.ts maps them):
 *
 * - the ticker style gives each series one category from its vocabulary. The real catalog uses Politics (126 of 219 events),
 *   Entertainment (28), Economics (10), Science and Technology, Climate and Weather (9 each), World (8), Elections,
 *   Companies, Sports (6 each), Financials, Social, Health (3–4 each), Transportation; Crypto and Mentions exist too.
 *   The same subject can sit under different words (Greenland under Politics, the next Pope under World).
 * - the slug style gives an event several tags (median 5 in the real catalog, 5% none) in no meaningful order: one or two
 *   category words ("Politics", "Geopolitics", "World"), topics ("Fed Rates", "NBA", "Ukraine", a person, a
 *   country), and tags that say nothing about the subject ("2025 Predictions", "Featured", "Earn 4%").
 *
 * `slugsTags` draws tags whose vote (a category word 2, a known topic 1) gives the question's category, with a
 * neighbouring category's word now and then, as real events carry ("Politics" on a Ukraine event).
 */
export const TICKERS_CATEGORIES = [
  'Politics',
  'Elections',
  'Economics',
  'Financials',
  'Companies',
  'Crypto',
  'Climate and Weather',
  'Sports',
  'Entertainment',
  'Science and Technology',
  'World',
  'Health',
  'Social',
  'Transportation',
  'Mentions',
] as const
export type TickersCategory = (typeof TICKERS_CATEGORIES)[number]

/** A series' category: one of `options`, fixed per series ticker (every event of a series carries it). */
export function tickersCategory(seriesTicker: string, options: readonly TickersCategory[]): TickersCategory {
  return options[hashString(seriesTicker) % options.length] as TickersCategory
}

/** The slug style's category words per category (what categories.ts counts twice). */
const CATEGORY_WORDS: Record<Category, readonly string[]> = {
  politics: ['Politics', 'U.S. Politics', 'Elections', 'Global Elections', 'US Election'],
  world: ['World', 'Geopolitics', 'world affairs'],
  economics: ['Economy', 'Economic Policy'],
  finance: ['Finance', 'Business'],
  sports: ['Sports'],
  crypto: ['Crypto'],
  culture: ['Culture', 'Pop Culture'],
  tech: ['Tech', 'Science'],
  climate: ['Climate', 'Weather', 'Climate & Weather'],
  health: ['Health'],
}

/** Topic tags categories.ts knows (each counts once). */
const KNOWN_TOPICS: Record<Category, readonly string[]> = {
  politics: ['Trump Presidency', 'Congress', 'Senate', 'Midterms', 'Primaries', 'Courts', 'Cabinet'],
  world: ['Ukraine', 'Middle East', 'Foreign Policy', 'nato', 'eu', 'China'],
  economics: ['Fed Rates', 'Fed', 'Inflation', 'GDP', 'Recession', 'Jobs', 'Tariffs'],
  finance: ['Stocks', 'IPOs', 'Big Tech', 'Earnings'],
  sports: ['Soccer', 'Basketball', 'Hockey', 'Baseball', 'Football'],
  crypto: ['Crypto Prices', 'Bitcoin', 'Ethereum', 'Solana', 'Airdrops', 'Stablecoins'],
  culture: ['Music', 'Movies', 'Celebrities', 'Awards', 'TV'],
  tech: ['AI', 'OpenAI', 'SpaceX', 'Space'],
  climate: ['Weather'],
  health: ['Pandemics', 'Vaccines', 'Flu'],
}

/** The category whose word real events of a category also carry now and then. */
const NEIGHBOUR: Record<Category, Category> = {
  politics: 'world',
  world: 'politics',
  economics: 'finance',
  finance: 'economics',
  sports: 'culture',
  crypto: 'finance',
  culture: 'sports',
  tech: 'finance',
  climate: 'world',
  health: 'politics',
}

/** Tags that name no subject (categories.ts ignores them). */
const NOISE = ['2026 Predictions', 'Featured', 'Earn 4%', 'Hide From New', 'All', 'Parent For Derivative']

/** Real Gamma tag ids of the few top-level tags the venue docs show; other ids are stable invented numbers. */
const KNOWN_IDS: Record<string, string> = {
  Politics: '2',
  Sports: '1',
  Crypto: '21',
  'Pop Culture': '596',
  Tech: '1401',
  Economy: '100328',
}

const TAGS = new Map<string, EventTag>()

/** The tag for a label, built once: events share their tag objects, as they share the venue's tags. */
export function tagOf(label: string): EventTag {
  let tag = TAGS.get(label)
  if (tag === undefined)
    TAGS.set(
      label,
      (tag = {
        id: KNOWN_IDS[label] ?? String(100_000 + (hashString(label) % 900_000)),
        label,
        slug: slugLabel(label),
      }),
    )
  return tag
}

/**
 * a slug-style event's tags for a question of `category`: 1–2 category words, known topics, `topics` the template
 * names (people, places, leagues: unknown to the mapping), maybe a neighbour's category word and subject-less
 * tags, shuffled. The own words and topics always outvote the neighbour. 5% of events carry no tags.
 */
export function slugsTags(rng: Rng, category: Category, topics: readonly string[] = []): EventTag[] {
  if (rng.chance(0.05)) return []
  const words = CATEGORY_WORDS[category]
  const labels = new Set<string>()
  const own = Math.min(words.length, rng.int(1, 2))
  for (let i = 0; labels.size < own && i < 8; i++) labels.add(rng.pick(words))
  const known = KNOWN_TOPICS[category]
  const knownCount = rng.int(own === 1 ? 1 : 0, 2)
  for (let i = 0; i < knownCount; i++) labels.add(rng.pick(known))
  for (const t of topics) if (rng.chance(0.7)) labels.add(t)
  // A neighbour's word (2 votes) only when the own side has at least 3: one word and a topic, or two words.
  const ownVotes = [...labels].reduce((s, l) => s + (words.includes(l) ? 2 : known.includes(l) ? 1 : 0), 0)
  if (ownVotes >= 3 && rng.chance(0.3)) labels.add(rng.pick(CATEGORY_WORDS[NEIGHBOUR[category]]))
  const noise = rng.int(0, 2)
  for (let i = 0; i < noise; i++) labels.add(rng.pick(NOISE))
  return rng.shuffle([...labels]).map(tagOf)
}
