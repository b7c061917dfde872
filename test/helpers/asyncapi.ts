import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { Ajv, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'

/**
 * What the tests of our AsyncAPI documents (the stream's and the bus's) check them with: the official AsyncAPI 3.0.0
 * JSON Schema (the one @asyncapi/parser validates with), local `$ref` resolution, and a message's payload as a
 * standalone JSON Schema to validate real frames against.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>

const require = createRequire(import.meta.url)
const specs = require('@asyncapi/specs') as { schemas: Record<string, object> }

/** The AsyncAPI 3.0.0 document validator. */
export function asyncApi3Validator(): ValidateFunction {
  // The bundle carries its own copy of the draft-07 meta-schema, so Ajv's is left out.
  const ajv = new Ajv({ strict: false, allErrors: true, meta: false, validateSchema: false, logger: false })
  addFormatsModule.default(ajv)
  return ajv.compile(specs.schemas['3.0.0']!)
}

/** Follows a local JSON pointer (`#/a/b`) in `doc`. */
export function resolvePointer(doc: Json, pointer: string): unknown {
  assert.ok(pointer.startsWith('#/'), `local ref ${pointer}`)
  let at: unknown = doc
  for (const part of pointer.slice(2).split('/')) {
    at = (at as Json | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')]
    assert.ok(at !== undefined, `${pointer} resolves`)
  }
  return at
}

/** A message's payload as a standalone JSON Schema (its component refs inlined through `definitions`). */
export function payloadValidator(doc: Json, message: string): ValidateFunction {
  const ajv = new Ajv({ strict: false, allErrors: true })
  const text = JSON.stringify(doc.components.messages[message].payload).replace(
    /"#\/components\/schemas\//g,
    '"#/definitions/',
  )
  const schemas = JSON.stringify(doc.components.schemas).replace(/"#\/components\/schemas\//g, '"#/definitions/')
  return ajv.compile({ ...JSON.parse(text), definitions: JSON.parse(schemas) })
}
