import assert from 'node:assert/strict'
import { generateKeyPairSync } from 'node:crypto'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { createVenuekAdapter } from '../../src/venues/venuek/adapter.js'
import { credentialWarning, readVenuekCredentials, simulatorCredentials } from '../../src/venues/venuek/credentials.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import { loadConfig } from '../../src/config/load.js'

/**
 * venuek's key is read and checked once, at boot: every way it can be wrong is one state and one sentence naming
 * the variable and the file, never an exception (the adapter used to read the file itself and crash the boot with
 * a stack on a missing file, and a bad PEM failed every signed request instead).
 */
const dir = mkdtempSync(join(tmpdir(), 'venuek-creds-'))
after(() => rmSync(dir, { recursive: true, force: true }))

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 })
const file = (name: string, text: string): string => {
  const path = join(dir, name)
  writeFileSync(path, text, { mode: 0o600 })
  return path
}
const pkcs8 = file('pkcs8.pem', rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString())
const pkcs1 = file('pkcs1.pem', rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString())
const publicKey = file('public.pem', rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString())
const encrypted = file(
  'encrypted.pem',
  rsa.privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'secret' }).toString(),
)
const ec = file(
  'ec.pem',
  generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
)
const garbage = file('garbage.pem', 'this is not a key\n')
const broken = file('broken.pem', '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n')
const missing = join(dir, 'missing.pem')
const KEY_ID = 'a952bcbe-ec3b-4b5b-b8f9-11dae589608c'

describe('readVenuekCredentials', () => {
  test('a key id and an RSA private key (PKCS#8 or PKCS#1): configured', () => {
    for (const path of [pkcs8, pkcs1]) {
      const check = readVenuekCredentials({ apiKeyId: KEY_ID, privateKeyPath: path })
      assert.equal(check.state, 'configured')
      assert.equal(check.problem, undefined)
      assert.equal(check.credentials?.keyId, KEY_ID)
    }
  })

  test('settings unset: missing, naming the variables', () => {
    assert.deepEqual(readVenuekCredentials({}), {
      state: 'missing',
      problem: 'VENUEK_API_KEY_ID and VENUEK_PRIVATE_KEY_PATH are not set',
    })
    assert.deepEqual(readVenuekCredentials({ apiKeyId: KEY_ID }), {
      state: 'missing',
      problem: 'VENUEK_PRIVATE_KEY_PATH is not set',
    })
    assert.deepEqual(readVenuekCredentials({ privateKeyPath: pkcs8 }), {
      state: 'missing',
      problem: 'VENUEK_API_KEY_ID is not set',
    })
  })

  test('a file that cannot be read: unreadable, naming the file and why', () => {
    assert.deepEqual(readVenuekCredentials({ apiKeyId: KEY_ID, privateKeyPath: missing }), {
      state: 'unreadable',
      problem: `cannot read VENUEK_PRIVATE_KEY_PATH=${missing}: no such file (ENOENT)`,
    })
    assert.deepEqual(readVenuekCredentials({ apiKeyId: KEY_ID, privateKeyPath: dir }), {
      state: 'unreadable',
      problem: `cannot read VENUEK_PRIVATE_KEY_PATH=${dir}: it is a directory (EISDIR)`,
    })
    const denied = (): string => {
      throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' })
    }
    assert.deepEqual(readVenuekCredentials({ apiKeyId: KEY_ID, privateKeyPath: '/etc/venuek.pem' }, denied), {
      state: 'unreadable',
      problem:
        "cannot read VENUEK_PRIVATE_KEY_PATH=/etc/venuek.pem: permission denied (EACCES); the service's user must be able to read it",
    })
  })

  test('a file that is not an unencrypted RSA private key: invalid, saying what it is instead', () => {
    const problem = (path: string) => readVenuekCredentials({ apiKeyId: KEY_ID, privateKeyPath: path })
    const prefix = (path: string) => `VENUEK_PRIVATE_KEY_PATH=${path} is not a usable RSA private key: `
    assert.deepEqual(problem(garbage), {
      state: 'invalid',
      problem: `${prefix(garbage)}no PEM block in the file (expected -----BEGIN PRIVATE KEY----- or -----BEGIN RSA PRIVATE KEY-----)`,
    })
    assert.deepEqual(problem(publicKey), {
      state: 'invalid',
      problem: `${prefix(publicKey)}it holds a public key; the private key the venue gave with the key id is needed`,
    })
    assert.deepEqual(problem(encrypted), {
      state: 'invalid',
      problem: `${prefix(encrypted)}it is encrypted with a passphrase; store it decrypted (openssl pkey -in key.pem -out key-plain.pem) and keep the file private`,
    })
    assert.deepEqual(problem(ec), { state: 'invalid', problem: `${prefix(ec)}it is an ec key; venuek keys are RSA` })
    const bad = problem(broken)
    assert.equal(bad.state, 'invalid')
    assert.match(
      bad.problem ?? '',
      new RegExp(
        `^VENUEK_PRIVATE_KEY_PATH=${broken.replace(/[.]/g, '\\.')} is not a usable RSA private key: the PEM does not parse \\(.+\\)$`,
      ),
    )
  })

  test('the in-process simulator: its own key, or not required', () => {
    assert.deepEqual(simulatorCredentials(undefined), { state: 'not_required' })
    assert.equal(simulatorCredentials({ keyId: 'k', privateKeyPem: 'pem' }).state, 'configured')
  })

  test('unreadable as the process user: a file without read permission (skipped as root, who reads anything)', (t) => {
    if (process.getuid?.() === 0) return t.skip('root reads any file')
    const locked = file('locked.pem', 'x')
    chmodSync(locked, 0o000)
    assert.deepEqual(readVenuekCredentials({ apiKeyId: KEY_ID, privateKeyPath: locked }), {
      state: 'unreadable',
      problem: `cannot read VENUEK_PRIVATE_KEY_PATH=${locked}: permission denied (EACCES); the service's user must be able to read it`,
    })
  })
})

