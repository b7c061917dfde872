import { StreamClient, type ConnectionState } from '../../stream-client/stream-client.js'
import type { TopItem, TopListAssembler } from '../../stream-client/top-list-assembler.js'
import { forgetKey, KeyDialog, storedKey } from './auth.js'
import { browserTransport, streamUrl } from './browser-transport.js'
import { byId } from './dom.js'
import { PairPanel } from './pair-panel.js'
import type { SpreadRow } from './spread-row.js'
import { SubscriptionSlot, type SlotOutcome } from './subscription-slot.js'
import { TopTable } from './top-table.js'
import { VenueHealth, type VenueReport } from './venue-health.js'
import { VenueStrip } from './venue-strip.js'
import { minSpreadOf, viewKey } from './view-key.js'

/**
 * The dashboard page (`GET /`, issue 22): the top spreads, the selected pair and the venues' health, live over
 * `/api/v2/stream` with the typed stream client (src/stream-client/, its Node-free modules) on the browser's
 * WebSocket. What the server told the page is on `<html>` (src/dashboard/page.ts): whether a key is needed and
 * which venues there are.
 *
 * One StreamClient per API key: a new key closes the old connection and opens another; the slots (what is
 * subscribed) are rebuilt on it and subscribe again what the page shows.
 */
const SEARCH_DEBOUNCE_MS = 250

const root = document.documentElement
const authRequired = root.dataset.authRequired === 'true'
const venues = (root.dataset.venues ?? '').split(',').filter((v) => v !== '')

const streamState = byId('stream-state', HTMLParagraphElement)
const viewError = byId('view-error', HTMLParagraphElement)
const topStatus = byId('top-status', HTMLParagraphElement)
const minSpreadInput = byId('f-min-spread', HTMLInputElement)
const categorySelect = byId('f-category', HTMLSelectElement)
const searchInput = byId('f-search', HTMLInputElement)
const changeKey = byId('change-key', HTMLButtonElement)
const topBody = byId('top-table', HTMLTableElement).tBodies[0]
if (topBody === undefined) throw new Error('#top-table has no tbody')

let apiKey: string | undefined = authRequired ? storedKey() : undefined
let client: StreamClient | undefined
let slots: Slots | undefined
/** The next list of the top view is its first: its rows appear without flashing. */
let topInitial = true
/** The top list to draw at the next animation frame. */
let pendingTop: TopListAssembler<SpreadRow> | undefined
let topFrame: number | undefined
const categories = new Set<string>()
/**
 * The server's clock minus the page's, from each `hb`: a record's age (`updated_at` is the server's time) is
 * measured on the server's clock, so a page on a skewed clock does not show quotes from the future or days old.
 */
let serverSkewMs = 0
const serverNow = () => Date.now() + serverSkewMs

interface Slots {
  readonly top: SubscriptionSlot
  readonly venues: SubscriptionSlot
  readonly spread: SubscriptionSlot
  readonly books: readonly [SubscriptionSlot, SubscriptionSlot]
}

const health = new VenueHealth(venues)
const strip = new VenueStrip(byId('venues', HTMLElement), health)
const table = new TopTable(topBody, (record) => select(record))
const pair = new PairPanel({ apiKey: () => apiKey, onUnauthorized: (message) => askForKey(message) })
const dialog = new KeyDialog((key) => {
  apiKey = key
  connect()
})

const pairSection = byId('pair', HTMLElement)

function select(record: SpreadRow): void {
  table.select(record.id)
  pair.select(record)
  // On a narrow screen the pair is below the list: bring it into view (on a wide one it is beside the list).
  if (pairSection.getBoundingClientRect().top > window.innerHeight) pairSection.scrollIntoView({ block: 'start' })
}

function askForKey(message: string): void {
  forgetKey()
  apiKey = undefined
  dialog.open(message)
}

// ---- filters → the top view ----

function currentView(): string {
  return viewKey({
    minSpreadBps: minSpreadOf(minSpreadInput.value),
    category: categorySelect.value,
    search: searchInput.value,
  })
}

function applyView(): void {
  slots?.top.set({ keys: [currentView()] })
}

let debounce: ReturnType<typeof setTimeout> | undefined
function applyViewSoon(): void {
  clearTimeout(debounce)
  debounce = setTimeout(applyView, SEARCH_DEBOUNCE_MS)
}

minSpreadInput.addEventListener('input', applyViewSoon)
searchInput.addEventListener('input', applyViewSoon)
categorySelect.addEventListener('change', applyView)

/** Categories of the rows seen, as options (plus "all"), the selected one kept. */
function noteCategories(items: readonly TopItem<SpreadRow>[]): void {
  let added = false
  for (const item of items) {
    const c = item.record.category
    if (typeof c === 'string' && c !== '' && !categories.has(c)) {
      categories.add(c)
      added = true
    }
  }
  if (!added) return
  const selected = categorySelect.value
  const options = [new Option('all', '')]
  for (const c of [...categories].sort()) options.push(new Option(c, c))
  categorySelect.replaceChildren(...options)
  categorySelect.value = selected
}

function onTopOutcome(o: SlotOutcome): void {
  // A list of the view before, not drawn yet, is not drawn now.
  if (o.kind !== 'failed') pendingTop = undefined
  if (o.kind === 'subscribed') {
    topInitial = true
    const reasons = o.rejected.map((r) => r.reason)
    viewError.textContent = reasons.length === 0 ? '' : `This view was refused: ${reasons.join('; ')}`
    if (o.accepted.length === 0) {
      table.clear()
      topStatus.textContent = 'No list: change the filters.'
    }
  } else if (o.kind === 'failed') viewError.textContent = `This view could not be opened: ${o.message}`
}

