/**
 * Question templates. Each produces one canonical question and how each listing style (types.ts: `slugs`,
 * `tickers`; a venue's peer lists one) words, dates and identifies it. The two styles deliberately differ in
 * phrasing, identifiers, dates, spellings and in which contracts they list (ladder strikes, candidates, deadlines),
 * the way real venues do (the shapes live in ../shapes). A template's
 * subject can be rebuilt with another date, or as the template's own look-alike (`decoy`), to make a decoy: alike,
 * but a different question.
 *
 * The templates live one theme per file (politics, national races, deadline ladders, economics, sports, crypto,
 * culture and tech, climate), with the types they share in types.ts and the shared helpers in helpers.ts.
 * TEMPLATES below lists them in a fixed order: the world is generated deterministically from a seed, so the order
 * matters.
 */
import { temperature, hottestYear } from './climate.js'
import { coinLadder, coinTouch } from './crypto.js'
import { cryptoHourly } from './crypto-hourly.js'
import { award, album, launch, mention, topLab } from './culture.js'
import { deadline } from './deadlines.js'
import { esportsMap } from './esports.js'
import { golfFinish } from './golf.js'
import { fedDecision, econLadder, rateCuts, recession } from './economics.js'
import { appointment, partyRace, presidential } from './elections.js'
import { governor, parliament } from './politics.js'
import { headToHead, champion } from './sports.js'
import { soccerMatch } from './soccer.js'
import type { Template } from './types.js'

export type { BuildContext, ContractSpec, QuestionSpec, Template } from './types.js'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const TEMPLATES: readonly Template<any>[] = [
  governor,
  parliament,
  presidential,
  partyRace,
  appointment,
  deadline,
  fedDecision,
  econLadder,
  rateCuts,
  recession,
  headToHead,
  champion,
  coinLadder,
  coinTouch,
  award,
  album,
  launch,
  topLab,
  temperature,
  hottestYear,
  mention,
  // The short-dated series both real venues list (appended: the templates before them keep their order).
  cryptoHourly,
  esportsMap,
  soccerMatch,
  golfFinish,
]
