import { createPrivateKey } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { VenuekConfig } from './config.js'
import type { CredentialState } from '../types.js'
import type { VenuekCredentials } from './signing.js'

/**
 * venuek's API key (VENUEK_API_KEY_ID + the RSA private key at VENUEK_PRIVATE_KEY_PATH), read and checked once at
 * boot so that a missing, unreadable or unusable key is one clear warning instead of a crash with a stack or a
 * signing error on every request. The service runs without it: venuek market data over REST is public, and
 * requests then go out unsigned. The live venuek WebSocket is what needs it (venuek.md §7: the venue answers an
 * unsigned handshake with 401).
 *
 * States, as /readyz shows them per venue (`credentials`):
 * - `configured`: a key id and a readable RSA private key; requests and the handshake are signed;
 * - `missing`: one or both settings unset;
 * - `unreadable`: the key file cannot be read (no such file, permission denied, a directory);
 * - `invalid`: the file is not an unencrypted RSA private key in PEM (a public key, an EC key, garbage…);
 * - `not_required`: the in-process simulator was started without venuek auth (nothing to sign for).
 */
export type { CredentialState }
export interface VenuekCredentialCheck {
  readonly state: CredentialState
  readonly credentials?: VenuekCredentials
  /** What is wrong, naming the variable and the file (absent when configured or not required). */
  readonly problem?: string
}

/** Reads and checks the key the config names. Never throws. */
export function readVenuekCredentials(
  config: Pick<VenuekConfig, 'apiKeyId' | 'privateKeyPath'>,
  readFile: (path: string) => string = (p) => readFileSync(p, 'utf8'),
): VenuekCredentialCheck {
  const unset = [
    config.apiKeyId === undefined ? 'VENUEK_API_KEY_ID' : undefined,
    config.privateKeyPath === undefined ? 'VENUEK_PRIVATE_KEY_PATH' : undefined,
  ].filter((v) => v !== undefined)
  if (config.apiKeyId === undefined || config.privateKeyPath === undefined) {
    return { state: 'missing', problem: `${unset.join(' and ')} ${unset.length === 1 ? 'is' : 'are'} not set` }
  }
  const path = config.privateKeyPath
  let pem: string
  try {
    pem = readFile(path)
  } catch (err) {
    return { state: 'unreadable', problem: `cannot read VENUEK_PRIVATE_KEY_PATH=${path}: ${fileError(err)}` }
  }
  const wrong = keyProblem(pem)
  if (wrong !== undefined)
    return { state: 'invalid', problem: `VENUEK_PRIVATE_KEY_PATH=${path} is not a usable RSA private key: ${wrong}` }
  return { state: 'configured', credentials: { keyId: config.apiKeyId, privateKeyPem: pem } }
}

/** The in-process simulator's own key (it sets up the venuek account it verifies), or none when it requires no auth. */
export function simulatorCredentials(credentials: VenuekCredentials | undefined): VenuekCredentialCheck {
  return credentials === undefined ? { state: 'not_required' } : { state: 'configured', credentials }
}

/**
 * The boot warning for a venuek key that is not usable: what is wrong and what does not work without it. What the
 * service does then (the venue actor and feed, unchanged by a missing key): the handshake goes out unsigned and is
 * refused, and the feed keeps reconnecting with backoff; there is no REST polling of venuek books.
 */
export function credentialWarning(check: VenuekCredentialCheck, wsUrl: string): string | undefined {
  if (check.state === 'configured' || check.state === 'not_required') return undefined
  return (
    `venuek credentials ${check.state}: ${check.problem ?? ''}. The venuek WebSocket (${wsUrl}) requires a signed handshake, so without ` +
    'them: no venuek live quotes, books or trades (the feed is refused with HTTP 401 and keeps retrying), venuek never becomes ready ' +
    "(/readyz stays 503), and no cross-venue spreads (they need venuek's live quotes). Still working: the venuek catalog over public REST, so venuek " +
    'events and markets are listed, priced from the last catalog sync instead of live quotes. ' +
    'Set VENUEK_API_KEY_ID and VENUEK_PRIVATE_KEY_PATH (README, "Going live")'
  )
}

function fileError(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code
  switch (code) {
    case 'ENOENT':
      return 'no such file (ENOENT)'
    case 'EACCES':
    case 'EPERM':
      return `permission denied (${code}); the service's user must be able to read it`
    case 'EISDIR':
      return 'it is a directory (EISDIR)'
    default:
      return err instanceof Error ? err.message : String(err)
  }
}

/** Why a PEM text is not an RSA private key the signer can use, in words; undefined when it is one. */
function keyProblem(pem: string): string | undefined {
  if (!pem.includes('-----BEGIN '))
    return 'no PEM block in the file (expected -----BEGIN PRIVATE KEY----- or -----BEGIN RSA PRIVATE KEY-----)'
  if (pem.includes('-----BEGIN ENCRYPTED PRIVATE KEY-----') || /Proc-Type: 4,ENCRYPTED/.test(pem)) {
    return 'it is encrypted with a passphrase; store it decrypted (openssl pkey -in key.pem -out key-plain.pem) and keep the file private'
  }
  if (!pem.includes('PRIVATE KEY-----') && pem.includes('PUBLIC KEY-----'))
    return 'it holds a public key; the private key the venue gave with the key id is needed'
  try {
    const key = createPrivateKey(pem)
    if (key.asymmetricKeyType !== 'rsa' && key.asymmetricKeyType !== 'rsa-pss')
      return `it is an ${key.asymmetricKeyType ?? 'unknown'} key; venuek keys are RSA`
    return undefined
  } catch (err) {
    return `the PEM does not parse (${err instanceof Error ? err.message : String(err)})`
  }
}
