/**
 * `npm run watch`: the top spreads, live, in a terminal. Subscribes to `spreads.top` (a `limit=20` view unless
 * told otherwise) over /api/v2/stream with the stream client, and redraws the table on every list frame, every
 * heartbeat (which carries each venue feed's state and data age) and every connection change.
 *
 * STREAM_URL and API_KEY come from the environment, or --url and --key (see USAGE in watch-view.ts).
 */
import { nodeStreamClient } from '../src/stream-client/node-client.js'
import { StreamClosedError } from '../src/stream-client/stream-client.js'
import { parseWatchArgs, renderScreen, USAGE } from './watch-view.js'

function main(): void {
  const options = parseWatchArgs(process.argv.slice(2), process.env)
  if ('error' in options) {
    console.error(`${options.error}\n${USAGE}`)
    process.exitCode = 2
    return
  }
  const client = nodeStreamClient({ url: options.url, apiKey: options.apiKey })
  const tty = process.stdout.isTTY === true
  // Piped into `head` and the reader went away: stop quietly.
  let stopping = false
  const stop = () => {
    stopping = true
    client.close()
  }
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') stop()
    else throw error
  })
  let lastClose: string | undefined
  client.on('state', ({ state, code, reason }) => {
    if (code !== undefined && state !== 'open') lastClose = `last close ${code}${reason ? ` ${reason}` : ''}`
  })
  const draw = () => {
    if (!process.stdout.writable) return
    const lines = renderScreen({
      url: options.url,
      view: options.view,
      state: client.state,
      ...(client.state === 'open' || lastClose === undefined ? {} : { note: lastClose }),
      items: client.topList(options.view)?.items() ?? [],
      heartbeat: client.lastHeartbeat,
      resyncing: client.stream('spreads.top', options.view)?.awaitingSnapshot ?? false,
      width: tty ? process.stdout.columns : 120,
    })
    // On a terminal: home the cursor and clear, so the table redraws in place; piped: one table after another.
    process.stdout.write(`${tty ? '\x1b[H\x1b[2J' : '\n'}${lines.join('\n')}\n`)
  }
  client.on('top', draw)
  client.on('hb', draw)
  client.on('state', draw)
  client.on('welcome', () => {
    // Subscribing again after a reconnect is the client's job (with resume); only the first time is ours.
    if (client.subscriptions.length > 0) return
    client.subscribe('spreads.top', [options.view]).then(
      ({ ack }) => {
        for (const r of ack.rejected ?? []) {
          console.error(`rejected ${r.key}: ${r.code} ${r.reason}`)
          process.exitCode = 1
          client.close()
        }
      },
      (error: unknown) => console.error(`subscribe failed: ${String(error)}`),
    )
  })
  client.connect().catch((error: unknown) => {
    if (stopping) return
    console.error(error instanceof StreamClosedError ? `closed by the server: ${error.message}` : String(error))
    process.exitCode = 1
  })
  process.once('SIGINT', stop)
}

main()
