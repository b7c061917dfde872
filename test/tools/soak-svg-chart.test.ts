import assert from 'node:assert/strict'
import { test } from 'node:test'
import { chartSvg, escapeXml } from '../../tools/soak/svg-chart.js'

/**
 * Well-formedness without an XML parser dependency: every tag opens and closes in order (or closes itself), every
 * attribute is quoted, no raw `<` or `&` in text. Enough for the markup chartSvg writes, which has no comments,
 * CDATA or doctype.
 */
function assertWellFormed(svg: string): void {
  const stack: string[] = []
  const tag = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/y
  let i = 0
  while (i < svg.length) {
    const lt = svg.indexOf('<', i)
    const text = svg.slice(i, lt < 0 ? svg.length : lt)
    assert.doesNotMatch(text, /&(?!#\d+;|amp;|lt;|gt;|quot;|apos;)/, `raw & in text: ${text}`)
    assert.doesNotMatch(text, />/, `stray > in text: ${text}`)
    if (lt < 0) break
    tag.lastIndex = lt
    const m = tag.exec(svg)
    assert.ok(m !== null, `malformed tag at ${lt}: ${svg.slice(lt, lt + 80)}`)
    const [, close, name, , selfClose] = m
    if (close === '/') assert.equal(stack.pop(), name, `</${name}> closes the wrong element`)
    else if (selfClose !== '/') stack.push(name as string)
    i = tag.lastIndex
  }
  assert.deepEqual(stack, [], 'unclosed elements')
}

test('chartSvg writes a well-formed SVG with one panel and one polyline point per sample', () => {
  const panels = [
    { title: 'RSS', unit: 'MiB', points: [0, 10, 20, 30].map((x) => ({ x, y: 200 + x })), markX: 15 },
    { title: 'Handles <&> "quoted"', unit: 'handles', points: [0, 10, 20].map((x) => ({ x, y: 15 })) },
  ]
  const svg = chartSvg({ title: 'Soak & co', xLabel: 'time (s)', panels })
  assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" /)
  assertWellFormed(svg)
  const polylines = [...svg.matchAll(/<polyline [^>]*points="([^"]*)"/g)].map((m) => (m[1] as string).split(' '))
  assert.deepEqual(
    polylines.map((p) => p.length),
    [4, 3],
  )
  for (const p of polylines.flat()) assert.match(p, /^\d+(\.\d)?,\d+(\.\d)?$/)
  // Each panel's axes are labelled: its unit, the shared x label, and escaped titles.
  assert.equal([...svg.matchAll(/>time \(s\)</g)].length, 2)
  assert.match(svg, />MiB</)
  assert.match(svg, />Handles &#60;&#38;&#62; &#34;quoted&#34;</)
  assert.match(svg, />Soak &#38; co</)
  // The warm-up mark is drawn where asked: x = 15 of 0..30 is the middle of the plot (70 + 670 / 2).
  assert.match(svg, /<line x1="405" y1="\d+" x2="405" [^>]*stroke-dasharray/)
})

test('a flat series and a single point still give finite coordinates', () => {
  const svg = chartSvg({
    title: 't',
    xLabel: 'x',
    panels: [{ title: 'one', unit: 'u', points: [{ x: 5, y: 0 }] }],
  })
  assertWellFormed(svg)
  assert.doesNotMatch(svg, /NaN|Infinity/)
})

test('escapeXml leaves nothing a parser would read as markup', () => {
  assert.equal(escapeXml(`a<b>&"c'`), 'a&#60;b&#62;&#38;&#34;c&#39;')
})
