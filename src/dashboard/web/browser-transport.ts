import type { Transport, TransportFactory } from '../../stream-client/transport.js'

/**
 * The stream client's transport over the browser's WebSocket. A browser cannot set headers on the upgrade, so the
 * `headers` the client offers are not sent: the page authenticates with a first `auth` frame (StreamClient's
 * `auth: 'frame'`), which, unlike `?api_key=`, does not end up in access logs. With AUTH_REQUIRED=false it sends
 * no key at all and the server lets the connection in at once.
 */
export const browserTransport: TransportFactory = (url, _headers, handlers): Transport => {
  const ws = new WebSocket(url)
  ws.addEventListener('open', () => handlers.onOpen())
  ws.addEventListener('message', (e: MessageEvent<unknown>) => {
    if (typeof e.data === 'string') handlers.onMessage(e.data)
  })
  ws.addEventListener('close', (e) => handlers.onClose(e.code, e.reason))
  ws.addEventListener('error', () => handlers.onError(new Error('WebSocket error')))
  return {
    send: (text) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(text)
    },
    close: (code, reason) => {
      if (ws.readyState === WebSocket.CLOSING || ws.readyState === WebSocket.CLOSED) return
      // A browser accepts only 1000 and 3000-4999 from a page.
      if (code === undefined || (code !== 1000 && (code < 3000 || code > 4999))) ws.close()
      else ws.close(code, reason)
    },
  }
}

/** The stream's URL on the host that served the page (ws: or wss: as the page's scheme). */
export function streamUrl(location: Location): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/api/v2/stream`
}
