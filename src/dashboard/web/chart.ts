import type uPlot from 'uplot'

/**
 * The spread chart: uPlot, loaded by the page as a classic script from the app (`/ui/uPlot.iife.min.js`, before
 * the modules run), so it is the global `uPlot`; only its types come from the npm package at build time. Its width
 * follows the container's, so the chart fits a phone as well as a desktop.
 */
type UPlotConstructor = typeof uPlot

const HEIGHT = 240

export class SpreadChart {
  readonly #container: HTMLElement
  readonly #plot: uPlot
  readonly #resize: ResizeObserver

  constructor(container: HTMLElement) {
    const UPlot = (globalThis as unknown as { uPlot?: UPlotConstructor }).uPlot
    if (UPlot === undefined) throw new Error('uPlot is not loaded (the page loads /ui/uPlot.iife.min.js first)')
    this.#container = container
    const options: uPlot.Options = {
      width: this.#width(),
      height: HEIGHT,
      scales: { x: { time: true } },
      series: [
        {},
        {
          label: 'Spread (bps)',
          stroke: '#0b57a4',
          fill: 'rgba(11,87,164,0.08)',
          width: 2,
          points: { show: false },
          value: (_u, v) => (v === null ? '—' : `${Math.round(v)} bps`),
        },
      ],
      axes: [{ stroke: '#1b2129' }, { stroke: '#1b2129', size: 56 }],
      cursor: { drag: { x: false, y: false } },
    }
    this.#plot = new UPlot(options, [[], []], container)
    this.#resize = new ResizeObserver(() => {
      const width = this.#width()
      if (width !== this.#plot.width) this.#plot.setSize({ width, height: HEIGHT })
    })
    this.#resize.observe(container)
  }

  /** Replaces the data (the arrays are read, not kept beyond the next call). */
  setData(data: [number[], number[]]): void {
    this.#plot.setData(data)
  }

  destroy(): void {
    this.#resize.disconnect()
    this.#plot.destroy()
  }

  #width(): number {
    return Math.max(200, Math.floor(this.#container.clientWidth))
  }
}
