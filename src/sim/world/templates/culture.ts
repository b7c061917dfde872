import { dateCode, longDate, monthCode, monthYear, shortDate, slugify, year } from '../dates.js'
import * as N from '../names.js'
import { logit } from '../path.js'
import { tickersCategory, slugsTags } from '../shapes/labels.js'
import { company, person, work, type Keyed, type Spelled } from '../shapes/spellings.js'
import { slackDates, slugsEndDate } from '../shapes/venue-dates.js'
import { binaryContract, DAY_MS, distinct, groupTitles, multiBases, spelledContracts, suffixOf } from './helpers.js'
import type { Template } from './types.js'

// ------------------------------------------------------------------------------------------- culture, tech
//
// Titles and company names are spelled apart ("The Quiet Harbor" / "Quiet Harbor", "Nimbus Labs" / "Nimbus");
// groups carry placeholder children ("Company C", the real "Which company has best AI model" events).

export const award: Template<{ award: (typeof N.AWARDS)[number]; nominees: string[] }> = {
  id: 'award',
  category: 'culture',
  weight: 2,
  horizonDays: [20, 300],
  decoyShiftDays: 365,
  pick: (rng) => ({ award: rng.pick(N.AWARDS), nominees: distinct(rng, rng.int(4, 6), () => rng.pick(N.WORKS)) }),
  key: ({ award }, endTime) => `award:${award[1]}:${year(endTime)}`,
  build: ({ award: [aname, acode, acat], nominees }, endTime, rng) => {
    const y = year(endTime)
    const spelled = nominees.map((n) => work(rng, n))
    const ask = (n: string) => `Will "${n}" win ${acat} at the ${y} ${aname}?`
    return {
      templateId: 'award',
      key: `award:${acode}:${y}`,
      category: 'culture',
      kind: 'multi',
      subject: `${y} ${aname} ${acat}`,
      endTime,
      model: { kind: 'multi', bases: multiBases(rng, nominees.length) },
      complementary: false,
      contracts: spelledContracts(rng, spelled),
      slugs: {
        title: `${aname} ${y}: ${acat} Winner`,
        slug: slugify(`${aname} ${y} ${acat} winner`),
        description: `Resolves to the nominee announced as ${acat} at the ${y} ${aname}.`,
        negRisk: true,
        outcomes: undefined,
        marketQuestion: (i) => ask((spelled[i] as Spelled).slugs),
        groupItemTitle: (i) => (spelled[i] as Spelled).slugs,
        groupTitles: groupTitles(rng),
        endDate: slugsEndDate(endTime, rng),
        tags: slugsTags(rng, 'culture', [aname]),
        placeholders: { noun: 'Placeholder', question: ask },
      },
      tickers: {
        seriesTicker: `KX${acode}`,
        seriesTitle: `${aname}`,
        seriesCategory: 'Entertainment',
        frequency: 'annual',
        eventTicker: `KX${acode}-${String(y % 100)}`,
        title: `${acat} at the ${y} ${aname}?`,
        subTitle: `${y} ceremony`,
        mutuallyExclusive: true,
        strikeType: 'custom',
        marketTitle: (i) => `Will ${(spelled[i] as Spelled).tickers} win ${acat}?`,
        dates: slackDates(endTime, rng),
      },
    }
  },
}

