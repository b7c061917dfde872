import type { SimHandler, SimRequest, SimResponse } from '../http-router.js'

/**
 * A request the venue rejects, with the exact status and body the venue would send. Handlers throw it from
 * deep inside parameter parsing; `guard` turns it into the response, so no handler repeats the plumbing.
 */
export class WireError extends Error {
  readonly status: number
  readonly body: unknown

  constructor(status: number, body: unknown) {
    super(
      typeof body === 'object' && body !== null && 'error' in body
        ? String((body as { error: unknown }).error)
        : `status ${status}`,
    )
    this.name = 'WireError'
    this.status = status
    this.body = body
  }
}

/** Wraps a handler so a thrown WireError becomes its response; anything else stays a 500 from the router. */
export function guard(handler: (req: SimRequest) => SimResponse): SimHandler {
  return (req) => {
    try {
      return handler(req)
    } catch (err) {
      if (err instanceof WireError) return { status: err.status, body: err.body }
      throw err
    }
  }
}

export function ok(body: unknown): SimResponse {
  return { status: 200, body }
}
