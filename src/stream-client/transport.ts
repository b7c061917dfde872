/**
 * What the client needs from a socket: send text, close, and four callbacks. The protocol logic (StreamClient)
 * sees only this, so it runs over Node's `ws` (ws-transport.ts) today and over a browser `WebSocket` later (a
 * browser cannot set headers: it authenticates by query or first frame, see `AuthMode`).
 */
export interface TransportHandlers {
  onOpen(): void
  onMessage(text: string): void
  /** Called once per transport, also after a network error (code 1006 then). */
  onClose(code: number, reason: string): void
  onError(error: Error): void
}

export interface Transport {
  send(text: string): void
  close(code?: number, reason?: string): void
}

export type TransportFactory = (
  url: string,
  headers: Readonly<Record<string, string>>,
  handlers: TransportHandlers,
) => Transport
