import WebSocket from 'ws'
import type { Transport, TransportFactory } from './transport.js'

/** The Node transport: the `ws` package, which (unlike a browser) can send the API key as a header. */
export const wsTransport: TransportFactory = (url, headers, handlers) => {
  const ws = new WebSocket(url, { headers: { ...headers } })
  ws.on('open', () => handlers.onOpen())
  ws.on('message', (data, isBinary) => {
    if (!isBinary) handlers.onMessage(rawText(data))
  })
  ws.on('close', (code, reason) => handlers.onClose(code, reason.toString('utf8')))
  ws.on('error', (error) => handlers.onError(error))
  const transport: Transport = {
    send: (text) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(text)
    },
    close: (code, reason) => {
      // Before the handshake completes `close` would throw; `terminate` aborts it and still emits 'close'.
      if (ws.readyState === WebSocket.CONNECTING) ws.terminate()
      else ws.close(code, reason)
    },
  }
  return transport
}

function rawText(data: WebSocket.RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8')
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  return Buffer.from(data).toString('utf8')
}
