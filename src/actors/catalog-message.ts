import type { Catalog } from '../model/types.js'
import type { CatalogLoad } from './catalog-load.js'
import type { CatalogSnapshot } from './catalog-snapshot.js'
import type { InstrumentPlan } from './instrument-plan.js'
import type { InstrumentState } from './instrument-state.js'
import type { InstrumentEdit } from './streamed-index.js'

/** What a catalog sync hands its venue actor (catalog-loader.ts): one message, installed in order with the feed. */
export type CatalogMessage =
  | {
      readonly type: 'catalog_loaded'
      readonly snapshot: CatalogSnapshot
      readonly instruments: readonly string[]
      /** Prepared against the actor's instrument map; ignored (full rebuild) if that map was replaced since. */
      readonly plan?: InstrumentPlan<InstrumentState>
      /**
       * Instead of a plan, for a snapshot made of a few changed events: the instruments that came and went, applied
       * to the actor's map in place; ignored (full rebuild) if the map changed since (streamed-index.ts).
       */
      readonly edit?: InstrumentEdit
      /** The sync that listed it (pages, events, start), for the log and the next sync's estimate. */
      readonly load?: CatalogLoad
      /** Events it mapped afresh and reused (mapped-records.ts), for the log. */
      readonly mapping?: Catalog['mapping']
      /** Read from the venue's catalog file at start (catalog-file.ts), not listed from the venue. */
      readonly fromFile?: boolean
    }
  | {
      /** The sync listed exactly the installed catalog (the same event objects: mapped-records.ts): nothing to install. */
      readonly type: 'catalog_unchanged'
      readonly fetchedAt: number
      readonly load?: CatalogLoad
      readonly mapping?: Catalog['mapping']
    }
  | { readonly type: 'catalog_failed'; readonly error: string; readonly load?: CatalogLoad }
