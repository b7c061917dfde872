import assert from 'node:assert/strict'
import { test } from 'node:test'
import { LogCounter } from '../../tools/soak/log-counter.js'

test('LogCounter counts pino lines by level, lists warnings by msg, keeps error and non-JSON lines', () => {
  const log = new LogCounter()
  const line = (level: number, msg: string): string => `${JSON.stringify({ level, time: 1, pid: 1, msg })}\n`
  const all =
    line(30, 'listening') +
    line(40, 'venue feed stalled') +
    line(40, 'venue feed stalled') +
    line(40, 'catalog refresh failed') +
    line(50, 'store write failed') +
    'node:internal warning\n' +
    line(60, 'fatal')
  // Split mid-line, as a pipe delivers it.
  log.push(all.slice(0, 37))
  log.push(all.slice(37))
  log.push('{"level":30,"msg":"no newline at the end"}')
  log.end()
  assert.deepEqual(Object.fromEntries(log.byLevel), { info: 2, warn: 3, error: 1, unparsed: 1, fatal: 1 })
  assert.deepEqual(Object.fromEntries(log.warnByMsg), { 'venue feed stalled': 2, 'catalog refresh failed': 1 })
  assert.equal(log.errors, 2)
  assert.equal(log.errorLines.length, 2)
  assert.match(log.errorLines[0] as string, /store write failed/)
  assert.deepEqual(log.unparsedLines, ['node:internal warning'])
})
