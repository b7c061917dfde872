/** Small DOM helpers: elements by id (checked, so a renamed id fails loudly at start), and element building. */
export function byId<T extends HTMLElement>(id: string, type: new () => T): T {
  const el = document.getElementById(id)
  if (!(el instanceof type)) throw new Error(`#${id}: expected a ${type.name}`)
  return el
}

export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  text?: string,
  className?: string,
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag)
  if (text !== undefined) el.textContent = text
  if (className !== undefined) el.className = className
  return el
}

/** Sets an element's text only when it differs (no needless layout work on a busy list). */
export function setText(el: Element, text: string): void {
  if (el.textContent !== text) el.textContent = text
}
