import { createHash } from 'node:crypto'
import type { CatalogEvent } from '../../../src/model/types.js'
import { mapVenuekEvent } from '../../../src/venues/venuek/map-catalog.js'
import { mapGammaEvent } from '../../../src/venues/venuep/map-catalog.js'
import { contractsOf, SpecCache, type ContractSpec } from '../../../src/spreads/matching/contract.js'

/**
 * Catalog events built from the venues' own wire shapes (Gamma events, venuek events with nested markets) and mapped
 * by the real adapters, for matcher tests written with the venues' real texts: what the matcher sees is what the
 * service would map from those payloads. Ids and token ids are derived from the texts (they carry no meaning).
 */
export interface GammaMarketInput {
  readonly question: string
  /** Default ["Yes", "No"]. */
  readonly outcomes?: readonly [string, string]
  readonly groupItemTitle?: string
  readonly slug?: string
  readonly endDate?: string
}

export function venuepEvent(
  slug: string,
  title: string,
  markets: readonly GammaMarketInput[],
  endDate = '2026-05-10T20:00:00Z',
): CatalogEvent {
  const e = mapGammaEvent(
    {
      slug,
      title,
      active: true,
      closed: false,
      endDate,
      markets: markets.map((m, i) => ({
        question: m.question,
        slug: m.slug ?? `${slug}-${i}`,
        conditionId: `0x${hash(`${slug}:${i}`)}`,
        outcomes: JSON.stringify(m.outcomes ?? ['Yes', 'No']),
        clobTokenIds: JSON.stringify([hash(`${slug}:${i}:0`), hash(`${slug}:${i}:1`)]),
        outcomePrices: JSON.stringify(['0.5', '0.5']),
        active: true,
        closed: false,
        endDate: m.endDate ?? endDate,
        ...(m.groupItemTitle === undefined ? {} : { groupItemTitle: m.groupItemTitle }),
      })),
    },
    { eventUrl: (s) => `https://venuep.example/event/${s}` },
  )
  if (e === undefined) throw new Error(`venuep event ${slug} did not map`)
  return e
}

export interface KalshiMarketInput {
  /** The market ticker's last part ("FUR", "T78999.99", "TIE"). */
  readonly suffix: string
  readonly yes_sub_title: string
  /** Default: the event title. */
  readonly title?: string
  readonly close_time?: string
  readonly strike_type?: string
  readonly floor_strike?: number
  readonly cap_strike?: number
}

export function venuekEvent(
  eventTicker: string,
  title: string,
  markets: readonly KalshiMarketInput[],
  more: { readonly sub_title?: string; readonly close_time?: string } = {},
): CatalogEvent {
  const series = eventTicker.split('-')[0] as string
  const e = mapVenuekEvent(
    {
      event_ticker: eventTicker,
      series_ticker: series,
      title,
      ...(more.sub_title === undefined ? {} : { sub_title: more.sub_title }),
      markets: markets.map((m) => ({
        ticker: `${eventTicker}-${m.suffix}`,
        event_ticker: eventTicker,
        title: m.title ?? title,
        yes_sub_title: m.yes_sub_title,
        no_sub_title: m.yes_sub_title,
        status: 'active',
        close_time: m.close_time ?? more.close_time ?? '2026-05-10T20:00:00Z',
        ...(m.strike_type === undefined ? {} : { strike_type: m.strike_type }),
        ...(m.floor_strike === undefined ? {} : { floor_strike: m.floor_strike }),
        ...(m.cap_strike === undefined ? {} : { cap_strike: m.cap_strike }),
      })),
    },
    new Map(),
    { eventUrl: (t) => `https://venuek.example/events/${t}` },
  )
  if (e === undefined) throw new Error(`venuek event ${eventTicker} did not map`)
  return e
}

/** The contracts of an event, by the outcome title (venuep) or market ticker suffix (venuek) that names each. */
export function contracts(e: CatalogEvent): ContractSpec[] {
  return contractsOf(e, new SpecCache())
}

/** The contract of `e` whose outcome title or market ticker ends with `name`. */
export function contract(e: CatalogEvent, name: string): ContractSpec {
  const all = contracts(e)
  if (all.length === 1 && e.markets[0]?.outcomes.length === 2) return all[0] as ContractSpec
  const hit = all.find((c) => c.outcome.outcomeId.endsWith(`-${name}`)) ?? all.find((c) => c.outcome.title === name)
  if (hit === undefined)
    throw new Error(`no contract ${name} in ${e.eventId}: ${all.map((c) => c.outcome.title).join(', ')}`)
  return hit
}

function hash(s: string): string {
  return createHash('sha256').update(s).digest('hex').slice(0, 40)
}
