import { dateCode, longDate, monthCode, monthYear, shortDate, slugify, year } from '../dates.js'
import * as N from '../names.js'
import { logit } from '../path.js'
import { binaryContract, candidateContracts, DAY_MS, distinct, multiBases, suffixOf } from './helpers.js'
import type { Template } from './types.js'

// ------------------------------------------------------------------------------------------- culture, tech

export const award: Template<{ award: (typeof N.AWARDS)[number]; nominees: string[] }> = {
  id: 'award',
  category: 'culture',
  weight: 2,
  horizonDays: [20, 300],
  decoyShiftDays: 365,
  pick: (rng) => ({ award: rng.pick(N.AWARDS), nominees: distinct(rng, rng.int(4, 6), () => rng.pick(N.WORKS)) }),
  build: ({ award: [aname, acode, acat], nominees }, endTime, rng) => {
    const y = year(endTime)
    return {
      templateId: 'award',
      key: `award:${acode}:${y}`,
      category: 'culture',
      kind: 'multi',
      subject: `${y} ${aname} ${acat}`,
      endTime,
      model: { kind: 'multi', bases: multiBases(rng, nominees.length) },
      complementary: false,
      contracts: candidateContracts(nominees),
      venuep: {
        title: `${aname} ${y}: ${acat} Winner`,
        slug: slugify(`${aname} ${y} ${acat} winner`),
        description: `Resolves to the nominee announced as ${acat} at the ${y} ${aname}.`,
        negRisk: true,
        outcomes: undefined,
        marketQuestion: (i) => `Will "${nominees[i]}" win ${acat} at the ${y} ${aname}?`,
        groupItemTitle: (i) => nominees[i] as string,
      },
      venuek: {
        seriesTicker: `KX${acode}`,
        seriesTitle: `${aname}`,
        seriesCategory: 'Entertainment',
        frequency: 'annual',
        eventTicker: `KX${acode}-${String(y % 100)}`,
        title: `${acat} at the ${y} ${aname}?`,
        subTitle: `${y} ceremony`,
        mutuallyExclusive: true,
        strikeType: 'custom',
        marketTitle: (i) => `Will ${nominees[i]} win ${acat}?`,
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
    venuep: {
      title: `New ${artist} album released by ${longDate(endTime)}?`,
      slug: slugify(`new ${artist} album released by ${longDate(endTime)}`),
      description: `Resolves Yes if ${artist} releases a new studio album before the deadline.`,
      negRisk: false,
      outcomes: ['Yes', 'No'],
      marketQuestion: () => `New ${artist} album released by ${longDate(endTime)}?`,
      groupItemTitle: undefined,
    },
    venuek: {
      seriesTicker: `KXALBUM${suffixOf(artist)}`,
      seriesTitle: `${artist} album`,
      seriesCategory: 'Entertainment',
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
    venuep: {
      title: `Will ${company} launch ${product} by ${longDate(endTime)}?`,
      slug: slugify(`will ${company} launch ${product} by ${longDate(endTime)}`),
      description: `Resolves Yes if ${company} makes ${product} generally available before the deadline.`,
      negRisk: false,
      outcomes: ['Yes', 'No'],
      marketQuestion: () => `Will ${company} launch ${product} by ${longDate(endTime)}?`,
      groupItemTitle: undefined,
    },
    venuek: {
      seriesTicker: `KXLAUNCH${suffixOf(company)}`,
      seriesTitle: `${company} launches`,
      seriesCategory: 'Science and Technology',
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
  build: ({ labs }, endTime, rng) => {
    const m = monthYear(endTime)
    return {
      templateId: 'top-lab',
      key: `top-lab:${monthCode(endTime)}`,
      category: 'tech',
      kind: 'multi',
      subject: `top AI model ${m}`,
      endTime,
      model: { kind: 'multi', bases: multiBases(rng, labs.length) },
      complementary: false,
      contracts: candidateContracts(labs),
      venuep: {
        title: `Which company has the best AI model end of ${m}?`,
        slug: slugify(`which company has best ai model end of ${m}`),
        description: `Resolves to the company whose model ranks first on the public leaderboard at the end of ${m}.`,
        negRisk: true,
        outcomes: undefined,
        marketQuestion: (i) => `Will ${labs[i]} have the top AI model at the end of ${m}?`,
        groupItemTitle: (i) => labs[i] as string,
      },
      venuek: {
        seriesTicker: 'KXTOPAI',
        seriesTitle: 'Top AI model',
        seriesCategory: 'Science and Technology',
        frequency: 'monthly',
        eventTicker: `KXTOPAI-${monthCode(endTime)}`,
        title: `Top AI lab on the leaderboard, ${m}`,
        subTitle: `End of ${m}`,
        mutuallyExclusive: true,
        strikeType: 'custom',
        marketTitle: (i) => `Will ${labs[i]} be #1 at the end of ${m}?`,
      },
    }
  },
}
