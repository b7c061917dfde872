/**
 * The dashboard's HTML (`GET /`): a static shell the browser modules fill in (src/dashboard/web/main.ts). What the
 * page must know before it connects is written into `<html data-…>` by the server that knows it, so the page needs
 * no request that could fail before it starts: whether the data is simulated (the banner is rendered here, not by a
 * script), whether the stream and the data routes need a key, and the venues whose health it shows.
 *
 * No inline script or `style=` attribute: the page's CSP (DASHBOARD_CSP) allows scripts and styles from the app only.
 * The element ids are the page's contract with its browser test (issue 22, "DOM contract").
 */
export interface DashboardPageInfo {
  readonly simulated: boolean
  /** Shown in the banner, e.g. "simulated venues (seed 42)". */
  readonly sourceDescription: string
  readonly authRequired: boolean
  readonly venues: readonly string[]
}

/** Where the assets live (routes.ts serves them under this prefix). */
export const UI_PREFIX = '/ui'
export const MODULE_PREFIX = `${UI_PREFIX}/m`
export const ENTRY_MODULE = `${MODULE_PREFIX}/dashboard/web/main.js`
export const PAGE_CSS = `${UI_PREFIX}/dashboard.css`
export const UPLOT_JS = `${UI_PREFIX}/uPlot.iife.min.js`
export const UPLOT_CSS = `${UI_PREFIX}/uPlot.min.css`

export const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

const COLUMNS: readonly (readonly [col: string, label: string, title: string])[] = [
  ['rank', '#', 'Rank in the list'],
  ['event', 'Event', 'Event title'],
  ['outcome', 'Outcome', 'Outcome compared across venues'],
  ['price-a', 'Low', 'Venue with the lower price, and its price'],
  ['price-b', 'High', 'Venue with the higher price, and its price'],
  ['spread-bps', 'Spread bps', 'Higher minus lower price, in basis points'],
  ['edge', 'Net edge', 'Executable edge per contract after fees, from both books'],
  ['size', 'Size', 'Contracts available at a positive net edge'],
  ['confidence', 'Conf.', 'Confidence that this is the same contract with live prices'],
  ['stale', 'Data', 'Live or stale, and the age of the newest quote'],
]

export function renderDashboardPage(info: DashboardPageInfo): string {
  const venues = info.venues.map(venueStrip).join('')
  const banner = info.simulated
    ? `<div id="sim-banner" role="note"><strong>Simulated data.</strong> The venues are the built-in simulator (${esc(info.sourceDescription)}): prices, books and spreads are synthetic.</div>`
    : ''
  const head = COLUMNS.map(
    ([col, label, title]) => `<th scope="col" data-col="${col}" title="${esc(title)}">${label}</th>`,
  )
  return `<!doctype html>
<html lang="en" data-simulated="${info.simulated}" data-auth-required="${info.authRequired}" data-venues="${esc(info.venues.join(','))}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Cross-venue spreads, live</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${UPLOT_CSS}">
<link rel="stylesheet" href="${PAGE_CSS}">
<script src="${UPLOT_JS}"></script>
<script type="module" src="${ENTRY_MODULE}"></script>
</head>
<body data-stream="connecting">
<header class="bar">
<h1>Cross-venue spreads</h1>
<p id="stream-state" role="status" aria-live="polite">Connecting…</p>
<nav><a href="/docs">API reference</a><button type="button" id="change-key" hidden>API key</button></nav>
</header>
${banner}
<section id="venues" aria-label="Venue feeds">${venues}</section>
<main>
<section id="top" aria-labelledby="top-h">
<h2 id="top-h">Top spreads</h2>
<div class="filters" role="group" aria-label="Filters">
<label>Min spread (bps) <input id="f-min-spread" type="number" min="0" max="10000" step="1" inputmode="numeric" placeholder="any"></label>
<label>Category <select id="f-category"><option value="">all</option></select></label>
<label>Search <input id="f-search" type="search" placeholder="event or outcome" autocomplete="off"></label>
</div>
<p id="view-error" role="alert"></p>
<div class="table-wrap">
<table id="top-table"><caption class="visually-hidden">Top spreads; select a row (Enter or Space) to see its history, books and match.</caption>
<thead><tr>${head.join('')}</tr></thead>
<tbody></tbody></table>
</div>
<p id="top-status" class="muted" aria-live="polite">Waiting for the list…</p>
</section>
<p id="pair-hint" class="muted">Select a pair (click its row, or Enter or Space on it) to see its spread history, both order books and why the matcher paired them.</p>
<section id="pair" aria-labelledby="pair-title" hidden>
<h2 id="pair-title"></h2>
<p id="pair-sub" class="muted"></p>
<div class="ranges" role="group" aria-label="History range">
<button type="button" data-range="1d" aria-pressed="true">1d</button><button type="button" data-range="1w" aria-pressed="false">1w</button><button type="button" data-range="1m" aria-pressed="false">1m</button><button type="button" data-range="all" aria-pressed="false">all</button>
</div>
<div id="pair-chart" role="img" aria-label="Spread history in basis points"></div>
<p id="chart-status" class="muted" aria-live="polite"></p>
<div class="books">
${bookTable('book-a')}
${bookTable('book-b')}
</div>
<h3>Why the matcher paired them</h3>
<dl id="evidence"></dl>
</section>
</main>
<dialog id="auth-dialog" aria-labelledby="auth-h">
<h2 id="auth-h">API key</h2>
<p>The stream and the data routes need an API key. It is kept in this browser (localStorage).</p>
<p id="auth-error" role="alert"></p>
<form id="key-form">
<div class="field"><label for="api-key">Your key</label><input id="api-key" type="password" autocomplete="off" spellcheck="false"></div>
<button type="submit" id="api-key-save">Use this key</button>
</form>
<h3>No key yet? Sign up</h3>
<form id="signup-form">
<div class="field"><label for="signup-email">E-mail</label><input id="signup-email" type="email" autocomplete="email"></div>
<div class="field"><label for="signup-company">Company</label><input id="signup-company" type="text" autocomplete="organization"></div>
<div class="field"><label for="signup-use-case">Use case</label><textarea id="signup-use-case" rows="2"></textarea></div>
<button type="submit" id="signup-submit">Sign up and use the key</button>
</form>
</dialog>
</body>
</html>
`
}

function venueStrip(venue: string): string {
  return `<div class="venue" data-venue="${esc(venue)}" data-state="down"><span class="venue-name">${esc(venue)}</span> <span class="venue-state">no data yet</span> <span class="venue-age"></span> <span class="venue-counts"></span></div>`
}

function bookTable(id: string): string {
  return `<table id="${id}" class="book" data-venue="" data-crc="pending"><caption></caption>
<thead><tr><th scope="col">Bid size</th><th scope="col">Bid</th><th scope="col">Ask</th><th scope="col">Ask size</th></tr></thead>
<tbody></tbody></table>`
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
