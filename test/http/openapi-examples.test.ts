import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { TSchema } from '@sinclair/typebox'
import type { OpenApiDocument } from '../../src/http/openapi.js'
import { ErrorBody, ValidationErrorBody } from '../../src/http/schemas/common.js'
import { OPENAPI_EXAMPLES } from '../../src/http/openapi-examples.generated.js'
import { assertMatchesResponseSchema } from '../helpers/contract.js'
import { startTestService, type TestService } from '../helpers/service.js'

/**
 * The published document carries a real response for every operation (captured by tools/openapi-examples.ts from
 * the service on the simulator), and every example still matches the schema its status publishes: when a schema
 * changes, this fails until `npm run openapi:examples` is run again.
 */
const IMPLIED: Readonly<Record<number, TSchema>> = {
  401: ErrorBody,
  413: ErrorBody,
  415: ErrorBody,
  422: ValidationErrorBody,
}

let s: TestService
let doc: OpenApiDocument

before(async () => {
  s = await startTestService({ questions: 40 })
  const res = await fetch(`${s.baseUrl}/api/v2/openapi.json`)
  assert.equal(res.status, 200)
  doc = (await res.json()) as OpenApiDocument
})

after(async () => {
  await s?.close()
})

const operations = () => Object.values(doc.paths).flatMap((item) => Object.values(item))

describe('OpenAPI examples', () => {
  test('every operation shows a successful response, labelled as simulated data', () => {
    const missing: string[] = []
    for (const op of operations()) {
      const success = Object.entries(op.responses).filter(([status]) => status.startsWith('2'))
      const shown = success.some(([, r]) =>
        Object.values(r.content ?? {}).some((m) => m.examples?.simulated !== undefined),
      )
      if (!shown) missing.push(op.operationId)
      for (const r of Object.values(op.responses)) {
        for (const m of Object.values(r.content ?? {}))
          if (m.examples !== undefined) assert.match(m.examples.simulated!.summary, /simulated data$/)
      }
    }
    assert.deepEqual(missing, [], 'operations without an example (run `npm run openapi:examples`)')
  })

  test('each example is a body its route may send: it matches the published schema of its status', () => {
    let checked = 0
    for (const [operationId, byStatus] of Object.entries(OPENAPI_EXAMPLES)) {
      const route = s.app.routes.find((r) => r.operationId === operationId)
      assert.ok(route !== undefined, `an example for ${operationId}, which is no route`)
      for (const [status, example] of Object.entries(byStatus)) {
        const code = Number(status)
        // Statuses every route has (401, 422: added by the document builder) are checked against their shared schema.
        const implied = IMPLIED[code]
        const checkedRoute =
          route.responses[code] === undefined && implied !== undefined
            ? { ...route, responses: { [code]: { description: '', schema: implied } } }
            : route
        // Text bodies (/metrics, /docs) have no schema to match.
        if (checkedRoute.responses[code]?.schema === undefined) continue
        assertMatchesResponseSchema(checkedRoute, code, example.value)
        checked++
      }
    }
    assert.ok(checked >= 45, `${checked} examples checked against their schemas`)
  })

  test('the reference page shows them, escaped', async () => {
    const html = await (await fetch(`${s.baseUrl}/docs`)).text()
    const top = OPENAPI_EXAMPLES.topSpreads![200]!
    assert.ok(html.includes(`<summary>Example: ${top.summary}</summary>`), 'the top-spreads example is on the page')
    // The /docs example is itself HTML: on the page it is text, never markup.
    assert.ok(
      html.includes('&lt;!doctype html&gt;') || html.includes('&lt;!DOCTYPE html&gt;'),
      "the page's own example is escaped",
    )
  })

  test('the examples are the published ones, in the media type the operation answers with', () => {
    for (const op of operations()) {
      for (const [status, example] of Object.entries(OPENAPI_EXAMPLES[op.operationId] ?? {})) {
        const content = op.responses[status]?.content
        assert.ok(content !== undefined, `${op.operationId} ${status}`)
        assert.deepEqual(
          Object.values(content).map((m) => m.examples),
          [{ simulated: example }],
        )
      }
    }
  })
})
