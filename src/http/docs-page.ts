import { createHash } from 'node:crypto'
import { BOOK_DEPTHS, CHANNELS, CLOSE } from '../stream/protocol.js'
import type { JsonObject, OpenApiDocument, OpenApiOperation, OpenApiParameter, OpenApiResponse } from './openapi.js'

/**
 * `GET /docs`: a human-readable API reference rendered from the OpenAPI document, so it shows exactly what the
 * server validates. Self-contained on purpose: no scripts, fonts or stylesheets from elsewhere (the service
 * may run air-gapped, and a docs page should not be a tracking or supply-chain vector). Every string from the
 * document is HTML-escaped; descriptions may use `backticks` for code, nothing else.
 *
 * @example
 * const html = renderDocs(buildOpenApi(routes, info))
 */
export function renderDocs(doc: OpenApiDocument): string {
  const r = new SchemaRenderer(doc.components?.schemas ?? {})
  const ops = operations(doc)
  const tags = [...new Set([...(doc.tags ?? []).map((t) => t.name), ...ops.flatMap((o) => o.op.tags ?? [])])]
  const untagged = ops.filter((o) => (o.op.tags ?? []).length === 0)
  const groups = tags
    .map((t) => ({ tag: t, ops: ops.filter((o) => o.op.tags?.includes(t)) }))
    .filter((g) => g.ops.length > 0)
  if (untagged.length > 0) groups.push({ tag: 'other', ops: untagged })
  const title = `${doc.info.title} ${doc.info.version}`
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>${CSS}</style></head>
<body><header><h1>${esc(doc.info.title)} <span class="version">v${esc(doc.info.version)}</span></h1>
${prose(doc.info.description)}
<p>Machine-readable description: <a href="/api/v2/openapi.json">/api/v2/openapi.json</a> (OpenAPI ${esc(doc.openapi)});
the streaming WebSocket: <a href="/api/v2/asyncapi.json">/api/v2/asyncapi.json</a> (AsyncAPI 3.0).</p></header>
<nav><h2>Endpoints</h2>${groups.map((g) => `<h3>${esc(g.tag)}</h3><ul>${g.ops.map(tocItem).join('')}</ul>`).join('')}
<h3>Reference</h3><ul><li><a href="#conventions">Conventions and errors</a></li><li><a href="#streaming">Streaming (WebSocket)</a></li><li><a href="#schemas">Shared schemas</a></li></ul></nav>
<main>${CONVENTIONS}
${STREAMING}
${groups.map((g) => `<section class="tag"><h2>${esc(g.tag)}</h2>${g.ops.map((o) => operation(o, r)).join('\n')}</section>`).join('\n')}
<section id="schemas"><h2>Shared schemas</h2>${Object.entries(doc.components?.schemas ?? {})
    .map(([name, s]) => `<h3 id="schema-${anchor(name)}">${esc(name)}</h3>${prose(str(s.description))}${r.table(s)}`)
    .join('\n')}</section>
</main></body></html>
`
}

interface Op {
  readonly method: string
  readonly path: string
  readonly op: OpenApiOperation
}

function operations(doc: OpenApiDocument): Op[] {
  const out: Op[] = []
  for (const [path, methods] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(methods)) out.push({ method, path, op })
  }
  return out
}

function tocItem(o: Op): string {
  return `<li><a href="#op-${anchor(o.op.operationId)}">${methodBadge(o.method)} <code>${esc(o.path)}</code></a> ${esc(o.op.summary)}</li>`
}

function methodBadge(method: string): string {
  return `<span class="method ${esc(method)}">${esc(method.toUpperCase())}</span>`
}

function operation(o: Op, r: SchemaRenderer): string {
  const op = o.op
  const isPublic = op.security !== undefined && op.security.length === 0
  const auth = isPublic ? 'Public: no API key needed.' : 'Requires an API key in the <code>X-API-Key</code> header.'
  const parts = [
    `<section class="op" id="op-${anchor(op.operationId)}"><h3>${methodBadge(o.method)} <code>${esc(o.path)}</code></h3>`,
    `<p class="summary">${inline(op.summary)}</p>${prose(op.description)}`,
    `<p class="meta">${auth} Operation id <code>${esc(op.operationId)}</code>.</p>`,
  ]
  if (op.parameters !== undefined && op.parameters.length > 0)
    parts.push(`<h4>Parameters</h4>${parameterTable(op.parameters, r)}`)
  if (op.requestBody !== undefined) {
    for (const [media, body] of Object.entries(op.requestBody.content)) {
      parts.push(`<h4>Request body <small>${esc(media)}, required</small></h4>${r.table(body.schema)}`)
    }
  }
  parts.push('<h4>Responses</h4>')
  for (const [status, res] of Object.entries(op.responses)) parts.push(responseBlock(status, res, r))
  parts.push('</section>')
  return parts.join('\n')
}

function parameterTable(params: readonly OpenApiParameter[], r: SchemaRenderer): string {
  const rows = params.map((p) => {
    const s = nonNull(p.schema)
    const csv = p.style === 'form' && p.explode === false
    const type = csv ? 'string list (comma-separated)' : r.type(p.schema)
    const bounds = [csv ? 'e.g. <code>a,b,c</code>' : '', r.constraints(s)].filter((x) => x !== '').join('; ')
    const def =
      s.default === undefined
        ? ''
        : `<code>${esc(csv && Array.isArray(s.default) ? s.default.join(',') : literal(s.default))}</code>`
    return tr([
      `<code>${esc(p.name)}</code>`,
      esc(p.in),
      type,
      def,
      bounds,
      p.required ? 'yes' : 'no',
      inline(p.description),
    ])
  })
  return table(['Name', 'In', 'Type', 'Default', 'Bounds / values', 'Required', 'Description'], rows)
}

function responseBlock(status: string, res: OpenApiResponse, r: SchemaRenderer): string {
  const out = [
    `<h5><span class="status s${esc(status.slice(0, 1))}">${esc(status)}</span> ${inline(res.description)}</h5>`,
  ]
  if (res.headers !== undefined) {
    const items = Object.entries(res.headers).map(
      ([h, v]) => `<li>Header <code>${esc(h)}</code>: ${inline(v.description)}</li>`,
    )
    out.push(`<ul class="headers">${items.join('')}</ul>`)
  }
  for (const [media, c] of Object.entries(res.content ?? {})) {
    out.push(`<p class="media">${esc(media)}</p>${r.table(c.schema)}`)
    const example = c.examples?.simulated
    if (example !== undefined) out.push(exampleBlock(example.summary, example.value))
  }
  return out.join('')
}

/** A captured response, folded away: open it to see what the server sent (openapi-examples.generated.ts). */
function exampleBlock(summary: string, value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2)
  return `<details><summary>Example: ${esc(summary)}</summary><pre>${esc(text)}</pre></details>`
}

const MAX_DEPTH = 8

/** Schemas as field tables: nested objects and arrays of objects flatten to `markets[].outcomes[].title` rows. */
class SchemaRenderer {
  constructor(readonly components: Readonly<Record<string, JsonObject>>) {}

  table(schema: JsonObject): string {
    const rows: string[] = []
    this.#rows(schema, '', true, 0, new Set(), rows)
    if (rows.length === 0) return `<p class="shape">${this.type(schema)}${prefix(' — ', this.constraints(schema))}</p>`
    const closed = this.#resolve(schema, new Set())?.schema.additionalProperties === false
    const note = closed ? '<p class="meta">Fields other than these are rejected.</p>' : ''
    return note + table(['Field', 'Type', 'Required', 'Constraints', 'Description'], rows)
  }

  #rows(schema: JsonObject, path: string, root: boolean, depth: number, refs: Set<string>, out: string[]): void {
    const resolved = this.#resolve(schema, refs)
    if (resolved === undefined || depth > MAX_DEPTH) return
    const { schema: s, refs: seen } = resolved
    if (s.type === 'array' && isObject(s.items)) {
      this.#rows(s.items, root ? '[]' : `${path}[]`, false, depth + 1, seen, out)
      return
    }
    // A nullable object (`anyOf: [object, null]`) still shows its fields.
    const inner = nonNull(s)
    if (inner !== s) {
      this.#rows(inner, path, root, depth + 1, seen, out)
      return
    }
    const props = isObject(s.properties) ? (s.properties as Record<string, JsonObject>) : undefined
    if (props === undefined) return
    const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : [])
    for (const [name, prop] of Object.entries(props)) {
      const field = path === '' ? name : `${path}.${name}`
      const target = nonNull(this.#resolve(prop, seen)?.schema ?? prop)
      out.push(
        tr([
          `<code>${esc(field)}</code>`,
          this.type(prop),
          required.has(name) ? 'yes' : 'no',
          this.constraints(target),
          inline(str(target.description)),
        ]),
      )
      this.#rows(prop, field, false, depth + 1, seen, out)
    }
  }

  /** Follows `$ref` into components, refusing cycles. */
  #resolve(schema: JsonObject, refs: Set<string>): { schema: JsonObject; refs: Set<string> } | undefined {
    const ref = refName(schema)
    if (ref === undefined) return { schema, refs }
    const target = this.components[ref]
    if (target === undefined || refs.has(ref)) return undefined
    return { schema: target, refs: new Set([...refs, ref]) }
  }

  type(s: JsonObject): string {
    const ref = refName(s)
    if (ref !== undefined) return `<a href="#schema-${anchor(ref)}">${esc(ref)}</a>`
    if ('const' in s) return `<code>${esc(literal(s.const))}</code>`
    const union = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined
    if (union !== undefined) return union.map((b) => (isObject(b) ? this.type(b) : '')).join(' | ')
    const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : []
    if (types.length === 0) return 'any'
    return types
      .map((t) => {
        if (t === 'array') return `array of ${isObject(s.items) ? this.type(s.items) : 'any'}`
        const isMap = s.additionalProperties !== undefined || s.patternProperties !== undefined
        if (t === 'object' && !isObject(s.properties) && isMap) return 'object (map)'
        return typeof s.format === 'string' ? `${esc(t)} (${esc(s.format)})` : esc(t)
      })
      .join(' | ')
  }

  constraints(s: JsonObject): string {
    const c: string[] = []
    if (Array.isArray(s.enum)) c.push(`one of ${s.enum.map((v) => `<code>${esc(literal(v))}</code>`).join(', ')}`)
    const bound = (key: string, label: string): void => {
      if (typeof s[key] === 'number') c.push(`${label} ${esc(String(s[key]))}`)
    }
    bound('minimum', '≥')
    bound('exclusiveMinimum', '>')
    bound('maximum', '≤')
    bound('exclusiveMaximum', '<')
    bound('multipleOf', 'multiple of')
    bound('minLength', 'length ≥')
    bound('maxLength', 'length ≤')
    bound('minItems', 'items ≥')
    bound('maxItems', 'items ≤')
    if (typeof s.pattern === 'string') c.push(`pattern <code>${esc(s.pattern)}</code>`)
    return c.join('; ')
  }
}

/** Cells are HTML already (escaped by the caller). */
function tr(cells: readonly string[]): string {
  return `<tr>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`
}

function table(headings: readonly string[], rows: readonly string[]): string {
  return `<table><thead><tr>${headings.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`
}

/** The one non-null branch of a nullable union (where TypeBox users put description and bounds), else `s`. */
function nonNull(s: JsonObject): JsonObject {
  const branches = Array.isArray(s.anyOf)
    ? s.anyOf.filter((b): b is JsonObject => isObject(b) && b.type !== 'null')
    : []
  if (branches.length !== 1 || branches.length === (s.anyOf as unknown[]).length) return s
  const { anyOf: _branches, ...outer } = s
  return { ...(branches[0] as JsonObject), ...outer }
}

function refName(s: JsonObject): string | undefined {
  return typeof s.$ref === 'string' && s.$ref.startsWith('#/components/schemas/')
    ? s.$ref.slice('#/components/schemas/'.length)
    : undefined
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined
}

function literal(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v)
}

function prefix(p: string, s: string): string {
  return s === '' ? '' : `${p}${s}`
}

/** Paragraphs split on blank lines. */
function prose(text: string | undefined): string {
  if (text === undefined || text.trim() === '') return ''
  return text
    .split(/\n\s*\n/)
    .map((p) => `<p>${inline(p)}</p>`)
    .join('')
}

/** Escapes, then turns `code` spans into <code>; the backtick is not an HTML metacharacter, so this stays safe. */
function inline(text: string | undefined): string {
  if (text === undefined) return ''
  return esc(text).replace(/`([^`]+)`/g, '<code>$1</code>')
}

function anchor(s: string): string {
  return esc(s.replace(/[^A-Za-z0-9_-]/g, '-'))
}

function esc(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

const CONVENTIONS = `<section id="conventions"><h2>Conventions and errors</h2>
<ul>
<li>All paths are under <code>/api/v2/</code>; responses are JSON. Prices are probabilities between 0 and 1; timestamps are
ISO 8601 in UTC without a zone suffix unless a field says Unix seconds.</li>
<li>Data endpoints take an API key in the <code>X-API-Key</code> header; endpoints marked public do not.</li>
<li>Parameters of type <em>string list</em> take comma-separated values (<code>?event_ticker=A,B</code>). A scalar parameter
given twice takes the last value. Unknown parameters are ignored. Absent parameters take the default shown.</li>
<li>Booleans accept <code>true/false</code>, <code>1/0</code>, <code>yes/no</code>, <code>on/off</code>. Request bodies must be
sent with <code>Content-Type: application/json</code>.</li>
</ul>
<h3>Validation errors (422)</h3>
<p>Every problem in a request is reported at once, one entry per field, in the order path, query, header, body.
<code>loc</code> says where, <code>input</code> echoes what was sent (<code>null</code> when missing), <code>ctx</code> carries
the violated bound when there is one.</p>
<pre>{"detail": [
  {"type": "greater_than_equal", "loc": ["query", "limit"], "msg": "Input should be greater than or equal to 1", "input": "0", "ctx": {"ge": 1}},
  {"type": "missing", "loc": ["query", "market_ticker"], "msg": "Field required", "input": null}
]}</pre>
<h3>Other errors</h3>
<p>Every other error body is <code>{"detail": "&lt;message&gt;", "code": "&lt;stable code&gt;"}</code>; match on <code>code</code>,
not on the message.</p>
<table><thead><tr><th>Status</th><th>code</th><th>When</th></tr></thead><tbody>
<tr><td>401</td><td><code>unauthorized</code></td><td>Missing or invalid API key.</td></tr>
<tr><td>404</td><td><code>not_found</code></td><td>Unknown path or resource.</td></tr>
<tr><td>413</td><td><code>payload_too_large</code></td><td>Request body over the size limit.</td></tr>
<tr><td>415</td><td><code>unsupported_media_type</code></td><td>Request body that is not <code>application/json</code>.</td></tr>
<tr><td>429</td><td><code>rate_limited</code></td><td>Too many requests; retry after the <code>Retry-After</code> header's seconds.</td></tr>
<tr><td>500</td><td><code>internal</code></td><td>Unexpected server error (no internals are disclosed).</td></tr>
<tr><td>502</td><td><code>upstream_error</code></td><td>A proxied venue call failed.</td></tr>
<tr><td>503</td><td><code>not_ready</code></td><td>Venue data still loading.</td></tr>
<tr><td>503</td><td><code>store_unavailable</code></td><td>The data store cannot be reached right now; retry after the <code>Retry-After</code> header's seconds.</td></tr>
<tr><td>503</td><td><code>shutting_down</code></td><td>The service is stopping; the request was not run. Retry after the <code>Retry-After</code> header's seconds (another replica, or this one restarted).</td></tr>
<tr><td>504</td><td><code>upstream_timeout</code></td><td>A proxied venue call timed out.</td></tr>
</tbody></table></section>`

/** The stream in short; the whole protocol is the AsyncAPI document (asyncapi.ts), built from the server's names. */
const STREAMING = `<section id="streaming"><h2>Streaming (WebSocket)</h2>
<p><code>GET /api/v2/stream</code> upgrades to a WebSocket carrying live quotes, order books, spreads, the top-spreads list,
alert firings and venue feed state. The full protocol is <a href="/api/v2/asyncapi.json">/api/v2/asyncapi.json</a> (AsyncAPI 3.0).</p>
<ul>
<li>Auth: the key in <code>X-API-Key</code> on the upgrade, or (browsers) <code>?api_key=</code>, or a first frame
<code>{"op":"auth","key":"…"}</code> within 5 s. A bad key gets close code ${CLOSE.authFailed}.</li>
<li>Commands carry an <code>id</code> echoed by their <code>ack</code> or <code>error</code>: <code>subscribe {ch, keys, depth?, resume?}</code>,
<code>update</code>, <code>snapshot</code>, <code>unsubscribe</code>, <code>list</code>, <code>ping</code>.</li>
<li>Channels: ${CHANNELS.map((c) => `<code>${esc(c)}</code>`).join(', ')}; books take a <code>depth</code> of ${BOOK_DEPTHS.join(', ')}.
Every data frame has <code>type</code>, <code>ch</code>, <code>key</code>, <code>epoch</code>, <code>seq</code>, <code>ts</code>, <code>lts</code>, <code>pts</code>, <code>d</code>.</li>
<li>A stream starts with a <code>snapshot</code>; each <code>delta</code> or <code>marker</code> is the previous <code>seq</code> + 1, so a gap is
visible: ask for a <code>snapshot</code>. Book frames carry a CRC-32 of the top 10 levels per side.</li>
<li>Reconnect after close codes ${CLOSE.goingAway} (after <code>bye</code>), ${CLOSE.slowConsumer} and ${CLOSE.rateLimited}, with backoff, and resume with
<code>resume: {"&lt;key&gt;": {epoch, seq}}</code>; do not reconnect after ${CLOSE.badRequest}, ${CLOSE.authFailed} or ${CLOSE.forbidden}. An <code>hb</code> frame comes every second.</li>
</ul>
<pre>{"type":"delta","ch":"book","key":"venuek:KXFED-27APR-T4.25","epoch":"b7e1","seq":1044,"ts":1781159489957,
 "lts":1781159489961,"pts":1781159489962,"d":{"bids":[["0.4700","0"],["0.4600","12.00"]],"asks":[],"crc":2740194119}}</pre>
</section>`

const CSS = `
:root{--fg:#1d232b;--muted:#5b6673;--line:#d9dee4;--bg:#fff;--code:#f3f5f7;--accent:#1f5fae}
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg);display:grid;grid-template-columns:300px 1fr}
header{grid-column:1/3;padding:20px 28px;border-bottom:1px solid var(--line)}h1{margin:0 0 6px;font-size:24px}.version{font-size:14px;color:var(--muted);font-weight:normal}
nav{padding:12px 20px;border-right:1px solid var(--line);font-size:13px;position:sticky;top:0;align-self:start;max-height:100vh;overflow:auto}nav ul{list-style:none;padding:0;margin:0 0 10px}nav li{margin:3px 0}nav h2{font-size:15px}nav h3{font-size:12px;text-transform:uppercase;color:var(--muted);margin:14px 0 4px}
main{padding:8px 28px 60px;min-width:0}section.op{border:1px solid var(--line);border-radius:6px;padding:4px 18px 14px;margin:16px 0}
a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}code,pre{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--code);border-radius:3px}code{padding:1px 4px}pre{padding:10px;overflow:auto}
table{border-collapse:collapse;width:100%;margin:6px 0 12px;font-size:13px}th,td{border:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}th{background:var(--code)}
.method{display:inline-block;min-width:52px;text-align:center;font:bold 11px/18px ui-monospace,monospace;color:#fff;border-radius:3px;padding:0 4px;background:#6b7785}.method.get{background:#2f7d4f}.method.post{background:#1f5fae}.method.delete{background:#b23b3b}.method.put,.method.patch{background:#a8650f}
.status{font:bold 13px ui-monospace,monospace;padding:1px 6px;border-radius:3px;background:var(--code)}.s2{color:#2f7d4f}.s4{color:#a8650f}.s5{color:#b23b3b}
.summary{font-weight:600}.meta,.media,small{color:var(--muted);font-size:13px}h4{margin:14px 0 4px}h5{margin:10px 0 4px;font-size:14px}
@media (max-width:800px){body{display:block}nav{position:static;max-height:none;border-right:0}}
`

/**
 * The page's Content-Security-Policy: nothing may load or run except the one inline stylesheet above, allowed by
 * its hash rather than `'unsafe-inline'`, so even markup that slipped past escaping could neither run a script nor
 * add a style; no framing (clickjacking), no forms, no `<base>`. The hash is of the exact text between the style
 * tags, which is a constant.
 */
export const DOCS_CSP =
  `default-src 'none'; style-src 'sha256-${createHash('sha256').update(CSS, 'utf8').digest('base64')}'; ` +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
