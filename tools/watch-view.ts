import type { ConnectionState } from '../src/stream-client/stream-client.js'
import type { TopItem } from '../src/stream-client/top-list-assembler.js'
import type { HeartbeatFrame } from '../src/stream-client/wire.js'

/**
 * What `npm run watch` shows, as pure functions of the client's state (so a test can check the screen without a
 * terminal): the arguments it takes, and the table of top spreads with the connection and feed state above it.
 */
export interface WatchOptions {
  readonly url: string
  readonly apiKey: string
  /** The `spreads.top` view: a query string in the scanner's parameter names. */
  readonly view: string
}

/** The service's default port (src/config/schema.ts, `http.port`). */
export const DEFAULT_STREAM_URL = 'ws://127.0.0.1:8080/api/v2/stream'

export const USAGE = `usage: npm run watch -- [--url ws://host:port/api/v2/stream] [--key KEY] [--limit N] [--view QUERY]
  --url    STREAM_URL, default ${DEFAULT_STREAM_URL}
  --key    API_KEY (required)
  --limit  rows to show, default 20 (the view's limit)
  --view   the whole view as a query string, e.g. 'limit=10&min_spread=0.02' (overrides --limit)`

/** Arguments over environment over defaults; an error message instead when the key is missing or a flag is unknown. */
export function parseWatchArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): WatchOptions | { readonly error: string } {
  const flags = new Map<string, string>()
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    const m = /^--(url|key|limit|view)(?:=(.*))?$/.exec(arg)
    if (m === null) return { error: `unknown argument ${arg}` }
    const value = m[2] ?? argv[++i]
    if (value === undefined) return { error: `${arg} needs a value` }
    flags.set(m[1] as string, value)
  }
  const apiKey = flags.get('key') ?? env.API_KEY
  if (apiKey === undefined || apiKey === '') return { error: 'an API key is required (--key or API_KEY)' }
  const limit = flags.get('limit') ?? '20'
  if (!/^[1-9]\d*$/.test(limit)) return { error: `--limit must be a positive integer, not ${limit}` }
  return {
    url: flags.get('url') ?? env.STREAM_URL ?? DEFAULT_STREAM_URL,
    apiKey,
    view: flags.get('view') ?? `limit=${limit}`,
  }
}

/** The fields of a spread record the table shows (the record is the REST one, `/api/v2/spreads`). */
interface SpreadRow {
  readonly event_title?: unknown
  readonly outcome_title?: unknown
  readonly spread?: unknown
  readonly confidence?: unknown
  readonly is_stale?: unknown
}

export interface Screen {
  readonly url: string
  readonly view: string
  readonly state: ConnectionState
  /** Why the connection is not open (the last close code and reason). */
  readonly note?: string
  readonly items: readonly TopItem[]
  readonly heartbeat: HeartbeatFrame | undefined
  /** Set while the list waits for a snapshot (gap or checksum mismatch). */
  readonly resyncing: boolean
  readonly width: number
}

const NUM = (v: unknown, digits: number) => (typeof v === 'number' ? v.toFixed(digits) : '-')

/** The whole screen as lines of at most `width` characters. */
export function renderScreen(s: Screen): string[] {
  const feeds =
    s.heartbeat === undefined
      ? 'feeds: (no heartbeat yet)'
      : `feeds: ${Object.entries(s.heartbeat.venues)
          .map(([venue, v]) => `${venue} ${v.state} ${v.age_ms === null ? '-' : formatAge(v.age_ms)}`)
          .join('  ')}`
  const head = [
    `top spreads  ${s.view}  ${s.url}`,
    `${s.state}${s.note === undefined ? '' : ` (${s.note})`}${s.resyncing ? ' (resyncing)' : ''}  ${feeds}`,
    '',
  ]
  // rank 4, spread 8, confidence 6, and the four gaps between the five columns; event and outcome share the rest.
  const text = Math.max(20, s.width - (4 + 8 + 6 + 4))
  const eventWidth = Math.ceil(text * 0.6)
  const outcomeWidth = text - eventWidth
  const row = (rank: string, event: string, outcome: string, spread: string, conf: string) =>
    `${rank.padStart(4)} ${fit(event, eventWidth)} ${fit(outcome, outcomeWidth)} ${spread.padStart(8)} ${conf.padStart(6)}`
  const lines = [...head, row('rank', 'event', 'outcome', 'spread', 'conf')]
  for (const item of s.items) {
    const r = item.record as SpreadRow
    const stale = r.is_stale === true ? '*' : ''
    lines.push(
      row(
        `${item.rank}${stale}`,
        String(r.event_title ?? item.id),
        String(r.outcome_title ?? ''),
        NUM(r.spread, 4),
        NUM(r.confidence, 2),
      ),
    )
  }
  if (s.items.length === 0) lines.push('  (empty list)')
  if (s.items.some((i) => (i.record as SpreadRow).is_stale === true))
    lines.push('', '* stale: a quote behind it is old')
  return lines.map((l) => l.slice(0, s.width))
}

function fit(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, Math.max(0, width - 1))}…` : text.padEnd(width)
}

function formatAge(ms: number): string {
  return ms < 1_000 ? `${Math.round(ms)}ms` : `${(ms / 1_000).toFixed(1)}s`
}
