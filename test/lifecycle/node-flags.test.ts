import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { SERVICE_NODE_FLAGS } from '../../src/service-node-flags.js'

/**
 * The service runs with the same V8 flags however it is started (src/service-node-flags.ts): `npm start`, the
 * Dockerfile's CMD, and the benches and tests that spawn it (test/helpers/processes.ts reads the constant). A flag
 * changed in one place and not the others would make the benches measure a service nobody deploys.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..')

test('npm start and the Dockerfile run the service with SERVICE_NODE_FLAGS, right before the script', () => {
  const start = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts
    .start
  assert.ok(start.endsWith(`node ${SERVICE_NODE_FLAGS.join(' ')} dist/src/main.js`), start)

  const cmds = readFileSync(join(ROOT, 'Dockerfile'), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('CMD '))
    .map((line) => JSON.parse(line.slice('CMD '.length)) as unknown)
  assert.deepEqual(cmds, [['node', ...SERVICE_NODE_FLAGS, 'dist/src/main.js']])
})