describe('credentialWarning', () => {
  test('names the problem and what will not work without the key; nothing when configured or not required', () => {
    const wsUrl = 'wss://venuek.example/trade-api/ws/v2'
    assert.equal(
      credentialWarning(
        { state: 'missing', problem: 'VENUEK_API_KEY_ID and VENUEK_PRIVATE_KEY_PATH are not set' },
        wsUrl,
      ),
      `venuek credentials missing: VENUEK_API_KEY_ID and VENUEK_PRIVATE_KEY_PATH are not set. The venuek WebSocket (wss://venuek.example/trade-api/ws/v2) requires a signed handshake, so without them: no venuek live quotes, books or trades (the feed is refused with HTTP 401 and keeps retrying), venuek never becomes ready (/readyz stays 503), and no cross-venue spreads (they need venuek's live quotes). Still working: the venuek catalog over public REST, so venuek events and markets are listed, priced from the last catalog sync instead of live quotes. Set VENUEK_API_KEY_ID and VENUEK_PRIVATE_KEY_PATH (README, "Going live")`,
    )
    assert.equal(
      credentialWarning(readVenuekCredentials({ apiKeyId: KEY_ID, privateKeyPath: pkcs8 }), wsUrl),
      undefined,
    )
    assert.equal(credentialWarning({ state: 'not_required' }, wsUrl), undefined)
  })

  test('the adapter reports the state it was given, and never reads the key file itself', () => {
    const config = loadConfig({
      env: { NODE_ENV: 'test', VENUEK_API_KEY_ID: KEY_ID, VENUEK_PRIVATE_KEY_PATH: missing },
    }).venues.venuek
    const ctx = { clock: new SimulatedClock(0), log: silentLogger }
    assert.equal(
      createVenuekAdapter(config, ctx).credentials,
      'missing',
      'no check given: unsigned, reported missing, no crash',
    )
    assert.equal(createVenuekAdapter(config, ctx, readVenuekCredentials(config)).credentials, 'unreadable')
  })
})
