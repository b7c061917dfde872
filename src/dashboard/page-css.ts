/**
 * The dashboard's stylesheet, served as `/ui/dashboard.css` (a file of the app, so the page's CSP needs no
 * `'unsafe-inline'`). A string in a module rather than a .css file: tsc emits it, so no copy step can be missed.
 *
 * Colours meet WCAG AA (4.5:1) for text on their backgrounds; a venue's state and a row's staleness are also
 * written as words, never shown by colour alone. Focus is always visible (3 px outline).
 */
export const DASHBOARD_CSS = `
:root{--fg:#1b2129;--muted:#4f5b67;--line:#d3d9e0;--bg:#fff;--panel:#f5f7f9;--accent:#0b57a4;--ok:#17663a;
--ok-bg:#e3f4e8;--warn:#7a4b00;--warn-bg:#fff2cc;--bad:#a4161a;--bad-bg:#fde4e4;--flash:#fff3b0;--sel:#dcebfb}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--accent)}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.muted{color:var(--muted)}
header.bar{display:flex;flex-wrap:wrap;align-items:center;gap:8px 16px;padding:10px 16px;border-bottom:1px solid var(--line)}
header.bar h1{font-size:18px;margin:0}
#stream-state{margin:0;font-weight:600}
body[data-stream="live"] #stream-state{color:var(--ok)}
body[data-stream="connecting"] #stream-state{color:var(--warn)}
body[data-stream="closed"] #stream-state{color:var(--bad)}
header.bar nav{margin-left:auto;display:flex;gap:12px;align-items:center}
button{font:inherit;color:var(--fg);background:var(--panel);border:1px solid #8b96a3;border-radius:4px;padding:3px 10px;cursor:pointer}
button:hover{background:#e8edf2}
button[aria-pressed="true"]{background:var(--accent);border-color:var(--accent);color:#fff}
#sim-banner{padding:8px 16px;background:var(--warn-bg);color:var(--warn);border-bottom:1px solid #e6c66a}
#venues{display:flex;flex-wrap:wrap;gap:8px;padding:8px 16px;border-bottom:1px solid var(--line)}
.venue{display:flex;flex-wrap:wrap;gap:4px 8px;align-items:baseline;padding:4px 10px;border-radius:4px;border:1px solid var(--line)}
.venue-name{font-weight:600}
.venue-state{font-weight:600;text-transform:uppercase;font-size:12px;letter-spacing:.03em}
.venue[data-state="ok"]{background:var(--ok-bg);color:var(--ok);border-color:#8cc7a0}
.venue[data-state="degraded"]{background:var(--warn-bg);color:var(--warn);border-color:#e6c66a}
.venue[data-state="down"]{background:var(--bad-bg);color:var(--bad);border-color:#eba3a3}
.venue-age,.venue-counts{font-size:12px}
main{display:grid;grid-template-columns:minmax(0,1fr);gap:16px;padding:8px 16px 32px}
@media (min-width:1200px){main{grid-template-columns:minmax(0,3fr) minmax(0,2fr)}}
h2{font-size:16px;margin:8px 0}
h3{font-size:14px;margin:14px 0 6px}
.filters{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:end}
.filters label{display:flex;flex-direction:column;font-size:12px;color:var(--muted)}
input,select,textarea{font:inherit;color:var(--fg);background:#fff;border:1px solid #8b96a3;border-radius:4px;padding:3px 6px}
#f-min-spread{width:9em}
#view-error{color:var(--bad);min-height:1.2em;margin:6px 0}
.table-wrap{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;width:100%}
th,td{padding:4px 6px;border-bottom:1px solid var(--line);text-align:left;white-space:nowrap}
th{font-size:12px;color:var(--muted);font-weight:600;background:var(--panel)}
#top-table{font-size:13px}
#top-table td[data-col="event"]{white-space:normal;min-width:10em;max-width:16em}
#top-table td[data-col="outcome"]{white-space:normal;min-width:5em;max-width:9em}
#top-table td[data-col="rank"],#top-table td[data-col="spread-bps"],#top-table td[data-col="edge"],
#top-table td[data-col="size"],#top-table td[data-col="confidence"]{text-align:right;font-variant-numeric:tabular-nums}
#top-table tbody tr{cursor:pointer}
#top-table tbody tr:hover{background:var(--panel)}
#top-table tbody tr:focus-visible{outline:3px solid var(--accent);outline-offset:-3px}
#top-table tbody tr.selected{background:var(--sel)}
#top-table tbody tr.flash td.changed{animation:flash .6s ease-out}
@keyframes flash{from{background:var(--flash)}to{background:transparent}}
@media (prefers-reduced-motion:reduce){#top-table tbody tr.flash td.changed{animation:none;background:var(--flash)}}
.venue-tag{display:block;font-size:11px;line-height:1.2;color:var(--muted)}
.stale-yes{color:var(--bad);font-weight:600}
.stale-no{color:var(--ok)}
.age{color:var(--muted);font-size:12px;margin-left:4px}
#pair[hidden],#pair-hint[hidden]{display:none}
#pair-hint{margin:48px 0 0}
#pair{min-width:0}
.ranges{display:flex;gap:4px;margin:6px 0}
#pair-chart{min-height:240px;width:100%;overflow:hidden}
.books{display:grid;grid-template-columns:repeat(auto-fit,minmax(180px,1fr));gap:12px}
table.book caption{text-align:left;font-weight:600;padding:4px 0}
table.book td{text-align:right;font-variant-numeric:tabular-nums}
table.book td.bid{color:var(--ok)}
table.book td.ask{color:var(--bad)}
table.book[data-crc="bad"] caption::after{content:" checksum mismatch: resyncing";color:var(--bad)}
table.book[data-crc="pending"] caption::after{content:" waiting for the book";color:var(--muted);font-weight:400}
#evidence{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:2px 12px;margin:0}
#evidence dt{font-weight:600;color:var(--muted)}
#evidence dd{margin:0;overflow-wrap:anywhere}
dialog{max-width:min(32rem,92vw);border:1px solid var(--line);border-radius:6px;padding:16px 20px}
dialog::backdrop{background:rgba(20,26,33,.45)}
dialog .field{display:flex;flex-direction:column;gap:2px;margin:8px 0}
#auth-error{color:var(--bad);min-height:1.2em}
dialog form{margin:0}
@media (max-width:600px){
header.bar{padding:8px 10px}
main{padding:8px 10px 24px}
#venues{padding:8px 10px}
th,td{padding:3px 4px}
#evidence{grid-template-columns:minmax(0,1fr)}
#evidence dd{margin-bottom:4px}
}
`