export const album: Template<{ artist: string }> = {
  id: 'album',
  category: 'culture',
  weight: 1,
  horizonDays: [15, 240],
  decoyShiftDays: 60,
  pick: (rng) => ({ artist: rng.pick(N.ARTISTS) }),
  key: ({ artist }, endTime) => `album:${artist}:${dateCode(endTime)}`,
  build: ({ artist }, endTime, rng) => ({
    templateId: 'album',
    key: `album:${artist}:${dateCode(endTime)}`,
    category: 'culture',
    kind: 'binary',
    subject: `${artist} album by ${shortDate(endTime)}`,
    endTime,
    model: { kind: 'binary', base: logit(0.2 + rng.next() * 0.6) },
    complementary: false,
    contracts: [binaryContract()],
    slugs: {
      title: `New ${artist} album released by ${longDate(endTime)}?`,
      slug: slugify(`new ${artist} album released by ${longDate(endTime)}`),
      description: `Resolves Yes if ${artist} releases a new studio album before the deadline.`,
      negRisk: false,
      outcomes: ['Yes', 'No'],
      marketQuestion: () => `New ${artist} album released by ${longDate(endTime)}?`,
      groupItemTitle: undefined,
      tags: slugsTags(rng, 'culture', [artist]),
    },
    tickers: {
      seriesTicker: `KXALBUM${suffixOf(artist)}`,
      seriesTitle: `${artist} album`,
      seriesCategory: tickersCategory(`KXALBUM${suffixOf(artist)}`, ['Entertainment', 'Entertainment', 'Social']),
      frequency: 'custom',
      eventTicker: `KXALBUM${suffixOf(artist)}-${dateCode(endTime)}`,
      title: `Will ${artist} drop a new album before ${shortDate(endTime + DAY_MS)}?`,
      subTitle: `Before ${shortDate(endTime + DAY_MS)}`,
      mutuallyExclusive: false,
      strikeType: 'structured',
      marketTitle: () => `Will ${artist} release an album before ${shortDate(endTime + DAY_MS)}?`,
    },
  }),
}

export const launch: Template<{ company: string; product: string }> = {
  id: 'launch',
  category: 'tech',
  weight: 2,
  horizonDays: [20, 365],
  decoyShiftDays: 120,
  pick: (rng) => ({ company: rng.pick(N.COMPANIES), product: rng.pick(N.PRODUCTS) }),
  key: ({ company, product }, endTime) => `launch:${company}:${product}:${dateCode(endTime)}`,
  build: ({ company, product }, endTime, rng) => ({
    templateId: 'launch',
    key: `launch:${company}:${product}:${dateCode(endTime)}`,
    category: 'tech',
    kind: 'binary',
    subject: `${company} launches ${product} by ${shortDate(endTime)}`,
    endTime,
    model: { kind: 'binary', base: logit(0.1 + rng.next() * 0.7) },
    complementary: false,
    contracts: [binaryContract()],
    slugs: {
      title: `Will ${company} launch ${product} by ${longDate(endTime)}?`,
      slug: slugify(`will ${company} launch ${product} by ${longDate(endTime)}`),
      description: `Resolves Yes if ${company} makes ${product} generally available before the deadline.`,
      negRisk: false,
      outcomes: ['Yes', 'No'],
      marketQuestion: () => `Will ${company} launch ${product} by ${longDate(endTime)}?`,
      groupItemTitle: undefined,
      tags: slugsTags(rng, 'tech', [company]),
    },
    tickers: {
      seriesTicker: `KXLAUNCH${suffixOf(company)}`,
      seriesTitle: `${company} launches`,
      seriesCategory: tickersCategory(`KXLAUNCH${suffixOf(company)}`, ['Science and Technology', 'Companies']),
      frequency: 'custom',
      eventTicker: `KXLAUNCH${suffixOf(company)}-${dateCode(endTime)}-${suffixOf(product)}`,
      title: `${company} releases ${product} before ${shortDate(endTime + DAY_MS)}?`,
      subTitle: `Before ${shortDate(endTime + DAY_MS)}`,
      mutuallyExclusive: false,
      strikeType: 'structured',
      marketTitle: () => `Will ${company} release ${product} before ${shortDate(endTime + DAY_MS)}?`,
    },
  }),
}

