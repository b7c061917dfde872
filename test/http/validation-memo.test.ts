import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Type } from '@sinclair/typebox'
import { json } from '../../src/http/reply.js'
import { defineRoute } from '../../src/http/route.js'
import { Csv, Limit } from '../../src/http/schemas/common.js'
import { compileRequestValidator, QUERY_MEMO_MAX } from '../../src/http/validation.js'

/**
 * Query-only routes remember the validation result per raw query string (validation.ts, memoizedByQuery). What
 * clients depend on: the same answer as without the memo, errors included, and no way for one request's input
 * to leak into another's (the shared input is frozen).
 */
const route = defineRoute({
  method: 'get',
  path: '/t/list',
  operationId: 'memoList',
  summary: 'list',
  tags: ['test'],
  query: Type.Object({ ids: Type.Optional(Csv()), limit: Limit(25, 100) }),
  responses: { 200: { description: 'ok' } },
  handler: () => json(200, {}),
})

const raw = (query: string) => ({ query, params: {}, headers: {}, body: undefined })

test('a repeated query string gets the same frozen input; different strings get their own', () => {
  const v = compileRequestValidator(route)
  const a = v.validate(raw('ids=x,y&limit=5'))
  const b = v.validate(raw('ids=x,y&limit=5'))
  assert.equal(a.ok, true)
  assert.equal(a, b)
  if (!a.ok) return
  assert.deepEqual(a.input.query, { ids: ['x', 'y'], limit: 5 })
  assert.equal(Object.isFrozen(a.input.query), true)
  assert.equal(Object.isFrozen(a.input.query.ids), true)
  assert.throws(() => {
    ;(a.input.query.ids as string[]).push('z')
  }, TypeError)
  const c = v.validate(raw('limit=5'))
  assert.equal(c.ok && c.input.query.limit, 5)
  assert.deepEqual(c.ok && c.input.query, { limit: 5 })
})

test('an invalid query string is rejected the same way every time', () => {
  const v = compileRequestValidator(route)
  const first = v.validate(raw('limit=101'))
  const second = v.validate(raw('limit=101'))
  assert.equal(first.ok, false)
  assert.deepEqual(second, first)
  assert.deepEqual(!first.ok && first.issues.map((i) => i.loc), [['query', 'limit']])
})

test('past its bound the memo starts over and keeps answering correctly', () => {
  const v = compileRequestValidator(route)
  const first = v.validate(raw('limit=7'))
  for (let i = 0; i < QUERY_MEMO_MAX + 10; i++) {
    const r = v.validate(raw(`limit=${(i % 100) + 1}&ids=k${i}`))
    assert.deepEqual(r.ok && r.input.query, { limit: (i % 100) + 1, ids: [`k${i}`] })
  }
  const again = v.validate(raw('limit=7'))
  assert.deepEqual(again, first)
})
