/** Timestamps in API bodies: ISO 8601, UTC, without a zone suffix (the spec's convention). */
export function isoNoZone(ms: number): string {
  return new Date(ms).toISOString().slice(0, -1)
}

/** Lenient timestamp parsing for venue payloads: ISO strings, epoch seconds or milliseconds (number or string). */
export function parseTimestampMs(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? (value < 1e11 ? value * 1000 : value) : undefined
  if (typeof value !== 'string' || value.length === 0) return undefined
  if (/^\d+$/.test(value)) {
    const n = Number(value)
    return n < 1e11 ? n * 1000 : n
  }
  // SQL-style times with an hour-only offset ("2026-03-24 06:40:23+00", as some venues send): make them ISO-parseable.
  const normalized = /^\d{4}-\d{2}-\d{2} /.test(value)
    ? value.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00')
    : value
  const ms = Date.parse(normalized)
  return Number.isNaN(ms) ? undefined : ms
}

export const MS_PER_MINUTE = 60_000
export const MS_PER_HOUR = 3_600_000
export const MS_PER_DAY = 86_400_000
