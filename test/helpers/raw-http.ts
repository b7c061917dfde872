import net from 'node:net'

/**
 * A minimal HTTP/1.1 client over a bare socket, for requests `fetch` refuses to send: repeated headers, any
 * content type with any bytes, a request target with percent-escapes of invalid UTF-8. `rawRequest` sends one request
 * per connection (`Connection: close`) and reads the response up to its Content-Length; `rawExchange` writes any
 * bytes (broken framing, pipelined requests) and reads every response that comes back.
 */
export interface RawRequest {
  readonly method: string
  /** Path and query, sent as is (already percent-encoded). */
  readonly target: string
  readonly headers: readonly (readonly [string, string])[]
  readonly body?: Buffer
  /** Send the body with `Transfer-Encoding: chunked` (in chunks of up to 16 KiB) instead of a Content-Length. */
  readonly chunked?: boolean
}

export interface RawResponse {
  readonly status: number
  /** Lowercase names; a repeated header keeps its last value. */
  readonly headers: ReadonlyMap<string, string>
  /** Every header line as sent, in order: `[name (lowercase), value]`. */
  readonly headerList: readonly (readonly [string, string])[]
  readonly body: Buffer
}

/** Header values are written as latin1 bytes, as HTTP carries them. */
export function rawRequest(port: number, req: RawRequest, timeoutMs = 10_000): Promise<RawResponse> {
  const lines = [`${req.method} ${req.target} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close']
  for (const [name, value] of req.headers) lines.push(`${name}: ${value}`)
  if (req.body !== undefined)
    lines.push(req.chunked === true ? 'Transfer-Encoding: chunked' : `Content-Length: ${req.body.length}`)
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1')
  const body = req.body === undefined ? undefined : req.chunked === true ? chunkedBody(req.body) : req.body
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    let received = Buffer.alloc(0)
    let settled = false
    const finish = (err: Error | undefined, res?: RawResponse): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      if (err !== undefined) reject(err)
      else resolve(res as RawResponse)
    }
    const timer = setTimeout(() => finish(new Error(`no response within ${timeoutMs} ms`)), timeoutMs)
    socket.on('error', (err) => finish(err))
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk])
      const res = parse(received, req.method === 'HEAD')
      if (res !== undefined) finish(undefined, res)
    })
    socket.on('close', () =>
      finish(new Error(`connection closed after ${received.length} bytes: ${received.toString('latin1', 0, 200)}`)),
    )
    socket.write(body === undefined ? head : Buffer.concat([head, body]))
  })
}

/** A body in chunked transfer coding: chunks of up to 16 KiB, then the last (empty) chunk. */
function chunkedBody(body: Buffer): Buffer {
  const parts: Buffer[] = []
  for (let at = 0; at < body.length; at += 16_384) {
    const chunk = body.subarray(at, at + 16_384)
    parts.push(Buffer.from(`${chunk.length.toString(16)}\r\n`, 'latin1'), chunk, Buffer.from('\r\n', 'latin1'))
  }
  parts.push(Buffer.from('0\r\n\r\n', 'latin1'))
  return Buffer.concat(parts)
}

/**
 * The response once complete (headers and Content-Length bytes of body; no body after HEAD, whatever its
 * Content-Length says), undefined while more is due.
 */
function parse(bytes: Buffer, head: boolean): RawResponse | undefined {
  const end = bytes.indexOf('\r\n\r\n')
  if (end === -1) return undefined
  const [statusLine = '', ...headerLines] = bytes.toString('latin1', 0, end).split('\r\n')
  const headers = new Map<string, string>()
  const headerList: [string, string][] = []
  for (const line of headerLines) {
    const colon = line.indexOf(':')
    if (colon <= 0) continue
    const name = line.slice(0, colon).trim().toLowerCase()
    const value = line.slice(colon + 1).trim()
    headers.set(name, value)
    headerList.push([name, value])
  }
  const length = head ? 0 : Number(headers.get('content-length') ?? 0)
  if (bytes.length < end + 4 + length) return undefined
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    headerList,
    body: bytes.subarray(end + 4, end + 4 + length),
  }
}

/** How a raw exchange ended: the server closed (FIN), reset the connection, or neither before the deadline. */
export type RawEnding = 'closed' | 'reset' | 'open'

export interface RawExchange {
  /** Every complete response read, in order. */
  readonly responses: readonly RawResponse[]
  readonly ending: RawEnding
  /** From the first byte written to the ending (or the deadline). */
  readonly elapsedMs: number
  /** Bytes received after the last complete response (a partial response). */
  readonly leftover: number
}

/**
 * Writes `chunks` on one connection, as they are (any framing, several requests pipelined), `gapMs` apart, and reads
 * responses until the server closes or resets the connection, `expect` responses have arrived, or `timeoutMs`
 * passes. Writes stop quietly once the server has closed (a refused upload is not an error of the exchange).
 */
export function rawExchange(
  port: number,
  chunks: readonly (string | Buffer)[],
  o: {
    readonly expect?: number
    readonly timeoutMs?: number
    readonly gapMs?: number
    /** Which responses answer a HEAD (0-based), so have no body whatever their Content-Length says. */
    readonly heads?: readonly number[]
  } = {},
): Promise<RawExchange> {
  const timeoutMs = o.timeoutMs ?? 2_000
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    const startedAt = performance.now()
    const responses: RawResponse[] = []
    let pending = Buffer.alloc(0)
    let settled = false
    const finish = (ending: RawEnding): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      resolve({ responses, ending, elapsedMs: performance.now() - startedAt, leftover: pending.length })
    }
    const timer = setTimeout(() => finish('open'), timeoutMs)
    socket.on('error', (err: NodeJS.ErrnoException) => finish(err.code === 'ECONNRESET' ? 'reset' : 'closed'))
    socket.on('end', () => finish('closed'))
    socket.on('close', () => finish('closed'))
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk])
      for (;;) {
        const res = parse(pending, o.heads?.includes(responses.length) === true)
        if (res === undefined) break
        responses.push(res)
        pending = pending.subarray(pending.indexOf('\r\n\r\n') + 4 + res.body.length)
      }
      if (o.expect !== undefined && responses.length >= o.expect) finish('open')
    })
    void (async () => {
      for (const chunk of chunks) {
        if (settled || socket.destroyed) return
        socket.write(chunk)
        if (o.gapMs !== undefined) await new Promise((r) => setTimeout(r, o.gapMs))
      }
    })()
  })
}
