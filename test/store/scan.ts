import type { Db } from '../../src/store/db.js'

/**
 * Every column of every table of the store's schema, as text, searched for `needles`: the proof that no
 * plaintext key (nor its secret part) is stored anywhere. Column names come from the catalog and are quoted;
 * the needles are parameters.
 */
export async function findInAnyColumn(db: Db, needles: readonly string[]): Promise<string[]> {
  const { rows: columns } = await db.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name IN (SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE')
      ORDER BY table_name, ordinal_position`,
  )
  const hits: string[] = []
  for (const { table_name: t, column_name: c } of columns) {
    const sql = `SELECT count(*) AS n FROM ${ident(t)} WHERE position($1 in ${ident(c)}::text) > 0`
    for (const needle of needles) {
      const { rows } = await db.query<{ n: unknown }>(sql, [needle])
      if (Number(rows[0]?.n ?? 0) > 0) hits.push(`${t}.${c}`)
    }
  }
  return hits
}

/** Tables of the store's schema (to check none was dropped). */
export async function tableNames(db: Db): Promise<string[]> {
  const { rows } = await db.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name",
  )
  return rows.map((r) => r.table_name)
}

export async function countRows(
  db: Db,
  table: 'accounts' | 'api_keys' | 'alert_rules' | 'api_key_usage',
): Promise<number> {
  const { rows } = await db.query<{ n: unknown }>(`SELECT count(*) AS n FROM ${table}`)
  return Number(rows[0]?.n ?? 0)
}

function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`
}

/** Strings that break naively concatenated SQL; the store must keep them verbatim. */
export const INJECTIONS = [
  "'); DROP TABLE accounts; --",
  "x' OR '1'='1",
  'Robert"; DELETE FROM api_keys; --',
  "$1 $2 \\'; TRUNCATE alert_rules CASCADE; --",
  "'; UPDATE api_keys SET revoked_at = NULL; SELECT '",
] as const
