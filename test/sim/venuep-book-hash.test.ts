import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { test } from 'node:test'
import { summaryHash } from '../../src/sim/venuep/book-hash.js'
import { tokenLevels, type TokenIndex } from '../../src/sim/venuep/book-view.js'
import { fmtMicros, fmtNum } from '../../src/sim/venuep/format.js'
import { SimBook, type LevelChange } from '../../src/sim/world/book-model.js'
import { Rng } from '../../src/sim/world/random.js'
import type { VpMarket } from '../../src/sim/venuep/types.js'

/** The recipe as venuep.md §2.2 and clob-client state it: SHA-1 of JSON.stringify(summary) with hash "". */
function recipeHash(market: VpMarket, index: TokenIndex, book: SimBook, lastTradePrice: string): string {
  const { bids, asks } = tokenLevels(book, index)
  const summary = {
    market: market.conditionId,
    asset_id: market.tokenIds[index],
    timestamp: String(book.updatedAt),
    hash: '',
    bids: bids.map(([p, s]) => ({ price: fmtMicros(p), size: fmtMicros(s) })),
    asks: asks.map(([p, s]) => ({ price: fmtMicros(p), size: fmtMicros(s) })),
    min_order_size: fmtNum(market.minOrderSize),
    tick_size: fmtMicros(book.tickMicros),
    neg_risk: market.event.negRisk,
    last_trade_price: lastTradePrice,
  }
  return createHash('sha1').update(JSON.stringify(summary)).digest('hex')
}

function market(rng: Rng): VpMarket {
  const tokenId = () => String(rng.int(1, 9)) + Array.from({ length: 76 }, () => rng.int(0, 9)).join('')
  return {
    conditionId: `0x${Array.from({ length: 64 }, () => '0123456789abcdef'[rng.int(0, 15)]).join('')}`,
    tokenIds: [tokenId(), tokenId()],
    minOrderSize: rng.pick([1, 5, 0.5, 15]),
    event: { negRisk: rng.chance(0.5) },
  } as unknown as VpMarket
}

function book(rng: Rng, levelsPerSide: number): SimBook {
  const tick = rng.pick([10_000, 1_000])
  const b = new SimBook(tick, 1_795_000_000_000 + rng.int(0, 1e9))
  const mid = rng.int(200, 800) * 1_000
  const out: LevelChange[] = []
  for (let i = 0; i < levelsPerSide; i++) {
    // Sizes from a hundredth of a share to millions, with and without fractions; some levels left out.
    const size = () =>
      rng.pick([rng.int(1, 99) * 10_000, rng.int(1, 5_000_000) * 1_000_000, rng.int(1, 99_999_999) * 10_000])
    const bid = mid - (i + 1) * tick
    const ask = mid + (i + 1) * tick
    if (bid > 0 && rng.chance(0.9)) b.set('bid', bid, size(), out)
    if (ask < 1_000_000 && rng.chance(0.9)) b.set('ask', ask, size(), out)
  }
  return b
}

test('summaryHash writes exactly the bytes the venue recipe hashes, for both tokens, any book shape', () => {
  const rng = new Rng(11)
  let checked = 0
  for (let i = 0; i < 400; i++) {
    const m = market(rng)
    // Empty books, one-sided books, ordinary ladders and books larger than the scratch buffers start with.
    const b = book(rng, rng.pick([0, 1, 3, 20, 20, 20, 150, 600]))
    if (rng.chance(0.1)) b.bids.clear()
    const last = rng.pick(['', '0.47', '0.5', '0.999'])
    for (const index of [0, 1] as const) {
      assert.equal(summaryHash(m, index, b, last), recipeHash(m, index, b, last), `book ${i} token ${index}`)
      checked++
    }
  }
  assert.equal(checked, 800)
})
