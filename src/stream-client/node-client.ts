import { systemClock, type Clock } from '../core/clock.js'
import { StreamClient, type StreamClientOptions } from './stream-client.js'
import { wsTransport } from './ws-transport.js'

/**
 * The clock of a Node client: the system clock, but with timers that keep the process alive (systemClock's are
 * unref'd). Between a close and the reconnect no socket is open, and an unref'd backoff timer would let a watching
 * process exit instead of reconnecting. `close()` clears them, so a closed client does not hold the process.
 */
const keepAliveClock: Clock = {
  ...systemClock,
  setTimeout: (fn, delayMs) => setTimeout(fn, delayMs),
  setInterval: (fn, periodMs) => setInterval(fn, periodMs),
}

/** A StreamClient over Node's `ws` (the API key goes in the `X-API-Key` header unless `auth` says otherwise). */
export function nodeStreamClient(options: Omit<StreamClientOptions, 'transport'>): StreamClient {
  return new StreamClient({ clock: keepAliveClock, ...options, transport: wsTransport })
}
