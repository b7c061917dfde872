import { dateCode, longDate, shortDate, slugify, year } from '../dates.js'
import * as N from '../names.js'
import { logit } from '../path.js'
import { binaryContract } from './helpers.js'
import type { Template } from './types.js'

// ------------------------------------------------------------------------------------------- climate

export const temperature: Template<{ city: (typeof N.CITIES)[number] }> = {
  id: 'temperature',
  category: 'climate',
  weight: 3,
  horizonDays: [1, 10],
  decoyShiftDays: 1,
  pick: (rng) => ({ city: rng.pick(N.CITIES) }),
  build: ({ city: [name, code, base] }, endTime, rng) => {
    const center = base + rng.int(-6, 6)
    const lo = center - 5
    const brackets: { label: string; labelK: string; floor?: number; cap?: number }[] = [
      { label: `${lo - 1}°F or below`, labelK: `${lo - 1}° or below`, cap: lo - 1 },
    ]
    for (let t = lo; t < lo + 10; t += 2) brackets.push({ label: `${t}-${t + 1}°F`, labelK: `${t}° to ${t + 1}°`, floor: t, cap: t + 1 })
    brackets.push({ label: `${lo + 10}°F or higher`, labelK: `${lo + 10}° or above`, floor: lo + 10 })
    return {
      templateId: 'temperature',
      key: `temp:${code}:${dateCode(endTime)}`,
      category: 'climate',
      kind: 'multi',
      subject: `${name} high temperature ${shortDate(endTime)}`,
      endTime,
      model: { kind: 'multi', bases: brackets.map((_, i) => -Math.abs(i - 3.5 + rng.normal() * 0.8) * 0.7) },
      complementary: false,
      contracts: brackets.map((b) => ({
        label: b.label,
        onVenuep: true,
        onVenuek: true,
        venuepLabel: b.label,
        venuekLabel: b.labelK,
        venuekSuffix: b.floor === undefined ? `T${b.cap}` : b.cap === undefined ? `T${b.floor}` : `B${b.floor + 0.5}`,
        ...(b.floor === undefined ? {} : { floor: b.floor }),
        ...(b.cap === undefined ? {} : { cap: b.cap }),
      })),
      venuep: {
        title: `Highest temperature in ${name} on ${longDate(endTime)}?`,
        slug: slugify(`highest temperature in ${name} on ${longDate(endTime)}`),
        description: `Resolves to the bracket containing the highest temperature recorded in ${name} on ${longDate(endTime)}.`,
        negRisk: true,
        outcomes: undefined,
        marketQuestion: (i) => `Will the highest temperature in ${name} be ${brackets[i]!.label} on ${longDate(endTime)}?`,
        groupItemTitle: (i) => brackets[i]!.label,
      },
      venuek: {
        seriesTicker: `KXHIGH${code}`,
        seriesTitle: `Highest temperature in ${name}`,
        seriesCategory: 'Climate and Weather',
        frequency: 'daily',
        eventTicker: `KXHIGH${code}-${dateCode(endTime)}`,
        title: `Highest temperature in ${name} today? (${shortDate(endTime)})`,
        subTitle: shortDate(endTime),
        mutuallyExclusive: true,
        strikeType: 'between',
        marketTitle: (i) => `Will the high temp in ${name} be ${brackets[i]!.labelK} on ${shortDate(endTime)}?`,
      },
    }
  },
}

export const hottestYear: Template<Record<string, never>> = {
  id: 'hottest-year',
  category: 'climate',
  weight: 0.3,
  horizonDays: [30, 700],
  decoyShiftDays: 365,
  pick: () => ({}),
  build: (_, endTime, rng) => {
    const y = year(endTime)
    return {
      templateId: 'hottest-year',
      key: `hottest:${y}`,
      category: 'climate',
      kind: 'binary',
      subject: `${y} hottest year`,
      endTime,
      model: { kind: 'binary', base: logit(0.3 + rng.next() * 0.4) },
      complementary: false,
      contracts: [binaryContract()],
      venuep: {
        title: `Will ${y} be the hottest year on record?`,
        slug: slugify(`will ${y} be the hottest year on record`),
        description: `Resolves Yes if ${y} is reported as the warmest calendar year in the global surface temperature record.`,
        negRisk: false,
        outcomes: ['Yes', 'No'],
        marketQuestion: () => `Will ${y} be the hottest year on record?`,
        groupItemTitle: undefined,
      },
      venuek: {
        seriesTicker: 'KXHOTYEAR',
        seriesTitle: 'Hottest year on record',
        seriesCategory: 'Climate and Weather',
        frequency: 'annual',
        eventTicker: `KXHOTYEAR-${String(y % 100)}`,
        title: `${y} warmest year ever recorded?`,
        subTitle: `Calendar year ${y}`,
        mutuallyExclusive: false,
        strikeType: 'structured',
        marketTitle: () => `Will ${y} be the warmest year on record?`,
      },
    }
  },
}
