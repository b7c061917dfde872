import { dateCode, monthCode, monthYear, shortDate, slugify, year } from '../dates.js'
import * as N from '../names.js'
import { logit } from '../path.js'
import { binaryContract } from './helpers.js'
import type { Template } from './types.js'

// ------------------------------------------------------------------------------------------- economics

const FED_LABELS = ['50+ bps decrease', '25 bps decrease', 'No change', '25+ bps increase']
const FED_LABELS_K = ['Decrease of 50+ bps', 'Decrease of 25 bps', 'No change', 'Increase of 25+ bps']

export const fedDecision: Template<{ bank: string; code: string }> = {
  id: 'fed-decision',
  category: 'economics',
  weight: 2,
  horizonDays: [10, 400],
  decoyShiftDays: 42,
  pick: (rng) => rng.pick([{ bank: 'Fed', code: 'FED' }, { bank: 'ECB', code: 'ECB' }, { bank: 'BoE', code: 'BOE' }]),
  build: ({ bank, code }, endTime, rng) => ({
    templateId: 'fed-decision',
    key: `fed:${code}:${dateCode(endTime)}`,
    category: 'economics',
    kind: 'multi',
    subject: `${bank} decision ${monthYear(endTime)}`,
    endTime,
    model: { kind: 'multi', bases: [rng.normal() - 1.5, rng.normal() + 0.6, rng.normal() + 0.9, rng.normal() - 1.8] },
    complementary: false,
    contracts: FED_LABELS.map((label, i) => ({
      label,
      onVenuep: true,
      onVenuek: true,
      venuepLabel: label,
      venuekLabel: FED_LABELS_K[i] as string,
      venuekSuffix: ['C50', 'C25', 'H0', 'H25'][i] as string,
    })),
    venuep: {
      title: `${bank} decision in ${monthYear(endTime)}?`,
      slug: slugify(`${bank} decision in ${monthYear(endTime)}`),
      description: `Resolves according to the ${bank}'s announced change to its policy rate at the ${monthYear(endTime)} meeting.`,
      negRisk: true,
      outcomes: undefined,
      marketQuestion: (i) => `${bank} ${FED_LABELS[i]} after ${monthYear(endTime)} meeting?`,
      groupItemTitle: (i) => FED_LABELS[i] as string,
    },
    venuek: {
      seriesTicker: `KX${code}DECISION`,
      seriesTitle: `${bank} rate decision`,
      seriesCategory: 'Economics',
      frequency: 'custom',
      eventTicker: `KX${code}DECISION-${dateCode(endTime)}`,
      title: `${bank} rate decision on ${shortDate(endTime)}`,
      subTitle: `Meeting of ${shortDate(endTime)}`,
      mutuallyExclusive: true,
      strikeType: 'custom',
      marketTitle: (i) => `Will the ${bank} announce a ${FED_LABELS_K[i]!.toLowerCase()} on ${shortDate(endTime)}?`,
    },
  }),
}

export const econLadder: Template<{ series: (typeof N.ECON_SERIES)[number]; country: readonly [string, string] }> = {
  id: 'econ-ladder',
  category: 'economics',
  weight: 2,
  horizonDays: [15, 120],
  decoyShiftDays: 31,
  pick: (rng) => ({ series: rng.pick(N.ECON_SERIES), country: rng.pick(N.COUNTRIES) }),
  build: ({ series: [name, code, unit, level, step], country: [cname, ccode] }, endTime, rng) => {
    const count = rng.int(5, 7)
    const start = Number((level - step * Math.floor(count / 2) + step * (rng.int(-2, 2))).toFixed(2))
    const values = Array.from({ length: count }, (_, i) => Number((start + i * step).toFixed(2)))
    const offsetP = rng.int(0, 1)
    const m = monthYear(endTime)
    return {
      templateId: 'econ-ladder',
      key: `econ:${code}:${ccode}:${monthCode(endTime)}`,
      category: 'economics',
      kind: 'ladder',
      subject: `${cname} ${name} ${m}`,
      endTime,
      model: { kind: 'ladder', logLevel: Math.log(level + (rng.next() - 0.5) * step * 2), sigma: (step * 2.2) / level },
      complementary: false,
      contracts: values.map((v, i) => ({
        label: `Above ${v}${unit}`,
        threshold: v,
        onVenuep: i >= offsetP && i < count - (1 - offsetP),
        onVenuek: true,
        venuepLabel: `${v}${unit}`,
        venuekLabel: `Above ${v}${unit}`,
        venuekSuffix: `T${v}`,
        floor: v,
      })),
      venuep: {
        title: `${cname} ${name} above ___ in ${m}?`,
        slug: slugify(`${cname} ${name} above in ${m}`),
        description: `Each market resolves Yes if the reported ${cname} ${name} for ${m} is above its threshold.`,
        negRisk: false,
        outcomes: undefined,
        marketQuestion: (i) => `Will ${cname} ${name} be above ${values[i]}${unit} in ${m}?`,
        groupItemTitle: (i) => `${values[i]}${unit}`,
      },
      venuek: {
        seriesTicker: `KX${code}${ccode}`,
        seriesTitle: `${cname} ${name}`,
        seriesCategory: 'Economics',
        frequency: 'monthly',
        eventTicker: `KX${code}${ccode}-${monthCode(endTime)}`,
        title: `${cname} ${name} in ${m}`,
        subTitle: `${m} release`,
        mutuallyExclusive: false,
        strikeType: 'greater',
        marketTitle: (i) => `Will ${cname} ${name} be above ${values[i]}${unit} for ${m}?`,
      },
    }
  },
}

export const recession: Template<{ country: readonly [string, string] }> = {
  id: 'recession',
  category: 'economics',
  weight: 1,
  horizonDays: [60, 500],
  decoyShiftDays: 365,
  pick: (rng) => ({ country: rng.pick(N.COUNTRIES) }),
  build: ({ country: [name, code] }, endTime, rng) => {
    const y = year(endTime)
    return {
      templateId: 'recession',
      key: `recession:${code}:${y}`,
      category: 'economics',
      kind: 'binary',
      subject: `${name} recession ${y}`,
      endTime,
      model: { kind: 'binary', base: logit(0.15 + rng.next() * 0.4) },
      complementary: false,
      contracts: [binaryContract()],
      venuep: {
        title: `${name} recession in ${y}?`,
        slug: slugify(`${name} recession in ${y}`),
        description: `Resolves Yes if ${name} records two consecutive quarters of negative GDP growth in ${y}.`,
        negRisk: false,
        outcomes: ['Yes', 'No'],
        marketQuestion: () => `${name} recession in ${y}?`,
        groupItemTitle: undefined,
      },
      venuek: {
        seriesTicker: `KXREC${code}`,
        seriesTitle: `${name} recession`,
        seriesCategory: 'Economics',
        frequency: 'annual',
        eventTicker: `KXREC${code}-${String(y % 100)}`,
        title: `Will ${name} enter a recession during ${y}?`,
        subTitle: `Calendar year ${y}`,
        mutuallyExclusive: false,
        strikeType: 'structured',
        marketTitle: () => `Will ${name} be in a recession in ${y}?`,
      },
    }
  },
}