// ---- the connection ----

const STATE_TEXT: Record<ConnectionState, string> = {
  idle: 'Connecting…',
  connecting: 'Connecting…',
  open: 'Live',
  reconnecting: 'Reconnecting…',
  closed: 'Disconnected',
}

function showState(state: ConnectionState, reason?: string): void {
  document.body.dataset.stream = state === 'open' ? 'live' : state === 'closed' ? 'closed' : 'connecting'
  streamState.textContent =
    reason === undefined || reason === '' ? STATE_TEXT[state] : `${STATE_TEXT[state]} (${reason})`
}

function connect(): void {
  client?.close()
  if (authRequired && apiKey === undefined) {
    showState('closed', 'an API key is needed')
    dialog.open()
    return
  }
  const c = new StreamClient({
    url: streamUrl(location),
    apiKey: apiKey ?? '',
    transport: browserTransport,
    // With a key, the first frame carries it; without one (auth off), nothing is sent and the server admits us.
    auth: apiKey === undefined ? 'header' : 'frame',
    heartbeatTimeoutMs: 10_000,
  })
  client = c
  health.forgetMarkers()
  let authMessage = ''
  /** A slot whose released streams take their continuity markers with them (their resync would never come). */
  const slot = (ch: string, onOutcome: (o: SlotOutcome) => void = () => {}) =>
    new SubscriptionSlot(c, ch, (o) => {
      if (o.kind === 'released') for (const key of o.target.keys) health.forgetStream(ch, key)
      onOutcome(o)
    })
  const s: Slots = {
    top: slot('spreads.top', onTopOutcome),
    venues: slot('venue'),
    spread: slot('spread'),
    books: [slot('book', (o) => pair.onBookOutcome(0, o)), slot('book', (o) => pair.onBookOutcome(1, o))],
  }
  slots = s
  const all = [s.top, s.venues, s.spread, ...s.books]
  const live = () => client === c

  c.on('state', ({ state, code, reason }) => {
    if (!live()) return
    showState(state, state === 'closed' && code !== undefined ? `${code}${reason ? ` ${reason}` : ''}` : undefined)
    if (state === 'closed' && code === 4401 && authRequired)
      askForKey(authMessage === '' ? 'The server refused the key.' : `The server refused the key: ${authMessage}`)
  })
  // The AUTH_FAILED error answers the `auth` command (so it is no `error` event): read it off the frames.
  c.on('frame', (f) => {
    if (f.type === 'error' && f.code === 'AUTH_FAILED') authMessage = f.message
  })
  c.on('welcome', () => {
    for (const slot of all) slot.reconcile()
  })
  c.on('resubscribed', ({ subscription, ack }) => {
    for (const slot of all) slot.resubscribed(subscription, ack)
  })
  // The page holds one view at a time (the slot unsubscribes the old before subscribing the new, and no frame of a
  // subscription follows its unsubscribe ack), so every list that arrives while one is held is that view's, even
  // if the server spells its key otherwise than view-key.ts does (a parameter added since).
  const topHeld = () => s.top.keys.length > 0
  c.on('top', ({ list }) => {
    if (!live() || !topHeld()) return
    // Drawn at most once per animation frame (a busy list changes tens of times a second; a hidden tab not at all).
    pendingTop = list as TopListAssembler<SpreadRow>
    if (topFrame === undefined)
      topFrame = requestAnimationFrame(() => {
        topFrame = undefined
        const pending = pendingTop
        pendingTop = undefined
        if (pending === undefined || !live() || !topHeld()) return
        const items = pending.items()
        noteCategories(items)
        table.render(items, topInitial, serverNow())
        topInitial = false
        topStatus.textContent = items.length === 0 ? 'No pair passes these filters right now.' : ''
      })
  })
  c.on('value', ({ ch, key, value, frame }) => {
    if (!live()) return
    if (ch === 'venue' && value !== null && typeof value === 'object') {
      health.report(key, value as VenueReport, Date.now())
      strip.render(Date.now())
    } else if (ch === 'spread') pair.onSpread(key, value, frame.ts)
  })
  c.on('hb', (hb) => {
    if (!live()) return
    serverSkewMs = hb.ts - Date.now()
    health.heartbeat(hb.venues, Date.now())
    strip.render(Date.now())
  })
  c.on('marker', (frame) => {
    if (!live()) return
    health.marker(frame.ch, frame.key, frame.d)
    strip.render(Date.now())
  })
  c.on('stale', ({ ch, key, stale }) => {
    if (live() && ch === 'book') pair.onBookStale(key, stale)
  })
  c.on('book', ({ key, book }) => {
    if (live()) pair.onBook(key, book)
  })
  c.on('crcMismatch', ({ ch, key }) => {
    if (live() && ch === 'book') pair.onCrcMismatch(key)
  })

  showState('connecting')
  pair.useSlots({ spread: s.spread, books: s.books })
  s.venues.set({ keys: venues })
  s.top.set({ keys: [currentView()] })
  // A terminal close is shown by the state listener; nothing else to do with the promise.
  c.connect().catch(() => {})
}

changeKey.hidden = !authRequired
changeKey.addEventListener('click', () => dialog.open())

setInterval(() => {
  const now = Date.now()
  table.tick(serverNow())
  strip.render(now)
}, 1_000)

strip.render(Date.now())
connect()
