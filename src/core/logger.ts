import { pino, type Logger as PinoLogger } from 'pino'

/** Structured JSON logs (pino). Components take a child logger with their name bound. */
export type Logger = PinoLogger

export function createLogger(level: string, name = 'predmkt'): Logger {
  return pino({ name, level, base: { pid: process.pid } })
}

/** A logger that drops everything, for tests and benchmarks. */
export const silentLogger: Logger = pino({ level: 'silent' })
