import { readFileSync } from 'node:fs'
import uWS from 'uWebSockets.js'
import { JSON_CONTENT_TYPE, renderHeaderLines, statusLine } from '../src/http/reply.js'

/**
 * The HTTP bench's reference server, run as its own process: bare uWS answering every GET with one fixed body,
 * the status line and the headers our HttpServer wrote for it (content-type, plus whatever a route adds; uWS
 * adds Date, Content-Length and its own header to both), nothing else. No routing, validation, query parsing or cache lookup: what is left is the cost of uWS moving these
 * bytes, so the service's req/s divided by this one's is the share of the ceiling our code keeps.
 *
 * Usage: node dist/bench/bare-uws.js <body-file> [port]   (BARE_BODY_FILE / BARE_PORT work too; port 0 = any)
 * BARE_HEADERS: a JSON array of [name, value] pairs to send (default: our JSON content-type only), written in one
 * uWS call as our writer does (the first pair's value carries the others as rendered lines), so the bare server
 * pays no native call per header that the service does not. BARE_STATUS: the status to answer (default 200); a
 * 304 or 204 is sent without a body, as the service sends it.
 * Prints `listening <port>` on stdout once it accepts connections. BARE_BODY_AS=string hands uWS the body as
 * a JS string instead (what our Reply carries), to tell uWS's per-request string encoding from our own code.
 */
const file = process.argv[2] ?? process.env.BARE_BODY_FILE
if (file === undefined) {
  console.error('usage: bare-uws <body-file> [port]')
  process.exit(2)
}
// A Buffer read once: the best case uWS can do (no per-request UTF-8 encoding of a string), so the ratio is
// measured against a true ceiling.
const bytes = readFileSync(file)
const body = process.env.BARE_BODY_AS === 'string' ? bytes.toString('utf8') : bytes
const port = Number(process.argv[3] ?? process.env.BARE_PORT ?? 0)
const statusCode = Number(process.env.BARE_STATUS ?? '200')
const status = statusLine(statusCode)
const bodyless = statusCode === 204 || statusCode === 304
const headers = JSON.parse(process.env.BARE_HEADERS ?? JSON.stringify([['content-type', JSON_CONTENT_TYPE]])) as [
  string,
  string,
][]
const [first, ...rest] = headers
const firstValue = first === undefined ? undefined : first[1] + renderHeaderLines(rest)

const app = uWS.App().get('/*', (res) => {
  res.writeStatus(status)
  if (first !== undefined) res.writeHeader(first[0], firstValue as string)
  if (bodyless) res.endWithoutBody()
  else res.end(body)
})

app.listen('127.0.0.1', port, (socket) => {
  if (socket === false) {
    console.error(`bare-uws: cannot listen on 127.0.0.1:${port}`)
    process.exit(1)
  }
  process.stdout.write(`listening ${uWS.us_socket_local_port(socket as unknown as uWS.us_socket)}\n`)
  const stop = (): void => {
    uWS.us_listen_socket_close(socket)
    process.exit(0)
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
})
