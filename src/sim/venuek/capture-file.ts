import { join } from 'node:path'
import { CaptureFormatError, checkUnique, readChecked } from '../world/capture-check.js'
import { type VkCapturedEvent, VkCatalogFileSchema } from './capture-schema.js'

/** `venuek.json` in a directory of captured catalogs (test/fixtures/real-venues/FORMAT.md), checked. */
export function readVenuekCapture(dir: string): readonly VkCapturedEvent[] {
  const file = join(dir, 'venuek.json')
  const events = readChecked(file, VkCatalogFileSchema).events
  checkUnique(
    file,
    'event ticker',
    events.map((e) => e.event_ticker),
  )
  checkUnique(
    file,
    'market ticker',
    events.flatMap((e) => e.markets.map((m) => m.ticker)),
  )
  for (const e of events) {
    for (const m of e.markets) {
      if (m.event_ticker !== e.event_ticker)
        throw new CaptureFormatError(
          `${file}: market ${m.ticker} names event ${m.event_ticker} but sits in ${e.event_ticker}`,
        )
    }
  }
  return events
}
