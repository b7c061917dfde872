import type { IdentifierFacts } from '../../model/types.js'

/**
 * What venuek's tickers state (docs/venues/venuek.md, "Tickers"). An event ticker is its series ticker, a dash, and
 * a part naming the occasion: a date code `YYMONDD` in US Eastern time, often followed by the time of day (`HH` for an
 * hourly series, `HHMM` for a game's start) and, for a head-to-head, the participants' codes run together
 * ("26MAY101000FURHERO"); further dash-separated parts follow (a map number). A market ticker adds a last part: the
 * strike ("T78999.99", "B78.5") or the code of the participant its YES side is ("FUR", "TIE").
 *
 * Series tickers share the prefix "KX" (the exchange's namespace), which says nothing about the series.
 */
const MONTHS: Readonly<Record<string, string>> = {
  JAN: '01',
  FEB: '02',
  MAR: '03',
  APR: '04',
  MAY: '05',
  JUN: '06',
  JUL: '07',
  AUG: '08',
  SEP: '09',
  OCT: '10',
  NOV: '11',
  DEC: '12',
}

/** `YYMONDD`, then four digits (HHMM) or, alone at the end, two (HH); then the participants' codes run together. */
const OCCASION = /^(\d{2})([A-Z]{3})(\d{2})(?:(\d{4})|(\d{2})$)?([A-Z0-9]*)$/

export function eventTickerFacts(eventTicker: string, seriesTicker: string | undefined): IdentifierFacts | undefined {
  const dash = eventTicker.indexOf('-')
  const series = seriesTicker ?? (dash > 0 ? eventTicker.slice(0, dash) : undefined)
  const league = series === undefined ? undefined : series.replace(/^KX/, '').toLowerCase() || undefined
  const rest = dash > 0 ? (eventTicker.slice(dash + 1).split('-')[0] ?? '') : ''
  const m = OCCASION.exec(rest)
  const month = m === null ? undefined : MONTHS[m[2] as string]
  if (m === null || month === undefined)
    return league === undefined
      ? undefined
      : { day: undefined, minutes: undefined, league, codes: undefined, codeRun: undefined }
  const hhmm = m[4]
  const hh = m[5]
  const minutes =
    hhmm !== undefined
      ? minutesOf(Number(hhmm.slice(0, 2)), Number(hhmm.slice(2)))
      : hh !== undefined
        ? minutesOf(Number(hh), 0)
        : undefined
  const run = m[6] === undefined || m[6] === '' ? undefined : m[6].toLowerCase()
  return { day: `20${m[1]}-${month}-${m[3]}`, minutes, league, codes: undefined, codeRun: run }
}

function minutesOf(h: number, m: number): number | undefined {
  return h < 24 && m < 60 ? h * 60 + m : undefined
}

/**
 * The participant code a market ticker ends with, lower case: its last dash part when that is a code (letters and
 * digits, not a strike such as "T78999.99" or "B78.5"); undefined otherwise.
 */
export function marketTickerCode(ticker: string, eventTicker: string): string | undefined {
  if (!ticker.startsWith(`${eventTicker}-`)) return undefined
  const last = ticker.slice(eventTicker.length + 1)
  if (!/^[A-Z0-9]{1,12}$/.test(last) || /^[TB]\d/.test(last) || /^\d+$/.test(last)) return undefined
  return last.toLowerCase()
}
