/**
 * The REST calls the page makes (same origin), with the API key in `X-API-Key` when it has one. A 401 is its own
 * error, so the page can ask for a key; every other error carries the API's `detail`.
 */
export class UnauthorizedError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UnauthorizedError'
  }
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

export async function getJson<T>(path: string, apiKey: string | undefined): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' }
  if (apiKey !== undefined) headers['x-api-key'] = apiKey
  const res = await fetch(path, { headers })
  return readJson<T>(res)
}

export async function postJson<T>(path: string, body: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: res.status, body: await readJson<T>(res) }
}

async function readJson<T>(res: Response): Promise<T> {
  const text = await res.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    body = undefined
  }
  if (res.status === 401) throw new UnauthorizedError(detailOf(body) ?? 'an API key is needed')
  if (!res.ok) throw new ApiError(res.status, detailOf(body) ?? `HTTP ${res.status}`)
  return body as T
}

/** The API's error text: `detail` as a string, or the messages of a 422's issues. */
export function detailOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined
  const detail = (body as { detail?: unknown }).detail
  if (typeof detail === 'string') return detail
  if (Array.isArray(detail))
    return detail
      .map((i: { loc?: unknown; msg?: unknown }) => {
        const field = Array.isArray(i.loc) ? String(i.loc.at(-1)) : ''
        return `${field}: ${typeof i.msg === 'string' ? i.msg : 'invalid'}`
      })
      .join('; ')
  return undefined
}
