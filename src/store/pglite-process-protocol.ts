/**
 * Messages between PGliteProcessDb and the embedded store's process (Node IPC with `advanced` serialization,
 * so rows keep their Dates and byte arrays).
 */
export type StoreRequest =
  | { readonly op: 'query'; readonly id: number; readonly sql: string; readonly params?: readonly unknown[] }
  | { readonly op: 'exec'; readonly id: number; readonly sql: string }
  | { readonly op: 'close'; readonly id: number }

export type StoreReply =
  | { readonly type: 'ready' }
  /** The data directory's lock is held by another store process (`holder`): this one waits for it. */
  | { readonly type: 'waiting'; readonly holder: number; readonly since: string }
  | { readonly type: 'failed'; readonly error: string }
  | { readonly type: 'result'; readonly id: number; readonly rows: object[]; readonly rowCount: number }
  | {
      readonly type: 'error'
      readonly id: number
      readonly error: { message: string; code?: string; detail?: string; constraint?: string }
    }
