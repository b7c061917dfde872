import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Type } from '@sinclair/typebox'
import { json } from '../../src/http/reply.js'
import { defineRoute } from '../../src/http/route.js'
import { ErrorBody, ValidationErrorBody } from '../../src/http/schemas/common.js'
import { assertMatchesResponseSchema, assertReplyMatchesSchema } from '../helpers/contract.js'

/** The contract helper endpoint tests rely on: it must catch missing fields, wrong types and undeclared fields. */
const route = defineRoute({
  method: 'get',
  path: '/api/v2/spreads',
  operationId: 'listSpreads',
  summary: 'spreads',
  tags: ['spreads'],
  responses: {
    200: {
      description: 'ok',
      schema: Type.Object({
        data: Type.Array(
          Type.Object({
            event_slug: Type.String(),
            spread: Type.Optional(Type.Number()),
            is_stale: Type.Boolean(),
            updated_at: Type.String({ format: 'date-time' }),
          }),
        ),
        count: Type.Integer({ minimum: 0, default: 0 }),
      }),
    },
    404: { description: 'not found', schema: ErrorBody },
    422: { description: 'invalid', schema: ValidationErrorBody },
    503: { description: 'html', contentType: 'text/html' },
  },
  handler: () => json(200, {}),
})

const row = { event_slug: 'fed-cut', is_stale: false, updated_at: '2026-11-21T12:00:00Z' }

test('a body that matches passes, including optional fields and open error bodies', () => {
  assertMatchesResponseSchema(route, 200, { data: [row, { ...row, spread: 0.03 }], count: 2 })
  assertMatchesResponseSchema(route, 404, { detail: 'no such event', code: 'not_found', event_slug: 'x' })
  assertMatchesResponseSchema(route, 422, {
    detail: [{ type: 'missing', loc: ['query', 'x'], msg: 'Field required', input: null }],
  })
  assertReplyMatchesSchema(route, json(200, { data: [], count: 0 }))
})

test('missing required fields are reported even when the schema has a default', () => {
  assert.throws(
    () => assertMatchesResponseSchema(route, 200, { data: [{ event_slug: 'a', updated_at: '2026-11-21T12:00:00Z' }] }),
    (err: Error) => {
      assert.equal(
        err.message,
        [
          'GET /api/v2/spreads (listSpreads): 200 body does not match its schema:',
          '  - (root): missing required field "count"',
          '  - /data/0: missing required field "is_stale"',
        ].join('\n'),
      )
      return true
    },
  )
})

test('wrong types, formats and undeclared fields are reported, one line each', () => {
  const body = { data: [{ ...row, is_stale: 'no', updated_at: 'yesterday', spred: 0.1 }], count: '1' }
  assert.throws(
    () => assertMatchesResponseSchema(route, 200, body),
    (err: Error) => {
      assert.equal(
        err.message,
        [
          'GET /api/v2/spreads (listSpreads): 200 body does not match its schema:',
          '  - /data/0: unexpected field "spred" (not in the schema)',
          '  - /data/0/is_stale: must be boolean (got "no")',
          '  - /data/0/updated_at: must match format "date-time" (got "yesterday")',
          '  - /count: must be integer (got "1")',
        ].join('\n'),
      )
      return true
    },
  )
  // Opting out of the closed-object check still checks types.
  assertMatchesResponseSchema(route, 200, { data: [{ ...row, extra: 1 }], count: 1 }, { allowExtraFields: true })
  assert.throws(
    () => assertMatchesResponseSchema(route, 200, { data: [], count: -1 }, { allowExtraFields: true }),
    /\/count: must be >= 0 \(got -1\)/,
  )
})

test('an undeclared status or a status without a JSON schema fails', () => {
  assert.throws(
    () => assertMatchesResponseSchema(route, 500, {}),
    /listSpreads\) declares no 500 response \(declared: 200, 404, 422, 503\)/,
  )
  assert.throws(() => assertMatchesResponseSchema(route, 503, {}), /declares no body schema for 503/)
  assert.throws(() => assertReplyMatchesSchema(route, { status: 200, body: '<html>' }), /200 body is not JSON/)
})
