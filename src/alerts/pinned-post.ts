import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { LookupFunction } from 'node:net'
import type { ResolvedAddress } from './webhook-target.js'

/**
 * One POST to a URL whose host was already resolved and checked (webhook-target.ts), connecting only to those
 * addresses: the socket's `lookup` answers with them instead of asking DNS again, so a name that resolves to a
 * public address for the check and to 127.0.0.1 a moment later (DNS rebinding) still reaches the checked address.
 * TLS still verifies the certificate against the host name (SNI and the check use the URL's host, not the address).
 *
 * No redirects are followed (node:http never does): a 3xx is the answer. A fresh connection per request (no agent
 * pool), so no socket opened for an earlier check is reused after the host's addresses changed. Of the response
 * only the status and, for a non-2xx, the first `maxErrorBytes` of the body are read.
 */
export interface PinnedPost {
  readonly url: URL
  /** The checked addresses; the connection goes to one of them. */
  readonly addresses: readonly ResolvedAddress[]
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  /** Aborts the request (timeout, shutdown); the promise then rejects. */
  readonly signal: AbortSignal
  readonly maxErrorBytes: number
}

export interface PinnedResponse {
  readonly status: number
  /** The start of a non-2xx body; empty for 2xx. */
  readonly text: string
}

export function postPinned(p: PinnedPost): Promise<PinnedResponse> {
  const lookup = pinnedLookup(p.addresses)
  const options: RequestOptions = {
    method: 'POST',
    headers: { ...p.headers, 'content-length': String(Buffer.byteLength(p.body)) },
    lookup,
    agent: false,
    signal: p.signal,
  }
  return new Promise((resolve, reject) => {
    const send = p.url.protocol === 'https:' ? httpsRequest : httpRequest
    const req = send(p.url, options, (res) => {
      readAnswer(res, p.maxErrorBytes).then(resolve, reject)
    })
    req.on('error', reject)
    req.end(p.body)
  })
}

/** A `lookup` that answers with the given addresses only, in both forms net.connect asks for. */
function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all === true) {
      callback(
        null,
        addresses.map((a) => ({ address: a.address, family: a.family })),
      )
      return
    }
    const wanted = options.family === 4 || options.family === 6 ? options.family : undefined
    const a = addresses.find((x) => wanted === undefined || x.family === wanted) ?? addresses[0]
    if (a === undefined) callback(Object.assign(new Error('no checked address'), { code: 'ENOTFOUND' }), '', 4)
    else callback(null, a.address, a.family)
  }
}

function readAnswer(res: IncomingMessage, maxBytes: number): Promise<PinnedResponse> {
  const status = res.statusCode ?? 0
  if (status >= 200 && status < 300) {
    res.resume()
    return Promise.resolve({ status, text: '' })
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    const done = () => resolve({ status, text: Buffer.concat(chunks).toString('utf8') })
    res.on('data', (chunk: Buffer) => {
      if (size >= maxBytes) return
      chunks.push(chunk)
      size += chunk.length
      if (size >= maxBytes) {
        res.destroy()
        done()
      }
    })
    res.on('end', done)
    // A body cut short is still an answer: the status is what counts.
    res.on('error', done)
    res.on('close', done)
  })
}
