import assert from 'node:assert/strict'
import { test } from 'node:test'
import { checkedLogger, duplicateKeys, lineProblems } from '../helpers/checked-logger.js'

/** The check every test service applies to its log lines must itself catch what a log shipper would trip on. */
test('duplicateKeys finds a key repeated in any object, and nothing in strings, arrays or distinct objects', () => {
  assert.deepEqual(duplicateKeys('{"a":1,"b":{"a":2,"c":[{"a":3},{"a":4}]},"s":"\\"a\\":","t":"{"}'), [])
  assert.deepEqual(duplicateKeys('{"name":"predmkt","x":1,"name":"alert_rules"}'), ['name'])
  assert.deepEqual(duplicateKeys('{"o":{"venue":"p","venue":"k"}}'), ['venue'])
  assert.deepEqual(duplicateKeys('{"k\\u0065y":1,"key":2}'), ['key'])
  assert.deepEqual(lineProblems('{"a":1'), ['not JSON'])
})

test('a field that repeats a child binding or a base field is caught on the service logger', () => {
  const logs = checkedLogger()
  logs.log.child({ component: 'store' }).info({ version: 2, migration: '0002_alert_rules' }, 'applied migration')
  assert.deepEqual(logs.problems(), [])
  logs.log.child({ component: 'store' }).info({ name: '0002_alert_rules' }, 'applied migration')
  logs.log.child({ venue: 'venuep' }).warn({ venue: 'venuep' }, 'x')
  assert.deepEqual(
    logs.problems().map((p) => p.split(':')[0]),
    ['duplicate key "name"', 'duplicate key "venue"'],
  )
  assert.equal(logs.lines(), 3)
})
