import { StreamClient, type StreamClientOptions } from './stream-client.js'
import { wsTransport } from './ws-transport.js'

/** A StreamClient over Node's `ws` (the API key goes in the `X-API-Key` header unless `auth` says otherwise). */
export function nodeStreamClient(options: Omit<StreamClientOptions, 'transport'>): StreamClient {
  return new StreamClient({ ...options, transport: wsTransport })
}
