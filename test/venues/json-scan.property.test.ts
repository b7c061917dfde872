import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { arrayElements, objectMembers } from '../../src/venues/json-scan.js'

/**
 * The scan that finds a catalog page's events by their bytes (json-scan.ts) against JSON.parse, on any JSON: each
 * range it gives parses to the element (or member value) JSON.parse finds there, in order; a document cut short is
 * never taken for a whole one (the caller would then parse it whole, and fail).
 */
const bytesOf = (text: string) => Buffer.from(text, 'utf8')
const parseRange = (bytes: Buffer, r: { start: number; end: number }) =>
  JSON.parse(bytes.subarray(r.start, r.end).toString('utf8')) as unknown

/** Any JSON value, with any text in its strings (quotes, backslashes, brackets, non-ASCII). */
const value = fc.jsonValue({ maxDepth: 4 })
const layout = fc.constantFrom(undefined, 0, 1, 2, '\t')
const byteOrderMark = fc.boolean()
const serialize = (x: unknown, indent: string | number | undefined, bom: boolean) =>
  `${bom ? '\ufeff' : ''}${JSON.stringify(x, null, indent)}`

describe('json-scan: the byte ranges of the values of a JSON document', () => {
  test('an array: each element range parses to the element, in order', () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 12 }), layout, byteOrderMark, (elements, indent, bom) => {
        const bytes = bytesOf(serialize(elements, indent, bom))
        const ranges = arrayElements(bytes)
        assert.ok(ranges !== undefined)
        // What JSON.parse reads (JSON has no -0: it reads 0).
        assert.deepEqual(
          ranges.map((r) => parseRange(bytes, r)),
          JSON.parse(JSON.stringify(elements)),
        )
      }),
      { numRuns: 400 },
    )
  })

  test('an object: each member value range parses to the value, by key', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), value, { maxKeys: 8 }), layout, byteOrderMark, (object, indent, bom) => {
        const bytes = bytesOf(serialize(object, indent, bom))
        const members = objectMembers(bytes)?.members
        assert.ok(members !== undefined)
        // Keys as written: JSON.stringify's escaping of each key.
        const got = Object.fromEntries([...members].map(([k, r]) => [k, parseRange(bytes, r)]))
        const read = JSON.parse(JSON.stringify(object)) as Record<string, unknown>
        const want = Object.fromEntries(Object.entries(read).map(([k, v]) => [JSON.stringify(k).slice(1, -1), v]))
        assert.deepEqual(got, want)
      }),
      { numRuns: 400 },
    )
  })

  test('a document cut short is not taken for a whole one', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.array(value, { maxLength: 6 }), fc.dictionary(fc.string(), value, { maxKeys: 6 })),
        layout,
        fc.nat(),
        (doc, indent, at) => {
          const text = serialize(doc, indent, false)
          const bytes = bytesOf(text).subarray(0, at % Buffer.byteLength(text))
          assert.equal(Array.isArray(doc) ? arrayElements(bytes) : objectMembers(bytes), undefined)
        },
      ),
      { numRuns: 400 },
    )
  })

  test('the other shape, a bare value, or trailing bytes: not followed', () => {
    assert.equal(arrayElements(bytesOf('{"events":[]}')), undefined)
    assert.equal(objectMembers(bytesOf('[1,2]')), undefined)
    assert.equal(arrayElements(bytesOf('"[1]"')), undefined)
    assert.equal(arrayElements(bytesOf('[1,2] [3]')), undefined)
    assert.equal(objectMembers(bytesOf('{"a":1}x')), undefined)
    assert.deepEqual(arrayElements(bytesOf(' [ ] ')), [])
    assert.deepEqual(objectMembers(bytesOf('{}')), { members: new Map() })
  })

  test("an object's array member: its elements found in the same pass; a later non-array value of that key drops them", () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 8 }), value, layout, (events, cursor, indent) => {
        const bytes = bytesOf(JSON.stringify({ cursor, events, more: [events] }, null, indent))
        const page = objectMembers(bytes, 'events')
        assert.ok(page?.elements !== undefined)
        assert.deepEqual(
          page.elements.map((r) => parseRange(bytes, r)),
          JSON.parse(JSON.stringify(events)),
        )
      }),
      { numRuns: 200 },
    )
    assert.equal(objectMembers(bytesOf('{"events":[1],"events":null}'), 'events')?.elements, undefined)
    assert.equal(objectMembers(bytesOf('{"events":{"a":[1]}}'), 'events')?.elements, undefined)
  })

  test('a key given twice: its last value, as JSON.parse keeps', () => {
    const bytes = bytesOf('{"cursor":"a","events":[],"cursor":"b"}')
    const cursor = objectMembers(bytes)?.members.get('cursor')
    assert.ok(cursor !== undefined)
    assert.equal(parseRange(bytes, cursor), 'b')
  })
})
