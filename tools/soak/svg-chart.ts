/**
 * A small SVG writer for the soak's report: one panel per series, stacked, over a shared time axis, each with its
 * own labelled y axis. Plain strings, no chart dependency: the report is a few hundred points and four lines.
 */
export interface Panel {
  readonly title: string
  /** The y axis label, with its unit. */
  readonly unit: string
  readonly points: readonly { readonly x: number; readonly y: number }[]
  /** A dashed vertical line (e.g. the end of the warm-up), in x units. */
  readonly markX?: number
}

export interface ChartOptions {
  readonly title: string
  /** The shared x axis label, with its unit. */
  readonly xLabel: string
  readonly panels: readonly Panel[]
  readonly width?: number
  readonly panelHeight?: number
}

const MARGIN = { left: 70, right: 20, top: 28, bottom: 34 }
/** About this many ticks per axis. */
const TICKS = 5

export function chartSvg(o: ChartOptions): string {
  const width = o.width ?? 760
  const panelHeight = o.panelHeight ?? 170
  const titleHeight = 30
  const height = titleHeight + o.panels.length * panelHeight
  const allX = o.panels.flatMap((p) => p.points.map((pt) => pt.x))
  const [x0, x1] = span(allX, false)
  const plotW = width - MARGIN.left - MARGIN.right
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="${width / 2}" y="20" text-anchor="middle" font-size="14" font-weight="bold">${escapeXml(o.title)}</text>`,
  ]
  o.panels.forEach((p, i) => {
    const top = titleHeight + i * panelHeight
    const plotH = panelHeight - MARGIN.top - MARGIN.bottom
    const [y0, yTop] = span(
      p.points.map((pt) => pt.y),
      true,
    )
    // The y axis ends on a round tick above the data, so its top label is a round number too.
    const y1 = Math.ceil(yTop / niceStep(yTop - y0)) * niceStep(yTop - y0)
    const sx = (x: number): number => MARGIN.left + ((x - x0) / (x1 - x0)) * plotW
    const sy = (y: number): number => top + MARGIN.top + plotH - ((y - y0) / (y1 - y0)) * plotH
    const left = MARGIN.left
    const bottom = top + MARGIN.top + plotH
    parts.push(`<g>`)
    parts.push(`<text x="${left}" y="${top + 18}" font-size="12" font-weight="bold">${escapeXml(p.title)}</text>`)
    const yStep = niceStep(y1 - y0)
    for (const yv of ticks(y0, y1, yStep)) {
      const y = num(sy(yv))
      parts.push(`<line x1="${left}" y1="${y}" x2="${left + plotW}" y2="${y}" stroke="#e4e4e4"/>`)
      parts.push(`<text x="${left - 6}" y="${y + 4}" text-anchor="end">${escapeXml(tickLabel(yv, yStep))}</text>`)
    }
    const xStep = niceStep(x1 - x0)
    for (const xv of ticks(x0, x1, xStep)) {
      const x = num(sx(xv))
      parts.push(`<line x1="${x}" y1="${bottom}" x2="${x}" y2="${bottom + 4}" stroke="black"/>`)
      parts.push(`<text x="${x}" y="${bottom + 15}" text-anchor="middle">${escapeXml(tickLabel(xv, xStep))}</text>`)
    }
    parts.push(`<line x1="${left}" y1="${top + MARGIN.top}" x2="${left}" y2="${bottom}" stroke="black"/>`)
    parts.push(`<line x1="${left}" y1="${bottom}" x2="${left + plotW}" y2="${bottom}" stroke="black"/>`)
    const midY = num(top + MARGIN.top + plotH / 2)
    parts.push(
      `<text x="14" y="${midY}" text-anchor="middle" transform="rotate(-90 14 ${midY})">${escapeXml(p.unit)}</text>`,
    )
    parts.push(`<text x="${left + plotW / 2}" y="${bottom + 29}" text-anchor="middle">${escapeXml(o.xLabel)}</text>`)
    if (p.markX !== undefined && p.markX >= x0 && p.markX <= x1) {
      const mx = num(sx(p.markX))
      parts.push(
        `<line x1="${mx}" y1="${top + MARGIN.top}" x2="${mx}" y2="${bottom}" stroke="#999" stroke-dasharray="4 3"/>`,
      )
    }
    const pts = p.points.map((pt) => `${num(sx(pt.x))},${num(sy(pt.y))}`).join(' ')
    parts.push(`<polyline fill="none" stroke="#1f6fb4" stroke-width="1.5" points="${pts}"/>`)
    parts.push(`</g>`)
  })
  parts.push('</svg>')
  return parts.join('\n') + '\n'
}

/** An axis range around the values: from zero when `fromZero` (levels read better against their base), never empty. */
function span(values: readonly number[], fromZero: boolean): [number, number] {
  const finite = values.filter(Number.isFinite)
  if (finite.length === 0) return [0, 1]
  let lo = Math.min(...finite)
  let hi = Math.max(...finite)
  if (fromZero) lo = Math.min(0, lo)
  if (hi === lo) hi = lo + (lo === 0 ? 1 : Math.abs(lo) * 0.1)
  if (fromZero) hi *= 1.05
  return [lo, hi]
}

/** A round step (1, 2 or 5 times a power of ten) that cuts `range` into about TICKS parts. */
function niceStep(range: number): number {
  const raw = range / TICKS
  const power = 10 ** Math.floor(Math.log10(raw))
  const f = raw / power
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * power
}

/** The multiples of `step` within [lo, hi]. */
function ticks(lo: number, hi: number, step: number): number[] {
  const out: number[] = []
  for (let v = Math.ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) out.push(v)
  return out
}

function tickLabel(v: number, step: number): string {
  return v.toFixed(Math.max(0, -Math.floor(Math.log10(step) + 1e-9)))
}

const num = (x: number): number => Math.round(x * 10) / 10

export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
