import { setText } from './dom.js'
import { age } from './format.js'
import type { VenueHealth } from './venue-health.js'

/**
 * The venue strip: per venue `.venue[data-venue][data-state]` with the state in words, the data age, and the
 * reconnect and gap counts when the `venue` channel has sent them. Redrawn each second and on every report.
 */
export class VenueStrip {
  readonly #root: HTMLElement
  readonly #health: VenueHealth

  constructor(root: HTMLElement, health: VenueHealth) {
    this.#root = root
    this.#health = health
  }

  render(now: number): void {
    for (const venue of this.#health.venues) {
      const el = this.#element(venue)
      const v = this.#health.view(venue, now)
      if (el.dataset.state !== v.health) el.dataset.state = v.health
      setText(part(el, 'venue-state'), v.reason === undefined ? v.stateText : `${v.stateText} (${v.reason})`)
      setText(part(el, 'venue-age'), v.ageMs === undefined ? 'data age —' : `data age ${age(v.ageMs)}`)
      const counts =
        v.reconnects === undefined && v.gaps === undefined
          ? ''
          : `reconnects ${v.reconnects ?? 0} · gaps ${v.gaps ?? 0}`
      setText(part(el, 'venue-counts'), counts)
    }
  }

  #element(venue: string): HTMLElement {
    for (const el of this.#root.querySelectorAll<HTMLElement>('.venue')) if (el.dataset.venue === venue) return el
    // A venue the page was not told of (the server added one): give it a strip too.
    const el = document.createElement('div')
    el.className = 'venue'
    el.dataset.venue = venue
    el.dataset.state = 'down'
    for (const name of ['venue-name', 'venue-state', 'venue-age', 'venue-counts']) {
      const span = document.createElement('span')
      span.className = name
      if (name === 'venue-name') span.textContent = venue
      el.append(span, ' ')
    }
    this.#root.append(el)
    return el
  }
}

function part(el: HTMLElement, name: string): Element {
  const p = el.querySelector(`.${name}`)
  if (p === null) throw new Error(`.venue[data-venue="${el.dataset.venue ?? ''}"] has no .${name}`)
  return p
}
