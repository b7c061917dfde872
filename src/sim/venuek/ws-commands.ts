/**
 * venuek WS v2 client commands (venuek.md §6.1), parsed and validated into typed commands, or into the
 * venue's numbered error (§6.2). Checks that need the world (unknown tickers, unknown sids) happen when the
 * command runs, in ws-session.ts.
 */
export type Channel = 'orderbook_delta' | 'ticker' | 'trade'

export const CHANNELS: readonly Channel[] = ['orderbook_delta', 'ticker', 'trade']

/** The error codes the simulator produces, with the venue's messages. */
export const WS_ERROR_MESSAGES = {
  1: 'Unable to process message',
  2: 'Params required',
  3: 'Channels required',
  4: 'Subscription IDs required',
  5: 'Unknown command',
  7: 'Unknown subscription ID',
  8: 'Unknown channel name',
  11: 'Invalid parameter',
  12: 'Exactly one subscription ID is required',
  13: 'Unsupported action',
  14: 'Market Ticker required',
  15: 'Action required',
} as const

export type WsErrorCode = keyof typeof WS_ERROR_MESSAGES

export type UpdateAction = 'add_markets' | 'delete_markets' | 'get_snapshot'

export type Command =
  | {
      readonly cmd: 'subscribe'
      readonly id: number
      readonly channels: readonly Channel[]
      /** Undefined = every market (ticker and trade only). */
      readonly marketTickers: readonly string[] | undefined
      readonly marketIds: readonly string[] | undefined
      readonly useYesPrice: boolean
      readonly sendInitialSnapshot: boolean
      readonly skipTickerAck: boolean
    }
  | { readonly cmd: 'unsubscribe'; readonly id: number; readonly sids: readonly number[] }
  | {
      readonly cmd: 'update_subscription'
      readonly id: number
      readonly sid: number
      readonly action: UpdateAction
      readonly marketTickers: readonly string[]
    }
  | { readonly cmd: 'list_subscriptions'; readonly id: number }

export interface CommandRejection {
  readonly cmd: undefined
  readonly id: number
  readonly code: WsErrorCode
}

type Json = Record<string, unknown>

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
const isSid = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0
const isStringList = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((s) => typeof s === 'string' && s.length > 0)

function optionalBool(params: Json, name: string): boolean | undefined | null {
  const v = params[name]
  if (v === undefined) return undefined
  return typeof v === 'boolean' ? v : null
}

/** Market tickers given as `market_ticker` or `market_tickers` (never both); null when malformed. */
function tickersOf(params: Json): string[] | undefined | null {
  const one = params['market_ticker']
  const many = params['market_tickers']
  if (one !== undefined && many !== undefined) return null
  if (one !== undefined) return typeof one === 'string' && one.length > 0 ? [one] : null
  if (many === undefined) return undefined
  return isStringList(many) && many.length > 0 ? [...new Set(many)] : null
}

export function parseCommand(text: string): Command | CommandRejection {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    return { cmd: undefined, id: 0, code: 1 }
  }
  if (!isObject(raw)) return { cmd: undefined, id: 0, code: 1 }
  const idRaw = raw['id'] ?? 0
  if (typeof idRaw !== 'number' || !Number.isSafeInteger(idRaw) || idRaw < 0) return { cmd: undefined, id: 0, code: 1 }
  const id = idRaw
  const reject = (code: WsErrorCode): CommandRejection => ({ cmd: undefined, id, code })
  const cmd = raw['cmd']
  if (cmd === 'list_subscriptions') return { cmd, id }
  if (cmd !== 'subscribe' && cmd !== 'unsubscribe' && cmd !== 'update_subscription')
    return reject(typeof cmd === 'string' ? 5 : 1)
  const params = raw['params']
  if (!isObject(params)) return reject(2)

  if (cmd === 'unsubscribe') {
    const sids = params['sids']
    if (!Array.isArray(sids) || sids.length === 0) return reject(4)
    if (!sids.every(isSid)) return reject(11)
    return { cmd, id, sids: [...new Set(sids)] }
  }

  if (cmd === 'update_subscription') {
    const sid = params['sid']
    const sids = params['sids']
    let target: unknown
    if (sid !== undefined && sids !== undefined) return reject(12)
    if (sid !== undefined) target = sid
    else if (Array.isArray(sids) && sids.length === 1) target = sids[0]
    else return reject(12)
    if (!isSid(target)) return reject(11)
    const action = params['action']
    if (action === undefined) return reject(15)
    if (action !== 'add_markets' && action !== 'delete_markets' && action !== 'get_snapshot') return reject(13)
    // get_snapshot takes `market_tickers` only (venuek.md §6.1).
    if (action === 'get_snapshot' && params['market_ticker'] !== undefined) return reject(11)
    const tickers = tickersOf(params)
    if (tickers === null) return reject(11)
    if (tickers === undefined) return reject(14)
    return { cmd, id, sid: target, action, marketTickers: tickers }
  }

  const channels = params['channels']
  if (!Array.isArray(channels) || channels.length === 0) return reject(3)
  if (!channels.every((c) => (CHANNELS as readonly unknown[]).includes(c))) return reject(8)
  const tickers = tickersOf(params)
  if (tickers === null) return reject(11)
  const ids = params['market_ids'] ?? (params['market_id'] === undefined ? undefined : [params['market_id']])
  if (ids !== undefined && (!isStringList(ids) || tickers !== undefined)) return reject(11)
  const unique = [...new Set(channels as Channel[])]
  // market_id(s) select markets for `ticker` only; the order book needs tickers.
  if (unique.includes('orderbook_delta') && tickers === undefined) return reject(14)
  if (ids !== undefined && unique.some((c) => c !== 'ticker')) return reject(11)
  const useYesPrice = optionalBool(params, 'use_yes_price')
  const sendInitialSnapshot = optionalBool(params, 'send_initial_snapshot')
  const skipTickerAck = optionalBool(params, 'skip_ticker_ack')
  if (useYesPrice === null || sendInitialSnapshot === null || skipTickerAck === null) return reject(11)
  return {
    cmd,
    id,
    channels: unique,
    marketTickers: tickers,
    marketIds: ids as string[] | undefined,
    useYesPrice: useYesPrice ?? false,
    sendInitialSnapshot: sendInitialSnapshot ?? false,
    skipTickerAck: skipTickerAck ?? false,
  }
}
