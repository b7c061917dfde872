import { join } from 'node:path'
import { checkUnique, readChecked } from '../world/capture-check.js'
import { type VpCapturedEvent, VpCatalogFileSchema } from './capture-schema.js'

/** `venuep.json` in a directory of captured catalogs (test/fixtures/real-venues/FORMAT.md), checked. */
export function readVenuepCapture(dir: string): readonly VpCapturedEvent[] {
  const file = join(dir, 'venuep.json')
  const events = readChecked(file, VpCatalogFileSchema).events
  checkUnique(
    file,
    'event id',
    events.map((e) => e.id),
  )
  checkUnique(
    file,
    'event slug',
    events.map((e) => e.slug),
  )
  checkUnique(
    file,
    'market id',
    events.flatMap((e) => e.markets.map((m) => m.id)),
  )
  checkUnique(
    file,
    'condition id',
    events.flatMap((e) => e.markets.map((m) => m.conditionId)),
  )
  checkUnique(
    file,
    'token id',
    events.flatMap((e) => e.markets.flatMap((m) => m.clobTokenIds)),
  )
  return events
}
