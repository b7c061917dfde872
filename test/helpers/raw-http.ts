import net from 'node:net'

/**
 * A minimal HTTP/1.1 client over a bare socket, for requests `fetch` refuses to send: repeated headers, any
 * content type with any bytes, a request target with percent-escapes of invalid UTF-8. One request per
 * connection (`Connection: close`); the response is read up to its Content-Length.
 */
export interface RawRequest {
  readonly method: string
  /** Path and query, sent as is (already percent-encoded). */
  readonly target: string
  readonly headers: readonly (readonly [string, string])[]
  readonly body?: Buffer
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
  if (req.body !== undefined) lines.push(`Content-Length: ${req.body.length}`)
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1')
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
    socket.write(req.body === undefined ? head : Buffer.concat([head, req.body]))
  })
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
