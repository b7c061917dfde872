import { dateCode, longDate, shortDate, slugify } from '../dates.js'
import * as N from '../names.js'
import { logit } from '../path.js'
import { binaryContract, DAY_MS, fmtMoney, ladder } from './helpers.js'
import type { Template } from './types.js'

// ------------------------------------------------------------------------------------------- crypto

export const coinLadder: Template<{ coin: (typeof N.COINS)[number] }> = {
  id: 'coin-ladder',
  category: 'crypto',
  weight: 4,
  horizonDays: [1, 60],
  decoyShiftDays: 7,
  pick: (rng) => ({ coin: rng.pick(N.COINS) }),
  build: ({ coin: [name, sym, level] }, endTime, rng) => {
    const drifted = level * Math.exp(rng.normal() * 0.08)
    const { values, onP, onK } = ladder(drifted, 0.04, rng)
    return {
      templateId: 'coin-ladder',
      key: `coin:${sym}:${dateCode(endTime)}`,
      category: 'crypto',
      kind: 'ladder',
      subject: `${name} price ${shortDate(endTime)}`,
      endTime,
      model: { kind: 'ladder', logLevel: Math.log(drifted), sigma: 0.06 },
      complementary: false,
      contracts: values.map((v, i) => ({
        label: `Above ${fmtMoney(v)}`,
        threshold: v,
        onVenuep: onP[i] as boolean,
        onVenuek: onK[i] as boolean,
        venuepLabel: fmtMoney(v),
        venuekLabel: `${fmtMoney(v)} or above`,
        venuekSuffix: `T${v}`,
        floor: v,
      })),
      venuep: {
        title: `${name} above ___ on ${longDate(endTime)}?`,
        slug: slugify(`${name} above on ${longDate(endTime)}`),
        description: `Each market resolves Yes if the ${sym}/USD price at 12:00 ET on ${longDate(endTime)} is above its threshold.`,
        negRisk: false,
        outcomes: undefined,
        marketQuestion: (i) => `Will the price of ${name} be above ${fmtMoney(values[i] as number)} on ${longDate(endTime)}?`,
        groupItemTitle: (i) => fmtMoney(values[i] as number),
      },
      venuek: {
        seriesTicker: `KX${sym}D`,
        seriesTitle: `${name} daily price`,
        seriesCategory: 'Crypto',
        frequency: 'daily',
        eventTicker: `KX${sym}D-${dateCode(endTime)}`,
        title: `${name} price on ${shortDate(endTime)}?`,
        subTitle: `At 12pm ET, ${shortDate(endTime)}`,
        mutuallyExclusive: false,
        strikeType: 'greater',
        marketTitle: (i) => `Will ${sym} be at or above ${fmtMoney(values[i] as number)} at 12pm ET on ${shortDate(endTime)}?`,
      },
    }
  },
}

export const coinTouch: Template<{ coin: (typeof N.COINS)[number]; factor: number }> = {
  id: 'coin-touch',
  category: 'crypto',
  weight: 2,
  horizonDays: [20, 365],
  decoyShiftDays: 90,
  pick: (rng) => ({ coin: rng.pick(N.COINS), factor: rng.pick([1.25, 1.5, 2]) }),
  build: ({ coin: [name, sym, level], factor }, endTime, rng) => {
    const target = Number((level * factor).toPrecision(2))
    return {
      templateId: 'coin-touch',
      key: `touch:${sym}:${target}:${dateCode(endTime)}`,
      category: 'crypto',
      kind: 'binary',
      subject: `${name} reaches ${fmtMoney(target)} by ${shortDate(endTime)}`,
      endTime,
      model: { kind: 'binary', base: logit(0.1 + rng.next() * 0.35) },
      complementary: false,
      contracts: [binaryContract()],
      venuep: {
        title: `Will ${name} reach ${fmtMoney(target)} by ${longDate(endTime)}?`,
        slug: slugify(`will ${name} reach ${fmtMoney(target)} by ${longDate(endTime)}`),
        description: `Resolves Yes if any 1-minute ${sym}/USD candle trades at or above ${fmtMoney(target)} before the deadline.`,
        negRisk: false,
        outcomes: ['Yes', 'No'],
        marketQuestion: () => `Will ${name} reach ${fmtMoney(target)} by ${longDate(endTime)}?`,
        groupItemTitle: undefined,
      },
      venuek: {
        seriesTicker: `KX${sym}MAX`,
        seriesTitle: `${name} new high`,
        seriesCategory: 'Crypto',
        frequency: 'custom',
        eventTicker: `KX${sym}MAX-${dateCode(endTime)}-${target}`,
        title: `${sym} to hit ${fmtMoney(target)} before ${shortDate(endTime + DAY_MS)}?`,
        subTitle: `Before ${shortDate(endTime + DAY_MS)}`,
        mutuallyExclusive: false,
        strikeType: 'greater',
        marketTitle: () => `Will ${sym} trade at or above ${fmtMoney(target)} before ${shortDate(endTime + DAY_MS)}?`,
      },
    }
  },
}
