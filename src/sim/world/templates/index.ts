/**
 * Question templates. Each produces one canonical question and how each venue words and identifies it.
 * The two venues deliberately differ in phrasing, identifiers and sometimes in which contracts they list
 * (ladder thresholds), the way real venues do. A template's subject can be rebuilt with another date or
 * threshold set to make a decoy: same wording, different question.
 *
 * The templates live one category per file (politics, economics, sports, crypto, culture and tech, climate),
 * with the types they share in types.ts and the shared helpers in helpers.ts. TEMPLATES below lists them in a
 * fixed order: the world is generated deterministically from a seed, so the order matters.
 */
import { temperature, hottestYear } from './climate.js'
import { coinLadder, coinTouch } from './crypto.js'
import { award, album, launch, topLab } from './culture.js'
import { fedDecision, econLadder, recession } from './economics.js'
import { governor, parliament, leaveOffice } from './politics.js'
import { headToHead, champion } from './sports.js'
import type { Template } from './types.js'

export type { ContractSpec, QuestionSpec, Template } from './types.js'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const TEMPLATES: readonly Template<any>[] = [
  governor, parliament, leaveOffice, fedDecision, econLadder, recession, headToHead, champion, coinLadder, coinTouch,
  award, album, launch, topLab, temperature, hottestYear,
]
