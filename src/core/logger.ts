import { pino, type DestinationStream, type Logger as PinoLogger } from 'pino'

/**
 * Structured JSON logs (pino), one object per line. Components take a child logger with their name bound.
 *
 * pino does not merge keys: a child's bindings and a call's fields are written side by side, so a field that
 * repeats a binding (`venue` on a logger bound to a venue) or a base field (`level`, `time`, `pid`, `hostname`,
 * `name`, `msg`) makes a line with a duplicate key, and a JSON log shipper keeps one of the two at random. Call
 * sites pick names that shadow nothing; the test services log through `createLogger` at debug level and fail on
 * any line with a duplicate key (test/helpers/checked-logger.ts).
 */
export type Logger = PinoLogger

export function createLogger(level: string, name = 'predmkt', destination?: DestinationStream): Logger {
  const options = { name, level, base: { pid: process.pid } }
  return destination === undefined ? pino(options) : pino(options, destination)
}

/** A logger that drops everything, for tests and benchmarks. */
export const silentLogger: Logger = pino({ level: 'silent' })