export const topLab: Template<{ labs: string[] }> = {
  id: 'top-lab',
  category: 'tech',
  weight: 1,
  horizonDays: [10, 200],
  decoyShiftDays: 30,
  pick: (rng) => ({ labs: distinct(rng, rng.int(4, 6), () => rng.pick(N.COMPANIES)) }),
  key: (_, endTime) => `top-lab:${monthCode(endTime)}`,
  build: ({ labs }, endTime, rng) => {
    const m = monthYear(endTime)
    const spelled = labs.map((l) => company(rng, l))
    const ask = (n: string) => `Will ${n} have the top AI model at the end of ${m}?`
    return {
      templateId: 'top-lab',
      key: `top-lab:${monthCode(endTime)}`,
      category: 'tech',
      kind: 'multi',
      subject: `top AI model ${m}`,
      endTime,
      model: { kind: 'multi', bases: multiBases(rng, labs.length) },
      complementary: false,
      contracts: spelledContracts(rng, spelled),
      slugs: {
        title: `Which company has the best AI model end of ${m}?`,
        slug: slugify(`which company has best ai model end of ${m}`),
        description: `Resolves to the company whose model ranks first on the public leaderboard at the end of ${m}.`,
        negRisk: true,
        outcomes: undefined,
        marketQuestion: (i) => ask((spelled[i] as Spelled).slugs),
        groupItemTitle: (i) => (spelled[i] as Spelled).slugs,
        groupTitles: groupTitles(rng),
        tags: slugsTags(rng, 'tech', []),
        placeholders: { noun: 'Company', question: ask },
      },
      tickers: {
        seriesTicker: 'KXTOPAI',
        seriesTitle: 'Top AI model',
        seriesCategory: 'Science and Technology',
        frequency: 'monthly',
        eventTicker: `KXTOPAI-${monthCode(endTime)}`,
        title: `Top AI lab on the leaderboard, ${m}`,
        subTitle: `End of ${m}`,
        mutuallyExclusive: true,
        strikeType: 'custom',
        marketTitle: (i) => `Will ${(spelled[i] as Spelled).tickers} be #1 at the end of ${m}?`,
      },
    }
  },
}

const WORDS = ['tariff', 'crypto', 'recession', 'AI', 'border', 'inflation', 'election', 'record', 'historic', 'deal']
const SPEECHES = ['press conference', 'State of the Union address', 'rally', 'earnings call', 'interview']

/**
 * "Will X say Y during Z?": the ticker style's Mentions series, one binary market per word and speech (a single market on
 * each venue). Speakers are spelled apart as candidates are.
 */
export const mention: Template<{ speaker: Keyed; word: string; speech: string }> = {
  id: 'mention',
  category: 'culture',
  weight: 2,
  horizonDays: [1, 30],
  decoyShiftDays: 7,
  pick: (rng) => ({ speaker: person(rng), word: rng.pick(WORDS), speech: rng.pick(SPEECHES) }),
  key: ({ speaker, word, speech }, endTime) => `mention:${speaker.key}:${word}:${speech}:${dateCode(endTime)}`,
  build: ({ speaker, word, speech }, endTime, rng) => ({
    templateId: 'mention',
    key: `mention:${speaker.key}:${word}:${speech}:${dateCode(endTime)}`,
    category: 'culture',
    kind: 'binary',
    subject: `${speaker.label} says "${word}" ${shortDate(endTime)}`,
    endTime,
    model: { kind: 'binary', base: logit(0.15 + rng.next() * 0.7) },
    complementary: false,
    contracts: [binaryContract()],
    slugs: {
      title: `Will ${speaker.slugs} say "${word}" during the ${speech} on ${longDate(endTime)}?`,
      slug: slugify(`will ${speaker.slugs} say ${word} during ${speech} on ${longDate(endTime)}`),
      description: `Resolves Yes if ${speaker.slugs} says "${word}" during the ${speech} on ${longDate(endTime)}.`,
      negRisk: false,
      outcomes: ['Yes', 'No'],
      marketQuestion: () => `Will ${speaker.slugs} say "${word}" during the ${speech} on ${longDate(endTime)}?`,
      groupItemTitle: undefined,
      tags: slugsTags(rng, 'culture', [speaker.slugs]),
    },
    tickers: {
      seriesTicker: `KXMENTION${suffixOf(speaker.key)}`,
      seriesTitle: `What will ${speaker.tickers} say?`,
      seriesCategory: 'Mentions',
      frequency: 'custom',
      eventTicker: `KXMENTION${suffixOf(speaker.key)}-${dateCode(endTime)}-${suffixOf(word)}${suffixOf(speech)}`,
      title: `Will ${speaker.tickers} say "${word}" during the ${speech}?`,
      subTitle: `On ${shortDate(endTime)}`,
      mutuallyExclusive: false,
      strikeType: 'structured',
      marketTitle: () => `Will ${speaker.tickers} say "${word}" during the ${speech} on ${shortDate(endTime)}?`,
    },
  }),
}
